package engine_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
	"hoist/internal/testclock"
	"hoist/words"
)

// noWait is a backoff that never waits, so retries cost no time in tests.
type noWait struct{}

func (noWait) Wait(int) time.Duration { return 0 }

// rig is a queue wired to an emulator over loopback, with a journal.
type rig struct {
	t       *testing.T
	emu     *emulator.Server
	url     string
	dir     string
	journal string
	q       *engine.Queue
	j       *journal.Journal
	opts    engine.Options
}

func newRig(t *testing.T, emuOpts emulator.Options, opts engine.Options) *rig {
	t.Helper()
	emu, err := emulator.New(emuOpts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { ts.Close(); emu.Close() })
	r := &rig{t: t, emu: emu, url: ts.URL, dir: t.TempDir()}
	r.journal = filepath.Join(r.dir, "journal.db")
	if opts.Backoff == nil {
		opts.Backoff = noWait{}
	}
	opts.SandboxURL = ts.URL
	r.opts = opts
	r.open()
	return r
}

// open (re)opens the journal and the queue, as a restart of Hoist does.
func (r *rig) open() {
	r.t.Helper()
	j, err := journal.Open(r.journal, journal.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	opts := r.opts
	opts.Journal = j
	q, err := engine.Open(context.Background(), opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.j, r.q = j, q
	r.t.Cleanup(r.close)
}

// close quits: pauses everything and flushes the journal.
func (r *rig) close() {
	if r.q == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := r.q.Close(ctx); err != nil {
		r.t.Errorf("close: %v", err)
	}
	r.j.Close()
	r.q, r.j = nil, nil
}

func (r *rig) file(name string, size int) (string, string) {
	r.t.Helper()
	b := make([]byte, size)
	rand.Read(b)
	p := filepath.Join(r.dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		r.t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return p, hex.EncodeToString(sum[:])
}

func (r *rig) sandbox() dest.Destination {
	return dest.Destination{Name: "Sandbox", Kind: dest.Sandbox}
}

func (r *rig) add(paths ...string) []engine.JobID {
	r.t.Helper()
	res := r.q.Add(paths, r.sandbox())
	if len(res.Problems) > 0 {
		r.t.Fatalf("add: %v", res.Problems)
	}
	return res.IDs
}

// until waits for cond over the job's view, failing after a generous while.
func (r *rig) until(id engine.JobID, what string, cond func(engine.JobView) bool) engine.JobView {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ch := r.q.Changed()
		v, ok := r.q.Job(id)
		if !ok {
			r.t.Fatalf("job %s vanished while waiting for %s", id, what)
		}
		if cond(v) {
			return v
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("job never got to %s; it is %s (%s)", what, v.State, reasonOf(v))
		}
		select {
		case <-ch:
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (r *rig) state(id engine.JobID, s engine.State) engine.JobView {
	r.t.Helper()
	return r.until(id, string(s), func(v engine.JobView) bool { return v.State == s })
}

func (r *rig) wait() {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.q.Wait(ctx); err != nil {
		r.t.Fatalf("the queue did not settle: %v", err)
	}
}

// objects returns the emulator's objects by name, failing on two of one name.
func (r *rig) objects() map[string]emulator.Object {
	r.t.Helper()
	out := map[string]emulator.Object{}
	for _, o := range r.emu.Objects() {
		if _, dup := out[o.Name]; dup {
			r.t.Fatalf("two objects named %s: a file was uploaded twice", o.Name)
		}
		out[o.Name] = o
	}
	return out
}

func (r *rig) bodyBytes() int64 {
	var n int64
	for _, q := range r.emu.Requests() {
		if q.Stage == emulator.StageChunk || q.Stage == emulator.StageUpload {
			n += q.BodyBytes
		}
	}
	return n
}

func TestQueueRunsAtMostParallelAtOnce(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Parallel: 3})
	release := make(chan struct{})
	r.emu.Inject(emulator.Fault{Action: emulator.Stall{Until: release}, Times: -1})
	var paths []string
	sums := map[string]string{}
	for i := range 6 {
		p, sum := r.file("f"+string(rune('a'+i))+".bin", 100_000)
		paths = append(paths, p)
		sums[filepath.Base(p)] = sum
	}
	ids := r.add(paths...)
	if len(ids) != 6 {
		t.Fatalf("got %d jobs, want 6", len(ids))
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		s := r.q.Summary()
		if s.Active == 3 {
			break
		}
		if s.Active > 3 {
			t.Fatalf("%d uploads at once, want at most 3", s.Active)
		}
		if time.Now().After(deadline) {
			t.Fatalf("never reached 3 uploads at once: %+v", s)
		}
		time.Sleep(10 * time.Millisecond)
	}
	waiting := 0
	for _, v := range r.q.Jobs() {
		if v.State == engine.Waiting {
			waiting++
		}
	}
	if waiting != 3 {
		t.Errorf("%d jobs waiting while 3 upload, want 3", waiting)
	}
	close(release)
	r.wait()
	objs := r.objects()
	for name, sum := range sums {
		if objs[name].SHA256 != sum {
			t.Errorf("%s: server holds %q, want %q", name, objs[name].SHA256, sum)
		}
	}
	if s := r.q.Summary(); s.Done != 6 || s.BytesDone != 600_000 || s.Bytes != 600_000 {
		t.Errorf("summary %+v, want 6 done and 600000 bytes", s)
	}
}

// stallChunk holds the chunk after skip chunks until the returned func is called.
func stallChunk(r *rig, skip int) (release func(), fault *emulator.Injected) {
	ch := make(chan struct{})
	f := r.emu.Inject(emulator.Fault{
		Match:  emulator.Match{Stage: emulator.StageChunk},
		Skip:   skip,
		Action: emulator.Stall{Until: ch},
	})
	var once sync.Once
	return func() { once.Do(func() { close(ch) }) }, f
}

// settled waits until the emulator has finished the stalled request (it
// completes once released, with the bytes the client had already sent).
func (r *rig) settled() {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, q := range r.emu.Requests() {
			if q.Fault != "" {
				return
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	r.t.Fatal("the stalled request never finished")
}

func TestPauseKeepsTheSessionAndResumeAsksTheServerFirst(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, sum := r.file("big.bin", 16*chunk+1000)
	release, fault := stallChunk(r, 5)
	defer release()
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })

	if err := r.q.Do(id, engine.Pause); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Paused)
	if v.Committed != 5*chunk {
		t.Errorf("paused at %d confirmed bytes, want %d", v.Committed, 5*chunk)
	}
	if want := "Press Resume to continue from where the sandbox stands."; nextOf(v) != want {
		t.Errorf("next %q, want %q", nextOf(v), want)
	}
	release()
	r.settled()
	r.emu.ClearRequests()

	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	reqs := r.emu.Requests()
	if len(reqs) == 0 || reqs[0].Stage != emulator.StageQuery {
		t.Fatalf("resuming began with %+v, want a status query", reqs)
	}
	for _, q := range reqs {
		if q.Stage == emulator.StageStart {
			t.Errorf("resuming started a new session")
		}
		if q.Stage == emulator.StageChunk && strings.HasPrefix(q.ContentRange, "bytes 0-") {
			t.Errorf("resuming sent the file from byte 0 again: %s", q.ContentRange)
		}
	}
	if got := r.objects()["big.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

// TestPauseSaysWhatTheServerDidNotKeep: a file paused while a request is on
// its way shows, paused, only what the server confirmed, which is less than
// it showed a moment before; its view says by how much (the row says why),
// and that goes when it is resumed. A paused 1.6 GB file went from 208 MB
// to 262 KB without a word.
func TestPauseSaysWhatTheServerDidNotKeep(t *testing.T) {
	const chunk = 4 * upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, _ := r.file("long.bin", 6*chunk)
	release, fault := stallChunk(r, 2)
	defer release()
	id := r.add(p)[0]
	before := r.until(id, "bytes sent past the confirmed ones", func(v engine.JobView) bool {
		return fault.Count() == 1 && v.Sent > v.Committed
	})
	if err := r.q.Do(id, engine.Pause); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Paused)
	if v.Committed != 2*chunk {
		t.Errorf("paused at %d confirmed bytes, want %d", v.Committed, 2*chunk)
	}
	if v.Unconfirmed <= 0 || v.Committed+v.Unconfirmed < max(before.Delivered, before.Sent) {
		t.Errorf("paused showing %d of %d bytes sent before, it says %d were not kept", v.Committed, before.Sent, v.Unconfirmed)
	}
	release()
	r.settled()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	if v := r.state(id, engine.Done); v.Unconfirmed != 0 {
		t.Errorf("done, it still says %d bytes were not kept", v.Unconfirmed)
	}
}

func TestQuitAndReopenContinuesWhereTheServerStands(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, sum := r.file("report.bin", 12*chunk)
	release, fault := stallChunk(r, 4)
	defer release()
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })

	r.close() // quit: pauses and flushes
	release()
	r.settled()
	r.open()
	v, ok := r.q.Job(id)
	if !ok {
		t.Fatal("the job did not come back after a restart")
	}
	if v.State != engine.Paused || v.Committed != 4*chunk {
		t.Fatalf("after restart: %s with %d confirmed, want paused with %d", v.State, v.Committed, 4*chunk)
	}
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if got := r.objects()["report.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
	// The stalled chunk arrived whole before the quit, so not one byte needed sending twice.
	if sent := r.bodyBytes(); sent != 12*chunk {
		t.Errorf("%d bytes went up in all, want exactly the file's %d", sent, 12*chunk)
	}
}

func TestAutoResumeOnOpen(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable, AutoResume: true})
	p, sum := r.file("auto.bin", 6*chunk)
	release, fault := stallChunk(r, 2)
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
	r.close()
	release()
	r.open()
	r.state(id, engine.Done)
	if got := r.objects()["auto.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

func TestGoneSessionStartsAgainFromZeroAndSaysSo(t *testing.T) {
	for _, status := range []int{404, 410} {
		t.Run(http404or410(status), func(t *testing.T) {
			const chunk = upload.ChunkAlign
			r := newRig(t, emulator.Options{ExpiredStatus: status}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
			p, sum := r.file("gone.bin", 6*chunk)
			release, fault := stallChunk(r, 3)
			id := r.add(p)[0]
			r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
			r.close()
			release()
			// The session expires while Hoist is closed.
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageQuery}, Action: emulator.ExpireSession{}})
			r.open()
			again, fault := stallChunk(r, 1)
			if err := r.q.Do(id, engine.Resume); err != nil {
				t.Fatal(err)
			}
			// The row says plainly why the file starts again while it does.
			v := r.until(id, "the new session's second chunk", func(engine.JobView) bool { return fault.Count() == 1 })
			if v.State != engine.Uploading || !strings.Contains(nextOf(v), "starts again from the beginning") {
				t.Errorf("while uploading again: %s, next %q; want uploading and the reason it starts again", v.State, nextOf(v))
			}
			again()
			v = r.state(id, engine.Done)
			if v.Restarts != 1 {
				t.Errorf("restarts = %d, want 1", v.Restarts)
			}
			if got := r.objects()["gone.bin"].SHA256; got != sum {
				t.Errorf("server holds %s, want %s", got, sum)
			}
		})
	}
}

func http404or410(s int) string {
	if s == 404 {
		return "404"
	}
	return "410"
}

func TestSessionOlderThanItsLifetimeIsNotResumed(t *testing.T) {
	const chunk = upload.ChunkAlign
	clock := testclock.At(time.Now())
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable, Clock: clock, SessionLifetime: time.Hour})
	p, sum := r.file("old.bin", 6*chunk)
	release, fault := stallChunk(r, 3)
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
	r.close()
	release()
	clock.Advance(2 * time.Hour)
	r.open()
	r.emu.ClearRequests()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Done)
	if v.Restarts != 1 {
		t.Errorf("restarts = %d, want 1", v.Restarts)
	}
	for _, q := range r.emu.Requests() {
		if q.Stage == emulator.StageQuery {
			t.Errorf("the expired session was asked for its status; it should have been left alone")
		}
	}
	if got := r.objects()["old.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

func TestFileChangedWhileClosedStopsAndAsks(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, _ := r.file("draft.bin", 6*chunk)
	release, fault := stallChunk(r, 2)
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
	r.close()
	release()

	changed := bytes.Repeat([]byte("new words "), 100_000)
	if err := os.WriteFile(p, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	r.open()
	if err := r.q.Do(id, engine.Resume); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Attention)
	if !strings.Contains(reasonOf(v), "changed since it was added") {
		t.Errorf("reason %q does not say the file changed", reasonOf(v))
	}
	if len(r.emu.Objects()) != 0 {
		t.Fatalf("an object was stored from mixed old and new bytes")
	}
	if err := r.q.Do(id, engine.Restart); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	want := sha256.Sum256(changed)
	if got := r.objects()["draft.bin"].SHA256; got != hex.EncodeToString(want[:]) {
		t.Errorf("server holds %s, want the file as it is now", got)
	}
}

func TestDeletedFileFailsAloneWithAPlainReason(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{Parallel: 1})
	release := make(chan struct{})
	r.emu.Inject(emulator.Fault{Action: emulator.Stall{Until: release}})
	a, _ := r.file("first.bin", 1000)
	b, _ := r.file("second.bin", 1000)
	c, sumC := r.file("third.bin", 1000)
	ids := r.add(a, b, c)
	r.state(ids[0], engine.Uploading)
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	close(release)
	r.wait()
	v, _ := r.q.Job(ids[1])
	if v.State != engine.Failed || !strings.Contains(reasonOf(v), "no longer there") {
		t.Errorf("deleted file: %s %q, want failed saying it is no longer there", v.State, reasonOf(v))
	}
	if got := r.objects()["third.bin"].SHA256; got != sumC {
		t.Errorf("the rest of the batch did not go on")
	}
}

func TestCancelThenRetry(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, sum := r.file("c.bin", 4*chunk)
	release, fault := stallChunk(r, 1)
	id := r.add(p)[0]
	r.until(id, "the stalled chunk", func(engine.JobView) bool { return fault.Count() == 1 })
	if err := r.q.Do(id, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Canceled)
	release()
	if err := r.q.Do(id, engine.Retry); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if got := r.objects()["c.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

func TestBadInputBecomesRowsAndTheBatchGoesOn(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	folder := filepath.Join(r.dir, "folder")
	os.MkdirAll(filepath.Join(folder, ".git"), 0o755)
	os.WriteFile(filepath.Join(folder, "a.txt"), []byte("a"), 0o644)
	os.WriteFile(filepath.Join(folder, ".hidden"), []byte("h"), 0o644)
	os.WriteFile(filepath.Join(folder, ".git", "HEAD"), []byte("x"), 0o644)
	good, sum := r.file("good.bin", 5000)
	missing := filepath.Join(r.dir, "missing.png")

	res := r.q.Add([]string{folder, missing, good}, r.sandbox())
	if len(res.Skipped) == 0 {
		t.Errorf("hidden files were not reported as skipped")
	}
	r.wait()
	byName := map[string]engine.JobView{}
	for _, v := range r.q.Jobs() {
		byName[v.Name] = v
	}
	if v := byName["missing.png"]; v.State != engine.Refused || !isFact(v.Fact, fact.FileMissing) {
		t.Errorf("missing file: %s %q", v.State, reasonOf(v))
	}
	if _, ok := byName[".hidden"]; ok {
		t.Errorf("a hidden file was queued")
	}
	if byName["a.txt"].State != engine.Done || byName["good.bin"].State != engine.Done {
		t.Errorf("the good files did not upload: %+v", byName)
	}
	if got := r.objects()["good.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

func TestAddingTheSameFileTwiceQueuesItOnce(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	r.q.PauseAll()
	p, _ := r.file("once.bin", 1000)
	first := r.q.Add([]string{p}, r.sandbox())
	second := r.q.Add([]string{p}, r.sandbox())
	if len(first.IDs) != 1 || len(second.IDs) != 0 || len(second.Problems) != 1 {
		t.Fatalf("first %+v, second %+v: want one job and one problem", first, second)
	}
	var dup *engine.AlreadyQueued
	if !errors.As(second.Problems[0], &dup) || dup.Fact().Code != fact.AlreadyListed || dup.Fact().File != "once.bin" || dup.Job != first.IDs[0] {
		t.Errorf("problem %v does not say the file is already queued", second.Problems[0])
	}
	for _, code := range words.Codes { // in every language, from its fact
		if s, ok := words.New(code).Error(second.Problems[0]); !ok || !strings.Contains(s, "once.bin") || strings.Contains(s, "file.listed") {
			t.Errorf("%s: already queued says %q", code, s)
		}
	}
}

func TestProgressNeverGoesBackwardsWhenTheServerKeepsLess(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: 2 * chunk, Method: upload.Resumable})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Times: 3, Action: emulator.KeepLess{Drop: 1000}})
	p, sum := r.file("less.bin", 10*chunk+77)
	id := r.add(p)[0]
	var last int64
	r.until(id, "done", func(v engine.JobView) bool {
		if v.Committed < last && v.Restarts == 0 {
			t.Errorf("confirmed bytes went back from %d to %d", last, v.Committed)
		}
		last = v.Committed
		return v.State.Finished()
	})
	if v, _ := r.q.Job(id); v.State != engine.Done {
		t.Fatalf("ended %s: %s", v.State, reasonOf(v))
	}
	if got := r.objects()["less.bin"].SHA256; got != sum {
		t.Errorf("server holds %s, want %s", got, sum)
	}
}

func TestHistoryStaysUntilCleared(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	p, _ := r.file("h.bin", 100)
	id := r.add(p)[0]
	r.state(id, engine.Done)
	r.close()
	r.open()
	v, ok := r.q.Job(id)
	if !ok || v.State != engine.Done || v.Result == nil || v.Result.ID == "" {
		t.Fatalf("history after restart: %+v", v)
	}
	r.q.ClearFinished()
	if _, ok := r.q.Job(id); ok {
		t.Fatal("a cleared job is still listed")
	}
	r.close()
	r.open()
	if n := len(r.q.Jobs()); n != 0 {
		t.Fatalf("%d jobs came back after clearing", n)
	}
}

func TestJournalKeepsNoSessionAddressAfterDone(t *testing.T) {
	const chunk = upload.ChunkAlign
	r := newRig(t, emulator.Options{}, engine.Options{ChunkSize: chunk, Method: upload.Resumable})
	p, _ := r.file("s.bin", 3*chunk)
	id := r.add(p)[0]
	r.state(id, engine.Done)
	rec, err := r.j.Get(string(id))
	if err != nil {
		t.Fatal(err)
	}
	if rec.SessionURI != "" {
		t.Errorf("a finished job still holds its session address")
	}
}
