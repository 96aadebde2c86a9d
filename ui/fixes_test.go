package ui

import (
	"context"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"

	"hoist/engine"
	"hoist/ui/destination"
	"hoist/ui/queuelist"
)

// reopen closes the window and its queue and opens both again on the same
// list of uploads, as the next start would; the jobs come back from the journal.
func (h *harness) reopen() {
	h.t.Helper()
	h.d.Close()
	h.d.win.Close() // the harness closes the new window
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := h.q.Close(ctx); err != nil {
		h.t.Fatal(err)
	}
	h.q = h.openQueue(engineOptionsNoResume())
	presets, err := destination.OpenPresets(h.dir)
	if err != nil {
		h.t.Fatal(err)
	}
	h.d = newDesk(context.Background(), h.app, h.q, deskOptions{
		presets: presets, sandbox: h.sb, sandboxMode: true, journal: h.journal.Path(),
	})
	h.d.win.Resize(fyne.NewSize(960, 640))
	h.d.thumbs.Start(h.d.frame.Context)
	h.Refresh()
}

// TestRestoredRowsRedraw: after a restart, removing rows that came back from
// the list of uploads shows at once, though restored jobs all start at the
// same version.
func TestRestoredRowsRedraw(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.drop(
		h.writeFile("a.eml", emailBytes("A <a@example.com>", "A")),
		h.writeFile("b.eml", emailBytes("B <b@example.com>", "B")),
		h.writeFile("c.eml", emailBytes("C <c@example.com>", "C")),
	)
	h.waitFor("three finished rows", func() bool { return h.d.shots.Last.Totals.Done == 3 })
	h.reopen()
	if n := len(h.d.list.Views()); n != 3 {
		t.Fatalf("after the restart the window shows %d rows, want 3", n)
	}
	if err := h.q.Do(h.job("a.eml").ID, engine.Remove); err != nil {
		t.Fatal(err)
	}
	h.Refresh()
	if n := len(h.d.list.Views()); n != 2 {
		t.Errorf("after removing a restored row the window shows %d rows, want 2", n)
	}
	h.q.ClearFinished()
	h.Refresh()
	if n := len(h.d.list.Views()); n != 0 || !h.d.empty.Visible() {
		t.Errorf("after clearing the finished restored rows the window shows %d rows, want the empty state", n)
	}
}

// TestSummaryAfterCancel: a list of canceled files says so, not "0 of 1
// file, 0 bytes of 0 bytes".
func TestSummaryAfterCancel(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, _ := stalled(t, h, "report.dat")
	defer close(release)
	if err := h.q.Do(h.job("report.dat").ID, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the job to be canceled", func() bool {
		return h.Shown("report.dat") == engine.Canceled && h.d.shots.Last.Totals.Bytes == 0 // the summary may lag a sample
	})
	got := h.d.foot.Summary.Text()
	if strings.Contains(got, "0 bytes of 0 bytes") || strings.HasPrefix(got, "0 of 1") {
		t.Errorf("summary after a cancel = %q", got)
	}
	if !strings.Contains(got, "canceled") {
		t.Errorf("summary after a cancel = %q, want it to say the file was canceled", got)
	}
	if h.d.foot.Overall.Visible() {
		t.Error("with nothing to upload, the whole-list bar should not show")
	}
}

// TestEmptyStateHasNoBar: an empty list shows no 0% bar.
func TestEmptyStateHasNoBar(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	if h.d.foot.Overall.Visible() {
		t.Error("the empty window shows a progress bar")
	}
}

// TestMessageGoesWithTheDestination: a sentence about the last destination
// does not stay once another is chosen.
func TestMessageGoesWithTheDestination(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.frame.Tell("Left out 1 hidden or system file.")
	h.d.bar.Choose(h.d.bar.Choices[len(h.d.bar.Choices)-1])
	if h.d.frame.Message.Visible() {
		t.Errorf("after choosing another destination the window still says %q", h.d.frame.Message.Text())
	}
}

// TestFinishedRowsHaveNoEmptyBar: refused, canceled and done rows show no bar.
func TestFinishedRowsHaveNoEmptyBar(t *testing.T) {
	now := time.Now()
	for _, s := range []engine.State{engine.Refused, engine.Canceled, engine.Done} {
		r := queuelist.NewJobRow(rowActions{})
		r.Draw(engine.JobView{ID: "j", Name: "x.png", Size: 10, State: s, Version: 1}, now)
		if r.Bar.Visible() {
			t.Errorf("a %s row shows a bar", s)
		}
	}
	r := queuelist.NewJobRow(rowActions{})
	r.Draw(engine.JobView{ID: "j", Name: "x.png", Size: 10, Committed: 5, State: engine.Paused, Version: 1}, now)
	if !r.Bar.Visible() || r.Bar.Value != 0.5 {
		t.Errorf("a half-sent paused row shows bar visible=%v value=%v", r.Bar.Visible(), r.Bar.Value)
	}
}
