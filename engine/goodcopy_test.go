package engine_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"go.etcd.io/bbolt"

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
	r.goodCopyDone(len(ids))
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

// goodCopyDone waits for the list's last good copy to hold n done uploads.
func (r *rig) goodCopyDone(n int) {
	r.t.Helper()
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
			if done == n {
				return
			}
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("no good copy with the %d done uploads after the batch (%v)", n, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDamagedUploadComesBackFromTheGoodCopy: an upload whose record in the
// list can no longer be read comes back, done, as the last good copy has
// it, and the start says so; the others are as they were.
func TestDamagedUploadComesBackFromTheGoodCopy(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	a, _ := r.file("a.bin", 1000)
	b, _ := r.file("b.bin", 1000)
	ids := r.add(a, b)
	for _, id := range ids {
		r.state(id, engine.Done)
	}
	r.goodCopyDone(len(ids))
	r.close()

	db, err := bbolt.Open(r.journal, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bbolt.Tx) error {
		return tx.Bucket([]byte("jobs")).Put([]byte(ids[0]), []byte(`{"id":"`+string(ids[0])+`","state":`))
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	r.open()
	_, reason := r.j.Recovered()
	var rec *journal.RecoveryError
	if !errors.As(reason, &rec) || engine.RecoveryFact(rec).Code != fact.ListMended || engine.RecoveryFact(rec).Count != 1 {
		t.Fatalf("Recovered = %v, want one upload put back from the good copy", reason)
	}
	for i, id := range ids {
		v, ok := r.q.Job(id)
		if !ok || v.State != engine.Done || v.Path != []string{a, b}[i] {
			t.Errorf("job %s after the start: %+v", id, v)
		}
	}
}
