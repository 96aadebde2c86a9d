package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
	"hoist/words"
)

// Campaign Manager 360 uploads go to API v5 unless told otherwise.
func TestCampaignManagerGoesToV5(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Auto, 0)
	banner := pngFile(t, t.TempDir(), "banner.png", 0)
	d := dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	done(t, l.one(d, banner))
	if p := l.object().Path; p != "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets" {
		t.Errorf("stored from %s, want API v5", p)
	}
}

// v4, which Google switched off, is refused before a byte is sent, in the
// words a saved destination moved off it is told in. A version Google
// switches off later (v5 here, the one Hoist takes as current) is refused as
// Google refuses it; the row says what to do, shows Google's words, and the
// whole file is not sent again as multipart: a version that is gone
// refuses every way of sending.
func TestCampaignManagerV4IsToldAsSuch(t *testing.T) {
	t.Run("v4 known", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Auto, 0)
		d := dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2", "apiVersion": "v4"}}
		res := l.q.Add([]string{pngFile(t, t.TempDir(), "banner.png", 0)}, d)
		var fe dest.FieldErrors
		if len(res.Problems) != 1 || !errors.As(res.Problems[0], &fe) || fe[0].Field != "apiVersion" ||
			!strings.HasPrefix(words.English().Fact(fe[0].Fact), "Google switched off Campaign Manager 360 API v4 (and older versions) on 26 February 2026") {
			t.Errorf("problems %v", res.Problems)
		}
		if n := len(l.srv.Requests()); n != 0 {
			t.Errorf("%d requests", n)
		}
	})
	const sunset = "3140 : Version v5 of the DCM/DFA Reporting And Trafficking API is no longer supported. Please migrate to a supported version of the API."
	for _, m := range []upload.Method{upload.Resumable, upload.Multipart} {
		t.Run(string(m), func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m, 0)
			l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden", Message: sunset}})
			banner := pngFile(t, t.TempDir(), "banner.png", 600*kib)
			d := dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
			v := l.one(d, banner)
			want := "Campaign Manager 360 no longer supports API v5. Set the destination's API version to the current one (under Advanced; --api-version on the command line), or update Hoist, and send the file again."
			if v.State != engine.Failed || !strings.HasPrefix(reasonOf(v), want) {
				t.Errorf("state %s, reason %q; want %q", v.State, reasonOf(v), want)
			}
			if v.Details != sunset {
				t.Errorf("details %q: Google's words are missing", v.Details)
			}
			if v.FellBack {
				t.Error("fell back to a one-request upload")
			}
			reqs := l.srv.Requests()
			if len(reqs) != 1 || reqs[0].Status != http.StatusForbidden {
				t.Errorf("requests %+v: want one, refused with 403", reqs)
			}
		})
	}
}

// Jobs in the journal set to v4 come back set to v5, saying so once.
func TestJournalJobsMoveToV5(t *testing.T) {
	dir := t.TempDir()
	banner := pngFile(t, dir, "banner.png", 0)
	path := filepath.Join(dir, "uploads.db")
	v4 := dest.Destination{Kind: dest.CM360, BaseURL: "http://127.0.0.1:9", Params: map[string]string{"profileId": "1", "advertiserId": "2", "apiVersion": "v4"}}

	open := func() (*journal.Journal, *engine.Queue) { return openJournaled(t, path, engine.Options{Idle: true}) }
	shut := func(j *journal.Journal, q *engine.Queue) { shutJournaled(t, j, q) }
	j, q := open()
	v5 := v4
	v5.Params = map[string]string{"profileId": "1", "advertiserId": "2", "apiVersion": "v5"}
	res := q.Add([]string{banner}, v5)
	if len(res.IDs) != 1 {
		t.Fatalf("Add: %+v", res)
	}
	if n := q.Notices(); len(n) != 0 {
		t.Errorf("notices before any move: %+v", n)
	}
	shut(j, q)
	// The list was written by a Hoist of before: its upload is set to v4.
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := j.Get(string(res.IDs[0]))
	if err != nil {
		t.Fatal(err)
	}
	rec.Destination, _ = json.Marshal(v4)
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j, q = open()
	want := "Google switched off Campaign Manager 360 API v4 (and older versions) on 26 February 2026, so a listed upload that used an old version now uses v5."
	if n := q.Notices(); len(n) != 1 || n[0].Code != fact.UpgradedListed || words.English().Fact(n[0]) != want {
		t.Errorf("notices %+v, want %q", n, want)
	}
	if n := q.Notices(); len(n) != 0 {
		t.Errorf("said twice: %+v", n)
	}
	shut(j, q)

	j, err = journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	recs, err := j.List()
	if err != nil || len(recs) != 1 {
		t.Fatalf("records %v, err %v", recs, err)
	}
	var d dest.Destination
	if err := json.Unmarshal(recs[0].Destination, &d); err != nil || d.Param("apiVersion") != "v5" {
		t.Errorf("saved destination %s (err %v), want API v5", recs[0].Destination, err)
	}
	_ = j.Close()
	j, q = open()
	if n := q.Notices(); len(n) != 0 {
		t.Errorf("said again at the next start: %+v", n)
	}
	shut(j, q)
}

// A resumed job keeps the chunk size it began with, whatever the queue's
// setting is when it resumes.
func TestResumeKeepsTheJobsChunkSize(t *testing.T) {
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close()
	dir := t.TempDir()
	file := pngFile(t, dir, "big.png", 1<<20)
	path := filepath.Join(dir, "uploads.db")
	open := func(chunk int64, idle bool) (*journal.Journal, *engine.Queue) {
		return openJournaled(t, path, engine.Options{Idle: idle, AutoResume: !idle, ChunkSize: chunk, Method: upload.Resumable, Backoff: instant{}})
	}
	j, q := open(256*kib, true)
	d := dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": ts.URL + "/upload/storage/v1/b/test/o?name=big.png"}}
	if res := q.Add([]string{file}, d); len(res.IDs) != 1 {
		t.Fatalf("Add: %+v", res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()

	j, q = open(0, false) // a whole-file setting now: the job still goes in 256 KiB
	if err := q.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	views := q.Jobs()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()
	if len(views) != 1 || views[0].State != engine.Done {
		t.Fatalf("jobs %+v", views)
	}
	chunks := 0
	for _, r := range srv.Requests() {
		if r.Stage == emulator.StageChunk {
			chunks++
			if r.BodyBytes > 256*kib {
				t.Errorf("a chunk of %d bytes, want at most 256 KiB", r.BodyBytes)
			}
		}
	}
	if chunks != 4 {
		t.Errorf("%d chunks, want 4", chunks)
	}
}

// openJournaled opens the journal at path and a queue on it with opts.
func openJournaled(t *testing.T, path string, opts engine.Options) (*journal.Journal, *engine.Queue) {
	t.Helper()
	j, err := journal.Open(path, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Journal = j
	q, err := engine.Open(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return j, q
}

// shutJournaled closes what openJournaled opened.
func shutJournaled(t *testing.T, j *journal.Journal, q *engine.Queue) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Error(err)
	}
	if err := j.Close(); err != nil {
		t.Error(err)
	}
}
