package engine_test

import (
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

const driveFields = "id,name,mimeType,size,md5Checksum,webViewLink"

// TestDriveEveryMethod: a file goes into a folder given by its link, with
// the metadata, query and headers files.create takes, and Drive's
// md5Checksum proves it arrived whole.
func TestDriveEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := pngFile(t, dir, "Plan « été ».png", 600*kib)
	const meta = `{"name":"Plan « été ».png","parents":["1FoLdEr_x-9"]}`
	for _, m := range methods {
		if m.method == upload.Media {
			continue // the name and folder cannot go without metadata
		}
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			d := dest.Destination{Kind: dest.Drive, BaseURL: l.url,
				Params: map[string]string{"folder": "https://drive.google.com/drive/folders/1FoLdEr_x-9?usp=sharing"}}
			v := l.one(d, file)
			r := done(t, v)
			want := used(m.method, m.threshold, meta)
			// Each file is marked with its job, so that it can be found when an answer is lost.
			marked := strings.TrimSuffix(meta, "}") + `,"appProperties":{"hoistJob":"` + string(v.ID) + `"}}`
			obj := checkWire(t, l, want, wire{httpMethod: "POST", path: "/upload/drive/v3/files",
				query:       map[string]string{"supportsAllDrives": "true", "fields": driveFields},
				contentType: "image/png", metadata: marked}, file)
			if r.ID != obj.ID || r.Name != "Plan « été ».png" || r.URL != l.url+"/sandbox/objects/"+obj.ID {
				t.Errorf("result %q named %q at %q, want %q named the file at its link", r.ID, r.Name, r.URL, obj.ID)
			}
			if r.Verified != upload.VerifiedMD5 {
				t.Errorf("verified by %q, want Drive's md5Checksum", r.Verified)
			}
			if !resultSays(r, fact.Code("result.drive"), "id", obj.ID, "title", "Plan « été ».png") {
				t.Errorf("result %q (fact %+v), want saved in Drive as %s", summaryOf(r), r.Fact(), obj.ID)
			}
		})
	}
}

// TestDriveNewVersion: with a file to replace, the bytes go by PATCH to
// files.update, with no metadata, so the file keeps its name and folder;
// a file Drive does not have is a plain sentence.
func TestDriveNewVersion(t *testing.T) {
	dir := t.TempDir()
	first := pngFile(t, dir, "logo.png", 100*kib)
	second := pngFile(t, t.TempDir(), "logo.png", 300*kib)
	l := newLab(t, emulator.Options{}, upload.Resumable, 0)
	made := done(t, l.one(dest.Destination{Kind: dest.Drive, BaseURL: l.url}, first))

	d := dest.Destination{Kind: dest.Drive, BaseURL: l.url,
		Params: map[string]string{"fileId": "https://drive.google.com/file/d/" + made.ID + "/view"}}
	r := done(t, l.one(d, second))
	reqs := l.srv.Requests()
	start := reqs[len(reqs)-2] // the session start, then one chunk of 256 KiB… and the rest
	for _, q := range reqs {
		if q.Stage == emulator.StageStart {
			start = q
		}
	}
	if start.Method != "PATCH" || start.Path != "/upload/drive/v3/files/"+made.ID || start.Query.Get("supportsAllDrives") != "true" {
		t.Errorf("new version started with %s %s ?%v, want PATCH /upload/drive/v3/files/%s ?supportsAllDrives=true", start.Method, start.Path, start.Query, made.ID)
	}
	if r.ID != made.ID || r.Name != "logo.png" || r.Verified != upload.VerifiedMD5 {
		t.Errorf("new version: result %q named %q verified by %q, want %q named logo.png, md5", r.ID, r.Name, r.Verified, made.ID)
	}
	if !resultSays(r, fact.Code("result.driveVersion"), "id", made.ID, "title", "logo.png") {
		t.Errorf("result %q (fact %+v), want a new version of %s", summaryOf(r), r.Fact(), made.ID)
	}

	d.Params["fileId"] = "1NoSuchFile"
	v := l.one(d, second)
	if v.State == "done" || reasonOf(v) != "Google Drive could not find the file 1NoSuchFile, or Hoist may not change it (Hoist can update only files it made)." {
		t.Errorf("missing file: %s, %q", v.State, reasonOf(v))
	}
}
