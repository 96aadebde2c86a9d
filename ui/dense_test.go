package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// twentyJobs is a fixed list in every state, so pictures do not depend on timing.
func twentyJobs(now time.Time) []engine.JobView {
	states := []engine.State{engine.Uploading, engine.Waiting, engine.Done, engine.Paused, engine.Failed, engine.Refused, engine.Retrying, engine.Attention, engine.Canceled, engine.Done}
	var views []engine.JobView
	for i := range 20 {
		v := engine.JobView{
			ID: engine.JobID(fmt.Sprintf("job%02d", i)), Name: fmt.Sprintf("Campaign photo %02d.png", i), Path: fmt.Sprintf("/home/sam/Pictures/Campaign photo %02d.png", i),
			Size: int64(1_000_000 + 150_000*i), MIME: "application/octet-stream", Destination: "sandbox", DestKind: "sandbox",
			State: states[i%len(states)], Version: 1, ETA: -1,
		}
		switch v.State {
		case engine.Uploading:
			v.Committed, v.Speed, v.ETA = v.Size/3, 1_500_000, 4*time.Second
		case engine.Paused:
			v.Committed = v.Size / 2
		case engine.Failed:
			v.Reason, v.Next = "The sandbox refused the upload", "Press Retry to try again."
		case engine.Refused:
			v.Reason = "Campaign photo.png is larger than this destination takes (1 MB at most)"
		case engine.Retrying:
			v.Committed, v.Reason, v.RetryAt = v.Size/4, "The connection dropped", now.Add(8*time.Second)
		case engine.Attention:
			v.Reason, v.Next, v.FileChanged = "The file changed since it was added", "Start over to send it as it is now.", true
		case engine.Done:
			v.Committed = v.Size
			v.Result = &engine.Result{ID: fmt.Sprintf("obj%02d", i), Summary: fmt.Sprintf("Saved as obj%02d.", i)}
		}
		v.Actions = engine.ActionsFor(v.State, engine.Facts{FileChanged: v.FileChanged})
		views = append(views, v)
	}
	return views
}

// showFixed puts views on the window as a reading of the queue would.
func (h *harness) showFixed(views []engine.JobView) {
	h.d.draw(h.d.shots.Make(readingOf(views, h.d.now())))
}

// TestDenseList: at least twelve files are visible at once in a window on a
// 1366×768 screen (less the desktop's panel and the title bar), each in two
// lines at most; pictures of twenty rows in both themes, and of a selected
// row's details.
func TestDenseList(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	h.d.now = func() time.Time { return now }
	h.showFixed(twentyJobs(now))

	h.d.win.Resize(fyne.NewSize(1366, 768-68))
	row := queuelist.NewJobRow(rowActions{})
	row.Draw(h.d.list.Views()[0], now)
	line := widgets.NewLabel("Mg")
	if got, max := row.MinSize().Height, 2*line.MinSize().Height; got > max {
		t.Errorf("a row is %v high, more than two lines of text (%v)", got, max)
	}
	visible := int(h.d.list.Size().Height / (row.MinSize().Height + h.d.list.Theme().Size("separator")))
	if visible < 12 {
		t.Errorf("%d rows visible at 1366×768, want at least 12 (list %v high, rows %v)", visible, h.d.list.Size().Height, row.MinSize().Height)
	}

	h.d.win.Resize(fyne.NewSize(900, 600))
	test.AssertImageMatches(t, "list_dense_light.png", h.d.win.Canvas().Capture())
	h.app.Settings().SetTheme(look.NewTheme(look.ThemeDark))
	h.d.list.Refresh()
	test.AssertImageMatches(t, "list_dense_dark.png", h.d.win.Canvas().Capture())
	h.app.Settings().SetTheme(look.NewTheme(look.ThemeLight))

	h.d.list.Click(4, 0) // the failed one: its whole reason shows
	if got := h.d.selection.Body.Text(); got == "" || h.d.selection.Title.Text() != h.d.list.Views()[4].Name {
		t.Fatalf("the selection's panel shows %q / %q", h.d.selection.Title.Text(), got)
	}
	if !h.d.selection.Buttons[engine.Retry].Visible() || h.d.selection.Buttons[engine.Pause].Visible() {
		t.Error("a failed file's details should offer Retry, not Pause")
	}
	test.AssertImageMatches(t, "list_selected_details.png", h.d.win.Canvas().Capture())
}

// TestDetailsShowGooglesWords: the selection's details carry the server's
// own words, in full.
func TestDetailsShowGooglesWords(t *testing.T) {
	v := engine.JobView{ID: "j", Name: "a.eml", State: engine.Failed, Reason: "Google refused the message", Details: "Invalid To header", Version: 1}
	got := queuelist.DetailsWords(v, time.Now())
	if g := view.GoogleWords(v); g == "" || !strings.Contains(got, g) {
		t.Errorf("details %q lack Google's words %q", got, g)
	}
}
