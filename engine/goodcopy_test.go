package engine_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
)

// TestBatchEndKeepsAGoodCopy: when a batch of uploads ends, the list's last
// good copy is written; a list damaged later comes back from it, done
// uploads and all, and says so.
func TestBatchEndKeepsAGoodCopy(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	var paths []string
	for _, n := range []string{"a.bin", "b.bin", "c.bin"} {
		p, _ := r.file(n, 1000)
		paths = append(paths, p)
	}
	ids := r.add(paths...)
	for _, id := range ids {
		r.state(id, engine.Done)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		v, err := journal.OpenView(r.journal + ".good")
		if err == nil {
			recs, _ := v.List()
			v.Close()
			done := 0
			for _, rec := range recs {
				if rec.State == string(engine.Done) {
					done++
				}
			}
			if done == len(ids) {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no good copy with the %d done uploads after the batch (%v)", len(ids), err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	r.close()

	f, err := os.OpenFile(r.journal, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []int64{0, int64(os.Getpagesize())} {
		f.WriteAt([]byte("garbage"), at)
	}
	f.Close()
	r.open()
	_, reason := r.j.Recovered()
	var rec *journal.RecoveryError
	if !errors.As(reason, &rec) || engine.RecoveryFact(rec).Code != fact.ListRestored {
		t.Fatalf("Recovered = %v, want the good copy put back", reason)
	}
	for _, id := range ids {
		if v, ok := r.q.Job(id); !ok || v.State != engine.Done {
			t.Errorf("job %s after the copy was put back: %+v", id, v)
		}
	}
}
