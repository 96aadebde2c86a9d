package engine_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// transportFunc is an http.RoundTripper made of a function.
type transportFunc func(*http.Request) (*http.Response, error)

func (f transportFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestNothingIsSentThatCannotBeNoted: a one-request upload goes out only
// once its going is kept on the disk. With the notes of uploads under way
// unusable (their file cannot be opened for writing), the list keeps it;
// when the list too cannot be written (here: it was closed under the
// queue, between the look at the bucket and the body), the file does not
// go: it waits, unstarted.
func TestNothingIsSentThatCannotBeNoted(t *testing.T) {
	var once sync.Once
	var r *rig
	var listGone atomic.Bool
	tr := transportFunc(func(req *http.Request) (*http.Response, error) {
		if listGone.Load() && req.Method == http.MethodGet && strings.HasPrefix(req.URL.Path, "/storage/v1/b/") {
			once.Do(func() { _ = r.j.Close() }) // the list can no longer be written
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	r = newRig(t, emulator.Options{}, engine.Options{Transport: tr})
	r.close()
	if err := os.Mkdir(r.journal+".sending", 0o700); err != nil { // not a file the notes can be written to
		t.Fatal(err)
	}
	r.open()
	d := dest.Destination{Name: "Bucket", Kind: dest.Storage, BaseURL: r.url, Params: map[string]string{"bucket": "gs://northwind"}}

	// The notes cannot be written: the list keeps the doubt, and the file goes.
	p1, _ := r.file("one.png", 1000)
	res := r.q.Add([]string{p1}, d)
	if len(res.Problems) > 0 {
		t.Fatalf("add: %v", res.Problems)
	}
	r.state(res.IDs[0], engine.Done)

	// Neither can be written: the file does not go.
	listGone.Store(true)
	p2, _ := r.file("two.png", 1000)
	res = r.q.Add([]string{p2}, d)
	if len(res.Problems) > 0 {
		t.Fatalf("add: %v", res.Problems)
	}
	id := res.IDs[0]
	r.until(id, "waiting, unstarted", func(v engine.JobView) bool { return v.State == engine.Waiting && r.q.SaveProblem() != nil })
	time.Sleep(200 * time.Millisecond)
	if v, _ := r.q.Job(id); v.State != engine.Waiting {
		t.Errorf("the file is %s, want waiting", v.State)
	}
	if n := len(r.emu.Objects()); n != 1 {
		t.Errorf("%d objects: a file went out while nothing could note it", n)
	}
	uploads := 0
	for _, q := range r.emu.Requests() {
		if q.Stage == emulator.StageUpload {
			uploads++
		}
	}
	if uploads != 1 {
		t.Errorf("%d bodies went out, want only the first file's", uploads)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = r.q.Close(ctx) // its last writes fail: the list is closed
	r.q, r.j = nil, nil
}

// slowBody hands a request's body on in small pieces, a pause before each:
// a slow link.
type slowBody struct {
	r     io.ReadCloser
	pause time.Duration
}

func (s *slowBody) Read(p []byte) (int, error) {
	time.Sleep(s.pause)
	return s.r.Read(p[:min(len(p), 16<<10)])
}

func (s *slowBody) Close() error { return s.r.Close() }

// TestInDoubtSinceTheLastByte: a one-request upload whose body takes a
// while to send is in doubt from when its last byte went out, not from when
// it began: the list keeps that time for a resume, which waits its settle
// time from then (a body that took over a minute is not sent again at once).
func TestInDoubtSinceTheLastByte(t *testing.T) {
	const pause = 100 * time.Millisecond
	tr := transportFunc(func(req *http.Request) (*http.Response, error) {
		if req.Body != nil && req.URL.Query().Get("uploadType") != "" {
			req.Body = &slowBody{r: req.Body, pause: pause}
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	r := newRig(t, emulator.Options{}, engine.Options{Transport: tr})
	hold := make(chan struct{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
	p, _ := r.file("plan.bin", 256<<10) // 16 pieces: at least 15 pauses before the last one
	began := time.Now()
	id := r.add(p)[0]
	deadline := time.Now().Add(30 * time.Second)
	for r.emu.Received() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the upload never arrived")
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.close() // the answer is still held
	close(hold)
	rec := journalRecord(t, r.journal, string(id))
	if min := began.Add(15 * pause); rec.SentAt.Before(min) {
		t.Errorf("in doubt since %s, %s after the upload was added; its last byte went out no sooner than %s after",
			rec.SentAt.Format(time.RFC3339Nano), rec.SentAt.Sub(began), 15*pause)
	}
}
