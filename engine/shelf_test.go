package engine_test

import (
	"errors"
	"reflect"
	"testing"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/journal"
)

// withoutAnswer is v with its result's whole answer left out, which only
// a queue that keeps the answers in memory holds.
func withoutAnswer(v engine.JobView) engine.JobView {
	if r := v.Result; r != nil {
		v.Result = &engine.Result{ID: r.ID, ThreadID: r.ThreadID, Name: r.Name, URL: r.URL, Summary: r.Summary, Verified: r.Verified}
		if f := r.Fact(); f != nil {
			v.Details += "|" + f.String()
		}
	}
	return v
}

// The window's queue (LeanResults) holds an upload an earlier run finished
// as its brief and reads the rest from the list when the row is shown:
// what it shows, counts and allows is what a queue holding every job whole
// shows, counts and allows, and removing and clearing take it out of the
// list as they do any other.
func TestFinishedUploadsStayInTheList(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	a, _ := r.file("a.bin", 1<<10)
	b, _ := r.file("b.bin", 300<<10)
	c, _ := r.file("c.bin", 2<<10)
	done := r.add(a, b, c)
	for _, id := range done {
		r.state(id, engine.Done)
	}
	r.close()
	r.opts.Idle = true
	r.open()
	paused := r.q.AddAgain([]string{a}, r.sandbox()).IDs[0] // the same file again, not sent: back paused at the next start
	r.close()

	r.open()
	whole, briefs, summary := r.q.Jobs(), r.q.Briefs(), r.q.Summary()
	r.close()
	r.opts.LeanResults = true
	r.open()
	for _, id := range done {
		if !engine.Shelved(r.q, id) {
			t.Errorf("finished job %s is held whole", id)
		}
	}
	if engine.Shelved(r.q, paused) {
		t.Errorf("the paused job is left in the journal")
	}
	if got := r.q.Briefs(); !reflect.DeepEqual(got, briefs) {
		t.Errorf("briefs\n%+v\nwant\n%+v", got, briefs)
	}
	if got := r.q.Summary(); got != summary {
		t.Errorf("summary %+v, want %+v", got, summary)
	}
	lean := r.q.Jobs()
	if len(lean) != len(whole) {
		t.Fatalf("%d jobs, want %d", len(lean), len(whole))
	}
	for i := range whole {
		if got, want := withoutAnswer(lean[i]), withoutAnswer(whole[i]); !reflect.DeepEqual(got, want) {
			t.Errorf("job %d:\n%+v\nwant\n%+v", i, got, want)
		}
		if v, ok := r.q.Job(whole[i].ID); !ok || !reflect.DeepEqual(withoutAnswer(v), withoutAnswer(whole[i])) {
			t.Errorf("Job(%s) = %+v, %v; want %+v", whole[i].ID, v, ok, whole[i])
		}
	}

	var refused *engine.NotAllowedError
	if err := r.q.Do(done[0], engine.Retry); !errors.As(err, &refused) {
		t.Errorf("Retry of a finished upload: %v, want it refused", err)
	}
	if v, ok := r.q.Job(done[0]); !ok || !reflect.DeepEqual(withoutAnswer(v), withoutAnswer(whole[0])) {
		t.Errorf("after a refused Retry the job is %+v, want it unchanged", v)
	}

	if err := r.q.Do(done[1], engine.Remove); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.q.Job(done[1]); ok {
		t.Error("a removed finished upload is still shown")
	}
	if s := r.q.Summary(); s.Files != 3 || s.Done != 2 {
		t.Errorf("after Remove: %d files, %d done; want 3 and 2", s.Files, s.Done)
	}
	if err := r.q.Flush(); err != nil {
		t.Fatal(err)
	}
	if _, err := r.j.Get(string(done[1])); !errors.Is(err, journal.ErrNotFound) {
		t.Errorf("the removed upload is still in the journal: %v", err)
	}

	r.q.ClearFinished()
	if got := r.q.Briefs(); len(got) != 1 || got[0].ID != paused {
		t.Errorf("after Clear finished the list holds %+v, want only the paused job", got)
	}
	if err := r.q.Flush(); err != nil {
		t.Fatal(err)
	}
	if recs, err := r.j.List(); err != nil || len(recs) != 1 {
		t.Errorf("after Clear finished the journal holds %d records (%v), want 1", len(recs), err)
	}
}

// An upload the window's queue finishes is left in the list as soon as its
// finished record is written, and is shown from there as it was.
func TestUploadsFinishedNowAreLeftInTheList(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{LeanResults: true})
	a, _ := r.file("a.bin", 1<<10)
	b, _ := r.file("b.bin", 300<<10)
	ids := r.add(a, b)
	for _, id := range ids {
		v := r.state(id, engine.Done)
		if !engine.Shelved(r.q, id) {
			t.Errorf("job %s is held whole after it finished", id)
		}
		if v.Result == nil || v.Result.ID == "" || v.Result.Fact() == nil || v.Result.Verified == "" || v.Committed != v.Size || v.Name == "" {
			t.Errorf("job %s shows %+v after it finished", id, v)
		}
	}
	if s := r.q.Summary(); s.Files != 2 || s.Done != 2 || s.BytesDone != s.Bytes {
		t.Errorf("summary %+v, want both files done", s)
	}
	shown := r.q.Jobs()
	r.close()
	r.opts.LeanResults = false
	r.open()
	for i, v := range r.q.Jobs() {
		v.Version = shown[i].Version // counted anew at each start
		if got, want := withoutAnswer(shown[i]), withoutAnswer(v); !reflect.DeepEqual(got, want) {
			t.Errorf("job %d was shown as\n%+v\nthe list holds\n%+v", i, got, want)
		}
	}
}
