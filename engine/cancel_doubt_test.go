package engine_test

import (
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/upload"
	"hoist/words"
)

// Canceled while it waits for a one-request upload's answer, which was
// made: the row says the file may have arrived and that Hoist checks
// before sending it again; Retry (even after Hoist starts again) finds it
// there, and the destination holds exactly one copy.
func TestCancelWhileWaitingForTheAnswerKeepsTheDoubt(t *testing.T) {
	for _, tc := range lostCases() {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{})
			hold := make(chan struct{})
			r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
			id := r.q.Add([]string{tc.file(t, r.dir)}, tc.dest(r.url)).IDs[0]
			deadline := time.Now().Add(20 * time.Second)
			for r.emu.Received() == 0 {
				if time.Now().After(deadline) {
					t.Fatal("the upload never arrived")
				}
				time.Sleep(5 * time.Millisecond)
			}
			r.until(id, "waiting for its answer", func(v engine.JobView) bool { return v.Sent >= v.Size })
			if err := r.q.Do(id, engine.Cancel); err != nil {
				t.Fatal(err)
			}
			v := r.state(id, engine.Canceled)
			close(hold)
			if !isFact(v.Fact, fact.CanceledInDoubt) || v.Fact.Arg("at") == "" || !isFact(v.NextFact, fact.CheckFirst) {
				t.Fatalf("reason %+v, next %+v: the row forgets that the file may have arrived", v.Fact, v.NextFact)
			}
			en := words.English()
			if s := en.Fact(*v.Fact) + " " + en.Fact(*v.NextFact); !strings.Contains(s, "may have arrived") || !strings.Contains(s, "ask") {
				t.Errorf("the row says %q", s)
			}
			r.close()
			if rec := journalRecord(t, r.journal, string(id)); rec.SentAt.IsZero() {
				t.Fatalf("the list forgot that the file went out: %+v", rec)
			}
			r.open()
			if err := r.q.Do(id, engine.Retry); err != nil {
				t.Fatal(err)
			}
			v = r.state(id, engine.Done)
			if objs := r.emu.Objects(); len(objs) != 1 {
				t.Fatalf("%d objects after Retry, want exactly 1", len(objs))
			}
			if v.Result == nil || v.Result.ID == "" {
				t.Errorf("result %+v", v.Result)
			}
		})
	}
}

// Canceled before any body went out, the row says only that it was
// canceled, and Retry sends it.
func TestCancelBeforeSendingHasNoDoubt(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	hold := make(chan struct{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Stall{Until: hold}})
	p, _ := r.file("plan.bin", 4000)
	id := r.add(p)[0]
	if err := r.q.Do(id, engine.Pause); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Paused)
	if err := r.q.Do(id, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Canceled)
	close(hold)
	if !isFact(v.Fact, fact.Canceled) || !isFact(v.NextFact, fact.PressRetry) {
		t.Fatalf("reason %+v, next %+v", v.Fact, v.NextFact)
	}
}

// Canceled while it waits for the answer to a resumable upload's last
// chunk, which was made: the session is kept, the row says the file may
// have arrived, and Retry (even after Hoist starts again) asks the session
// before it sends anything: the destination holds exactly one copy.
func TestCancelWhileWaitingForTheLastChunkKeepsTheSession(t *testing.T) {
	r, id, hold := waitingAfterTheLastChunk(t)
	if err := r.q.Do(id, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Canceled)
	close(hold)
	if !isFact(v.Fact, fact.CanceledInDoubt) || v.Fact.Arg("at") == "" || !isFact(v.NextFact, fact.CheckFirst) {
		t.Fatalf("reason %+v, next %+v: the row forgets that the file may have arrived", v.Fact, v.NextFact)
	}
	r.close()
	if rec := journalRecord(t, r.journal, string(id)); rec.SessionURI == "" {
		t.Fatalf("the list forgot the session: %+v", rec)
	}
	r.open()
	if err := r.q.Do(id, engine.Retry); err != nil {
		t.Fatal(err)
	}
	v = r.state(id, engine.Done)
	if objs := r.emu.Objects(); len(objs) != 1 {
		t.Fatalf("%d objects after Retry, want exactly 1", len(objs))
	}
	if v.Result == nil || v.Result.ID == "" {
		t.Errorf("result %+v", v.Result)
	}
}

// Paused while it waits for the answer to a resumable upload's last chunk,
// which was made, then canceled: the session is still kept, and Retry asks
// it before it sends anything.
func TestPauseThenCancelAfterTheLastChunkKeepsTheSession(t *testing.T) {
	r, id, hold := pausedAfterTheLastChunk(t)
	if err := r.q.Do(id, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Canceled)
	close(hold)
	if !isFact(v.Fact, fact.CanceledInDoubt) || !isFact(v.NextFact, fact.CheckFirst) {
		t.Fatalf("reason %+v, next %+v: the row forgets that the file may have arrived", v.Fact, v.NextFact)
	}
	if err := r.q.Do(id, engine.Retry); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if objs := r.emu.Objects(); len(objs) != 1 {
		t.Fatalf("%d objects after Retry, want exactly 1", len(objs))
	}
}

// Paused while it waits for the answer to a resumable upload's last chunk,
// which was made, then Hoist closed and started again, then canceled: when
// the last byte went out is in the list, so the session is still kept, the
// row says the file may have arrived, and Retry asks the session before it
// sends anything.
func TestPauseCloseReopenThenCancelAfterTheLastChunkKeepsTheSession(t *testing.T) {
	r, id, hold := pausedAfterTheLastChunk(t)
	close(hold)
	r.close()
	r.open()
	r.state(id, engine.Paused)
	if err := r.q.Do(id, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	v := r.state(id, engine.Canceled)
	if !isFact(v.Fact, fact.CanceledInDoubt) || v.Fact.Arg("at") == "" || !isFact(v.NextFact, fact.CheckFirst) {
		t.Fatalf("reason %+v, next %+v: the row forgets that the file may have arrived", v.Fact, v.NextFact)
	}
	r.close()
	if rec := journalRecord(t, r.journal, string(id)); rec.SessionURI == "" {
		t.Fatalf("the list forgot the session: %+v", rec)
	}
	r.open()
	if err := r.q.Do(id, engine.Retry); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Done)
	if objs := r.emu.Objects(); len(objs) != 1 {
		t.Fatalf("%d objects after Retry, want exactly 1", len(objs))
	}
}

// waitingAfterTheLastChunk is a resumable upload waiting for the answer to
// its last chunk, which made the object; the answer is held until hold is
// closed.
func waitingAfterTheLastChunk(t *testing.T) (r *rig, id engine.JobID, hold chan struct{}) {
	t.Helper()
	r = newRig(t, emulator.Options{}, engine.Options{Method: upload.Resumable, ChunkSize: 256 << 10})
	hold = make(chan struct{})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 2, Action: emulator.DropAnswer{Hold: hold}})
	p, _ := r.file("archive.bin", 600<<10)
	id = r.add(p)[0]
	r.until(id, "waiting for the last chunk's answer", func(v engine.JobView) bool { return v.Size > 0 && v.Sent >= v.Size })
	deadline := time.Now().Add(20 * time.Second)
	for len(r.emu.Objects()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the last chunk never arrived whole")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return r, id, hold
}

// pausedAfterTheLastChunk is a resumable upload paused while it waits for
// the answer to its last chunk, which made the object; the answer is held
// until hold is closed.
func pausedAfterTheLastChunk(t *testing.T) (r *rig, id engine.JobID, hold chan struct{}) {
	t.Helper()
	r, id, hold = waitingAfterTheLastChunk(t)
	if err := r.q.Do(id, engine.Pause); err != nil {
		t.Fatal(err)
	}
	r.state(id, engine.Paused)
	return r, id, hold
}
