package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"

	"hoist/engine"
)

// TestRowsAndTotalsShowOneMoment: a row drawn after a reading of the queue
// shows the job as that reading found it, the moment the totals count —
// not as the queue holds it by the time the window gets to drawing. The
// totals said "0 of 43 files" while rows drawn a little later already said
// Done: a row that changed was read again from the queue when drawn.
func TestRowsAndTotalsShowOneMoment(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{Idle: true}})
	h.d.win.Resize(fyne.NewSize(1000, 640))
	var paths []string
	for i := range 6 {
		paths = append(paths, h.writeFile(fmt.Sprintf("f%d.txt", i), []byte("some bytes")))
	}
	h.drop(paths...)
	h.waitFor("six rows", func() bool { h.Refresh(); return len(h.d.list.Snap.Rows) == 6 })
	ids := make([]engine.JobID, 6)
	for i, row := range h.d.list.Snap.Rows {
		ids[i] = row.ID
	}
	for _, id := range ids[:3] {
		if err := h.q.Do(id, engine.Pause); err != nil {
			t.Fatal(err)
		}
	}
	// The sampling reads the queue now; the UI goroutine draws it later,
	// and meanwhile the user's own Resume has reached the queue.
	show := h.d.sampling.collect()
	if show == nil {
		t.Fatal("the reading after three pauses found nothing new")
	}
	for _, id := range ids[:3] {
		if err := h.q.Do(id, engine.Resume); err != nil {
			t.Fatal(err)
		}
	}
	show()
	l := h.d.list
	paused := 0
	for i, r := range l.RowAt {
		if r.Index != i || i >= len(l.Snap.Rows) {
			continue
		}
		if r.View.State == engine.Paused {
			paused++
		}
		if got, want := r.View.State, l.Snap.Rows[i].State; got != want {
			t.Errorf("row %d shows %s while the reading behind the totals says %s", i, got, want)
		}
	}
	if got := l.Snap.Totals.Paused; got != paused {
		t.Errorf("the totals count %d paused while %d rows say paused", got, paused)
	}
}
