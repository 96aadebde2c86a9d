package engine_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/crc32c"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// crcOf is a file's CRC32C as Cloud Storage writes it.
func crcOf(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], crc32c.Checksum(data))
	return base64.StdEncoding.EncodeToString(b[:])
}

// storageAnswer reads an object's resource as Cloud Storage gave it.
func storageAnswer(t *testing.T, obj emulator.Object) (a struct {
	ID, Name, Bucket, Generation, StorageClass, CRC32C, MD5Hash string
}) {
	t.Helper()
	if err := json.Unmarshal(obj.Response, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestStorageEveryMethod: a file becomes an object in the bucket, under the
// folder, named after the file, with its type and the storage class chosen;
// the server is told its CRC32C and that the name must be free, and its
// own checksums prove the object whole.
func TestStorageEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := pngFile(t, dir, "Plan « été ».png", 600*kib)
	const name = "banners/2026/Plan « été ».png"
	for _, m := range methods {
		if m.method == upload.Media {
			continue // the name and the class cannot go without metadata
		}
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			d := dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{
				"bucket": "gs://northwind-banners", "folder": "/banners/2026/", "storageClass": "nearline"}}
			v := l.one(d, file)
			r := done(t, v)
			meta := `{"contentType":"image/png","name":"` + name + `","storageClass":"NEARLINE"}`
			want := used(m.method, m.threshold, meta)
			if want == upload.Multipart {
				meta = strings.TrimSuffix(meta, "}") + `,"crc32c":"` + crcOf(t, file) + `"}` // Cloud Storage refuses bytes that do not match it
			}
			obj := checkWire(t, l, want, wire{httpMethod: "POST", path: "/upload/storage/v1/b/northwind-banners/o",
				query: map[string]string{"ifGenerationMatch": "0"}, contentType: "image/png", metadata: meta}, file)
			a := storageAnswer(t, obj)
			if r.ID != a.ID || r.Name != name || r.URL != l.url+"/sandbox/objects/"+obj.ID {
				t.Errorf("result %q named %q at %q, want %q named %q at the sandbox's link", r.ID, r.Name, r.URL, a.ID, name)
			}
			if r.Verified != upload.VerifiedCRC32C {
				t.Errorf("verified by %q, want Cloud Storage's crc32c", r.Verified)
			}
			if !resultSays(r, fact.Code("result.storage"), "bucket", "northwind-banners", "title", name, "storageClass", "NEARLINE") {
				t.Errorf("result %q (fact %+v)", summaryOf(r), r.Fact())
			}
			if got := summaryOf(r); !strings.HasPrefix(got, "Saved in the bucket northwind-banners. Name: "+name) || !strings.Contains(got, "Storage class: Nearline") {
				t.Errorf("said %q", got)
			}
		})
	}
}

// TestStorageReplacesOnlyOnPurpose: a name the bucket holds already is not
// overwritten unless the destination says so; then the upload replaces
// exactly the generation it found.
func TestStorageReplacesOnlyOnPurpose(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Auto, 0)
	first := pngFile(t, t.TempDir(), "logo.png", 40*kib)
	second := pngFile(t, t.TempDir(), "logo.png", 90*kib)
	d := dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind-banners"}}
	done(t, l.one(d, first))
	before := len(l.srv.Requests())

	v := l.one(d, second)
	if v.State != engine.Refused || reasonOf(v) != "The bucket northwind-banners already holds an object named logo.png, and this destination does not replace objects, so logo.png was not sent. Turn on “Replace an object of the same name” for it (--replace true on the command line), or rename the file, then add it again." {
		t.Fatalf("%s: %q", v.State, reasonOf(v))
	}
	if n := len(l.srv.Requests()); n != before {
		t.Errorf("%d upload requests were made for a name that is taken", n-before)
	}
	if objs := l.srv.Objects(); len(objs) != 1 || objs[0].SHA256 != sha(t, first) {
		t.Fatalf("the bucket holds %+v", objs)
	}
	gen := storageAnswer(t, l.srv.Objects()[0]).Generation

	d.Params["replace"] = "true"
	r := done(t, l.one(d, second))
	reqs := l.srv.Requests()
	if q := reqs[len(reqs)-1].Query; q.Get("ifGenerationMatch") != gen {
		t.Errorf("replaced with %v, want the generation found, %s", q, gen)
	}
	objs := l.srv.Objects()
	if len(objs) != 2 || objs[1].SHA256 != sha(t, second) || r.ID != storageAnswer(t, objs[1]).ID {
		t.Errorf("objects %+v, result %q", objs, r.ID)
	}
}

// TestStorageNameTakenMeanwhile: an object made under the name between the
// look and the upload makes Cloud Storage refuse it (412): said as the name
// taken, never as a copy that arrived, and a refusal until the user
// chooses (a resume does not send it again).
func TestStorageNameTakenMeanwhile(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Multipart, 0)
	file := pngFile(t, t.TempDir(), "logo.png", 40*kib)
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Answer{
		Status: http.StatusPreconditionFailed, Reason: "conditionNotMet", Message: "At least one of the pre-conditions you specified did not hold."}})
	v := l.one(dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind-banners"}}, file)
	if v.State != engine.Failed || reasonOf(v) != "The bucket already holds an object with the name logo.png would get: it was put there while the file was on its way, and this destination does not replace objects." {
		t.Errorf("%s: %q", v.State, reasonOf(v))
	}
	if !isFact(v.NextFact, fact.ChangeAndSend) || l.srv.Received() != 0 {
		t.Errorf("next %q, %d objects", nextOf(v), l.srv.Received())
	}
}

// TestStorageLostAnswerSettledByThePrecondition: the answer to an upload
// that arrived is lost; sent again, it is refused because the name is no
// longer free (412), and the object found there is the file (its size and
// CRC32C): done, once, with the object's own id.
func TestStorageLostAnswerSettledByThePrecondition(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Multipart, 0)
	file := pngFile(t, t.TempDir(), "spring.png", 70*kib)
	l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{}})
	r := done(t, l.one(dest.Destination{Kind: dest.Storage, BaseURL: l.url, Params: map[string]string{"bucket": "northwind-banners"}}, file))
	uploads(l.srv) // the lost answer's request is noted once its connection closed
	var statuses []int
	for _, q := range l.srv.Requests() {
		if q.Query.Get("ifGenerationMatch") != "0" {
			t.Errorf("sent without the precondition: %v", q.Query)
		}
		statuses = append(statuses, q.Status)
	}
	slices.Sort(statuses)
	if len(statuses) != 2 || statuses[0] != 0 || statuses[1] != http.StatusPreconditionFailed {
		t.Errorf("answers %v, want the lost one and a 412", statuses)
	}
	obj := l.object()
	if r.ID != storageAnswer(t, obj).ID || r.Verified != upload.VerifiedCRC32C || obj.SHA256 != sha(t, file) {
		t.Errorf("result %q verified by %q; the object %s", r.ID, r.Verified, storageAnswer(t, obj).ID)
	}
}
