package engine_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/words"
)

// Adding files whose bytes were already uploaded, whole, to the same place
// sends nothing and says so, with when each went; sending them again is the
// user's choice (AddAgain). The list knows it after Hoist starts again, with
// its finished uploads left in the journal too.
func TestYourOwnSecondCopy(t *testing.T) {
	for _, lean := range []bool{false, true} {
		t.Run(fmt.Sprintf("lean=%v", lean), func(t *testing.T) {
			r := newRig(t, emulator.Options{}, engine.Options{LeanResults: lean})
			var paths []string
			for i := range 5 {
				p, _ := r.file(fmt.Sprintf("photo-%d.jpg", i), 3000+i)
				paths = append(paths, p)
			}
			for _, id := range r.add(paths...) {
				r.state(id, engine.Done)
			}
			r.close()
			r.open()

			res := r.q.Add(paths, r.sandbox())
			if len(res.IDs) != 0 || len(res.Problems) != 5 {
				t.Fatalf("added %d again, %d problems: %v", len(res.IDs), len(res.Problems), res.Problems)
			}
			var sent *engine.AlreadySent
			if !errors.As(res.Problems[0], &sent) || sent.Finished.IsZero() || time.Since(sent.Finished) > time.Hour {
				t.Fatalf("problem %v: want the upload that finished, and when", res.Problems[0])
			}
			f := sent.Fact()
			if f.Code != fact.AlreadySent {
				t.Fatalf("fact %+v", f)
			}
			if s := words.English().Fact(f); !strings.Contains(s, "is already in") || !strings.Contains(s, "uploaded") || !strings.Contains(s, sent.Name) {
				t.Errorf("it says %q", s)
			}
			r.wait()
			if n := len(r.emu.Objects()); n != 5 {
				t.Fatalf("the sandbox holds %d files, want the 5 sent once", n)
			}

			other, _ := r.file("new.jpg", 4096)
			res = r.q.Add(append([]string{other}, paths[0]), r.sandbox())
			if len(res.IDs) != 1 || len(res.Problems) != 1 {
				t.Fatalf("a new file and one sent before: added %d, problems %v", len(res.IDs), res.Problems)
			}
			r.state(res.IDs[0], engine.Done)

			again := r.q.AddAgain(paths, r.sandbox())
			if len(again.IDs) != 5 || len(again.Problems) != 0 {
				t.Fatalf("sent again: %d added, problems %v", len(again.IDs), again.Problems)
			}
			for _, id := range again.IDs {
				r.state(id, engine.Done)
			}
			if n := len(r.emu.Objects()); n != 11 {
				t.Errorf("the sandbox holds %d files, want 11 (5, 1 new, 5 sent again on purpose)", n)
			}
		})
	}
}
