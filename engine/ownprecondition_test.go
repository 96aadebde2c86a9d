package engine_test

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// TestAnAddressAskingForAFreeName: an upload URL of Cloud Storage with its
// own ifGenerationMatch=0, for a name that holds an object, is refused
// before a byte is sent, saying that the name is taken and how to replace
// the object; taken while the file was on its way (412), it says the same,
// never the server's raw answer alone or a resume that cannot help.
func TestAnAddressAskingForAFreeName(t *testing.T) {
	const said = "The bucket northwind already holds an object named logo.png, and the upload URL asks for a name that holds nothing (ifGenerationMatch=0), so logo.png was not sent. To replace the object, take ifGenerationMatch=0 out of the upload URL, or rename the file, then add it again."
	l := newLab(t, emulator.Options{}, upload.Multipart, 0)
	first := pngFile(t, t.TempDir(), "logo.png", 40*kib)
	second := pngFile(t, t.TempDir(), "logo.png", 50*kib)
	bucket := dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind"}}
	done(t, l.one(bucket, first))
	before := len(l.srv.Requests())

	d := freeNameURL(t, l.url)
	v := l.one(d, second)
	if v.State != engine.Refused || reasonOf(v) != said {
		t.Errorf("%s: %q", v.State, reasonOf(v))
	}
	for _, q := range l.srv.Requests()[before:] {
		if q.Stage == emulator.StageUpload || q.Stage == emulator.StageStart {
			t.Errorf("a request carried the file to a name that is taken: %s %s", q.Method, q.Path)
		}
	}
	if objs := l.srv.Objects(); len(objs) != 1 || objs[0].SHA256 != sha(t, first) {
		t.Errorf("the bucket holds %d objects", len(objs))
	}

	t.Run("taken while the file was on its way", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Multipart, 0)
		l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Answer{
			Status: http.StatusPreconditionFailed, Reason: "conditionNotMet", Message: "At least one of the pre-conditions you specified did not hold."}})
		d := freeNameURL(t, l.url)
		v := l.one(d, second)
		want := "The bucket already holds an object with the name logo.png would get: it was put there while the file was on its way, and the upload URL asks for a name that holds nothing (ifGenerationMatch=0). To replace the object, take ifGenerationMatch=0 out of the upload URL, then add the file again."
		if v.State != engine.Failed || reasonOf(v) != want {
			t.Errorf("%s: %q", v.State, reasonOf(v))
		}
		if strings.Contains(reasonOf(v), "{") || strings.Contains(nextOf(v), "resume") {
			t.Errorf("said %q, then %q", reasonOf(v), nextOf(v))
		}
	})
}

// freeNameURL is an upload URL of Cloud Storage at base asking for a free name.
func freeNameURL(t *testing.T, base string) dest.Destination {
	t.Helper()
	d, err := dest.FromUploadURL(map[string]string{"url": base + "/upload/storage/v1/b/northwind/o?name=logo.png&ifGenerationMatch=0"})
	if err != nil {
		t.Fatal(err)
	}
	d.Name = "Northwind logos"
	return d
}

// TestStorageSessionGoneAfterItsLastByte: the answer to a session's last
// chunk is lost and the session is gone when asked (as fake-gcs-server
// does); the new session meets the precondition (412) because the first one
// made the object, and the object, read and checked, is the file: done,
// once, never a failure while the file is there.
func TestStorageSessionGoneAfterItsLastByte(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Resumable, 0)
	file := pngFile(t, t.TempDir(), "spring.png", 300*kib)
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	last := func(r *http.Request) bool { // the chunk that carries the last byte
		return strings.HasSuffix(r.Header.Get("Content-Range"), fmt.Sprintf("-%d/%d", info.Size()-1, info.Size()))
	}
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk, Func: last}, Action: emulator.DropAnswer{}})
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageQuery}, Times: -1, Action: emulator.ExpireSession{}})
	r := done(t, l.one(dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind-banners"}}, file))
	objs := l.srv.Objects()
	if len(objs) != 1 || objs[0].SHA256 != sha(t, file) {
		t.Fatalf("the bucket holds %d objects", len(objs))
	}
	if r.ID != storageAnswer(t, objs[0]).ID || r.Verified != upload.VerifiedCRC32C {
		t.Errorf("result %q verified by %q", r.ID, r.Verified)
	}
}

// TestServerTroubleAfterTheBody: Cloud Storage's front end answers 502 after
// it passed a one-request upload on, and the object was made. Sent again
// with its precondition, the upload meets its own first copy (412): read and
// checked, it is the file, and the upload is done, once; never a failure
// saying the name was taken "while the file was on its way".
func TestServerTroubleAfterTheBody(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Multipart, 0)
	file := pngFile(t, t.TempDir(), "spring.png", 70*kib)
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.TroubleAfter{Status: http.StatusBadGateway}})
	r := done(t, l.one(dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind-banners"}}, file))
	objs := l.srv.Objects()
	if len(objs) != 1 || objs[0].SHA256 != sha(t, file) || r.ID != storageAnswer(t, objs[0]).ID || r.Verified != upload.VerifiedCRC32C {
		t.Fatalf("%d objects, result %q verified by %q", len(objs), r.ID, r.Verified)
	}
}
