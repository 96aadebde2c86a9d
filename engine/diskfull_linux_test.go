package engine_test

import (
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/internal/testproc"
)

// TestNoUploadStartsWhileTheListCannotBeWritten: with the list's disk full,
// files added wait, unstarted, and the user hears once that the disk is
// full and where; once there is room, they are written and go.
func TestNoUploadStartsWhileTheListCannotBeWritten(t *testing.T) {
	listDir, inside := testproc.InTmpfs(t, 4<<20)
	if !inside {
		return
	}
	defer engine.SetSaveRetry(50 * time.Millisecond)()
	var mu sync.Mutex
	var said []fact.Fact
	r := newRig(t, emulator.Options{}, engine.Options{OnEvent: func(ev engine.Event) {
		if ev.Kind == engine.SaveFailed {
			mu.Lock()
			said = append(said, *ev.Fact)
			mu.Unlock()
		}
	}})
	r.close()
	r.journal = filepath.Join(listDir, "journal.db")
	r.open()

	// The disk fills.
	free := testproc.FillDisk(t, listDir)

	var paths []string
	for i := range 300 {
		p, _ := r.file("f"+string(rune('a'+i%26))+string(rune('a'+i/26))+".bin", 10)
		paths = append(paths, p)
	}
	ids := r.add(paths...)
	if !errors.Is(r.q.SaveProblem(), journal.ErrDiskFull) {
		t.Fatalf("SaveProblem = %v, want the full disk", r.q.SaveProblem())
	}
	time.Sleep(300 * time.Millisecond) // several tries to write again, all refused
	for _, id := range ids {
		if v, _ := r.q.Job(id); v.State != engine.Waiting {
			t.Fatalf("a file the list could not hold is %s, want waiting", v.State)
		}
	}
	if n := len(r.emu.Objects()); n != 0 {
		t.Fatalf("%d uploads started that the list does not hold", n)
	}
	mu.Lock()
	if len(said) != 1 || said[0].Code != fact.ListDiskFull || said[0].File != listDir {
		t.Errorf("the user heard %+v, want once that the disk of %s is full", said, listDir)
	}
	mu.Unlock()

	// Room again: the list is written and the files go.
	free()
	for _, id := range ids {
		r.state(id, engine.Done)
	}
	if err := r.q.SaveProblem(); err != nil {
		t.Errorf("SaveProblem after the write = %v", err)
	}
	recs, err := r.j.List()
	if err != nil || len(recs) != len(ids) {
		t.Fatalf("the list holds %d records (%v), want %d", len(recs), err, len(ids))
	}
}
