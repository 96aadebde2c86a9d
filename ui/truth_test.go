package ui

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/ui/widgets"
)

// The window never shows a count, name or question that is no longer true:
// each of these views once went stale.

// finishedEmails drops n email files and waits until every one is done and
// shown.
func (h *harness) finishedEmails(n int) {
	h.t.Helper()
	for i := range n {
		name := fmt.Sprintf("note %d", i+1)
		h.drop(h.writeFile(name+".eml", emailBytes("Sam <sam@example.com>", name)))
	}
	h.waitFor(fmt.Sprintf("%d finished rows", n), func() bool {
		// The picture's own rows: a row's whole view is read when it is
		// drawn, and may be newer than the picture the totals count.
		done := 0
		for _, b := range h.d.list.Snap.Rows {
			if b.State == engine.Done {
				done++
			}
		}
		return len(h.d.list.Snap.Rows) == n && done == n
	})
}

func countDone(views []engine.JobView) int {
	n := 0
	for _, v := range views {
		if v.State == engine.Done {
			n++
		}
	}
	return n
}

// layOut lays the window out anew, as a frame of the real driver does
// after something was shown or hidden (the test driver lays out only when
// the window's size changes).
func (h *harness) layOut() {
	size := h.d.win.Canvas().Size()
	h.d.win.Resize(size.AddWidthHeight(1, 1))
	h.d.win.Resize(size)
}

// dialogText is every paragraph of the dialogs on screen.
func (h *harness) dialogText() string {
	var out []string
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			if p, ok := o.(*widgets.Paragraph); ok && p.Visible() {
				out = append(out, p.Text())
			}
		})
	}
	return strings.Join(out, "\n")
}

// TestTotalsLeaveRemovedRowsOut: a row removed (Undo still possible) is
// counted nowhere: the totals say 4 of 4 files, not 4 of 5; Undo brings it
// back into them.
func TestTotalsLeaveRemovedRowsOut(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.finishedEmails(5)
	if got := h.d.foot.Summary.Text(); !strings.HasPrefix(got, "5 of 5 files") {
		t.Fatalf("totals before = %q", got)
	}
	test.Tap(h.row("note 3.eml").Remove)
	h.Refresh()
	if got := h.d.foot.Summary.Text(); !strings.HasPrefix(got, "4 of 4 files") {
		t.Errorf("after Remove the totals say %q, want 4 of 4 files", got)
	}
	test.Tap(h.button("Undo"))
	h.Refresh()
	if got := h.d.foot.Summary.Text(); !strings.HasPrefix(got, "5 of 5 files") {
		t.Errorf("after Undo the totals say %q, want 5 of 5 files", got)
	}
}

// TestSelectAllAndDeleteEmptiesEverything: Ctrl+A and Delete leave no row,
// and nothing counts them: the empty window, no totals, nothing to clear.
// Ctrl+Z brings them all back.
func TestSelectAllAndDeleteEmptiesEverything(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.finishedEmails(6)
	h.d.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutSelectAll{})
	h.key(fyne.KeyDelete)
	h.Refresh()
	if n := len(h.d.list.Views()); n != 0 || !h.d.empty.Visible() {
		t.Fatalf("after Ctrl+A and Delete the list shows %d rows", n)
	}
	// Files were there a moment ago: "No files yet." was not true.
	if got := h.d.foot.Summary.Text(); got != "The list is empty." {
		t.Errorf("the totals say %q over an empty list", got)
	}
	if !h.d.foot.ClearFinished.Disabled() {
		t.Error("Clear finished is offered with no row to clear")
	}
	if got := h.d.win.Title(); got != "Hoist" {
		t.Errorf("the title says %q", got)
	}
	h.d.win.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
	h.Refresh()
	if n := len(h.d.list.Views()); n != 6 {
		t.Fatalf("Ctrl+Z brought back %d rows, want 6", n)
	}
	if got := h.d.foot.Summary.Text(); !strings.HasPrefix(got, "6 of 6 files") {
		t.Errorf("after Ctrl+Z the totals say %q", got)
	}
}

// TestQuitQuestionCountsWhatIsLeft: the question before quitting counts
// the files that would stop as they stop; once none is left it goes, and
// Hoist quits as it was asked to.
func TestQuitQuestionCountsWhatIsLeft(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	defer free()
	// Each file's first chunk goes; every later one waits for release.
	later := func(r *http.Request) bool { return !strings.HasPrefix(r.Header.Get("Content-Range"), "bytes 0-") }
	h.sb.Server.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk, Func: later}, Times: -1, Action: emulator.Stall{Until: release}})
	h.drop(h.writeFile("first.dat", pattern(2<<20)), h.writeFile("second.dat", pattern(2<<20)))
	h.waitFor("both files to be under way", func() bool {
		n := 0
		for _, v := range h.d.list.Views() {
			if v.State == engine.Uploading && v.Committed == 256<<10 {
				n++
			}
		}
		return n == 2
	})

	h.shortcut(fyne.KeyQ)
	if got := h.dialogText(); !strings.Contains(got, "2 files are still uploading") {
		t.Fatalf("the question says %q", got)
	}
	if err := h.q.Do(h.job("first.dat").ID, engine.Cancel); err != nil {
		t.Fatal(err)
	}
	h.waitFor("the question to count one file", func() bool {
		return strings.Contains(h.dialogText(), "1 file is still uploading")
	})
	if h.d.exit.quitting {
		t.Fatal("Hoist quit while a file was still uploading")
	}
	free()
	h.waitFor("Hoist to quit once nothing is left to stop", func() bool { return h.d.exit.quitting })
	if got := h.dialogText(); got != "" {
		t.Errorf("the question is still on screen: %q", got)
	}
	if h.state("second.dat") != engine.Done {
		t.Errorf("second.dat is %s, want done", h.state("second.dat"))
	}
}

// TestSandboxPanelCountsWithTheList: what the sandbox received is counted
// in the same picture as the list: the frame that shows a file done shows
// it received.
func TestSandboxPanelCountsWithTheList(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	for n := 1; n <= 6; n++ {
		h.drop(h.writeFile(fmt.Sprintf("photo %d.eml", n), emailBytes("Sam <sam@example.com>", fmt.Sprint(n))))
		waitUntil(t, fmt.Sprintf("the sandbox to receive file %d", n), func() bool {
			return h.sb.Server.Received() == n && countDone(h.q.Jobs()) == n
		})
		h.Refresh()
		if got, want := h.d.foot.Summary.Text(), fmt.Sprintf("%d of %d file", n, n); !strings.HasPrefix(got, want) {
			t.Fatalf("the totals say %q, want %q", got, want)
		}
		if got, want := h.d.sandboxPanel.Heading.Text, fmt.Sprintf("What the sandbox received (%d)", n); got != want {
			t.Errorf("beside %d of %d files the sandbox panel says %q", n, n, got)
		}
	}
}

// TestUndoMovesNothing: offering Undo, and its going, leave the list where
// it is, so the next click lands on the row under the pointer. The Undo is
// reached with Tab and pressed with Space.
func TestUndoMovesNothing(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.finishedEmails(4)
	drv := fyne.CurrentApp().Driver()
	at, size := drv.AbsolutePositionForObject(h.d.list), h.d.list.Size()
	still := func(when string) {
		t.Helper()
		h.layOut()
		if p, s := drv.AbsolutePositionForObject(h.d.list), h.d.list.Size(); p != at || s != size {
			t.Errorf("%s the list moved from %v (%v) to %v (%v)", when, at, size, p, s)
		}
	}
	test.Tap(h.row("note 2.eml").Remove)
	h.Refresh()
	if h.findButton("Undo") == nil {
		t.Fatal("no Undo after Remove")
	}
	still("with Undo offered")

	undo := h.tabTo("Undo", 40)
	if undo == nil {
		t.Fatal("Tab never reaches Undo")
	}
	undo.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	h.Refresh()
	if n := len(h.d.list.Views()); n != 4 {
		t.Fatalf("Space on Undo left %d rows, want 4", n)
	}
	still("after Undo")

	test.Tap(h.row("note 1.eml").Remove)
	h.Refresh()
	h.d.removals.Commit() // as when the Undo's time is up
	h.waitFor("the queue to forget the row", func() bool { return len(h.q.Jobs()) == 3 && len(h.d.list.Views()) == 3 })
	still("once the Undo went")
}

// waitUntil waits for ok without drawing anything; the deadline only keeps
// a broken test from hanging.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestBigFileBarMovesWithTheBytes: while one large request is in flight
// the server confirms nothing until its end, yet the row's bar and words
// move with the bytes that crossed the link; what the server confirmed is
// said beneath, in the details.
func TestBigFileBarMovesWithTheBytes(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true}) // chunk size 0: the whole file in one request
	h.sb.Server.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Times: -1, Action: emulator.SlowRead{BytesPerSecond: 4 << 20}})
	const size = 16 << 20
	h.drop(h.writeFile("film.mov", pattern(size)))
	var shown engine.JobView
	h.waitFor("bytes to move before any is confirmed", func() bool {
		for _, v := range h.d.list.Views() {
			if v.Name == "film.mov" && v.State == engine.Uploading && v.Committed == 0 && v.Delivered > 1<<20 && v.Delivered < size/2 {
				shown = v
				return true
			}
		}
		return false
	})
	r := h.row("film.mov")
	if want := float64(shown.Delivered) / size; r.Bar.Value != want {
		t.Errorf("with %d bytes sent and none confirmed the bar is at %v, want %v", shown.Delivered, r.Bar.Value, want)
	}
	if got := r.Progress.Text(); strings.HasPrefix(got, "0 bytes") {
		t.Errorf("the row says %q while bytes move", got)
	}
	// Whenever bytes went on between two frames, so did the bar.
	moved := 0
	for range 10 {
		before, was := r.Bar.Value, h.d.list.Views()[0]
		time.Sleep(250 * time.Millisecond)
		h.Refresh()
		now := h.d.list.Views()[0]
		if now.Committed != 0 || now.State != engine.Uploading {
			break
		}
		if now.Delivered > was.Delivered {
			moved++
			if r.Bar.Value <= before {
				t.Errorf("the bar stood at %v while %d more bytes went", before, now.Delivered-was.Delivered)
			}
		}
	}
	if moved == 0 {
		t.Error("no bytes went on while nothing was confirmed")
	}
	h.d.list.Click(0, 0)
	if v := h.d.list.Views()[0]; v.Committed < v.Delivered && !strings.Contains(h.d.selection.Body.Text(), "Confirmed by the server so far: ") {
		t.Errorf("the details do not say what the server confirmed: %q", h.d.selection.Body.Text())
	}
}

// TestReceiptsAreOneTabStop: what the sandbox received is one stop of Tab
// however many files it holds (it was one per file's copy button); Down
// and End move the cursor, and Enter copies its file's SHA-256.
func TestReceiptsAreOneTabStop(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(1000, 700))
	h.finishedEmails(16)
	h.waitFor("the sandbox panel to list the files", func() bool { return len(h.d.sandboxPanel.Objects()) == 16 })
	c := h.d.win.Canvas()
	var first fyne.Focusable
	inReceipts := 0
	for range 200 {
		c.FocusNext()
		f := c.Focused()
		if f == first {
			break
		}
		if first == nil {
			first = f
		}
		if o, ok := f.(fyne.CanvasObject); ok && inside(o, h.d.sandboxPanel.Content) {
			inReceipts++
		}
	}
	if inReceipts != 1 {
		t.Fatalf("Tab stops %d times in what the sandbox received, want once", inReceipts)
	}
	c.Focus(h.d.sandboxPanel.List)
	l := h.d.sandboxPanel.List
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	h.app.Clipboard().SetContent("")
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if got, want := h.app.Clipboard().Content(), h.d.sandboxPanel.Objects()[2].SHA256; got != want || want == "" {
		t.Errorf("Enter on the third file copied %q, want its SHA-256 %q", got, want)
	}
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	l.TypedShortcut(&fyne.ShortcutCopy{})
	if got, want := h.app.Clipboard().Content(), h.d.sandboxPanel.Objects()[15].SHA256; got != want {
		t.Errorf("Ctrl+C on the last file copied %q, want %q", got, want)
	}
}

// TestEnterPressesTheButton: in the question before quitting, Enter
// presses the button that has the focus, and where none has it the
// question's default, as in the result's dialog.
func TestEnterPressesTheButton(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)

	h.shortcut(fyne.KeyQ)
	if h.tabTo("Keep uploading", 10) == nil {
		t.Fatal("Tab does not reach Keep uploading")
	}
	h.d.win.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if h.findButton("Keep uploading") != nil || h.d.exit.quitting {
		t.Fatal("Enter on Keep uploading did not keep uploading")
	}

	h.shortcut(fyne.KeyQ)
	h.key(fyne.KeyReturn) // nothing focused in the question: its default
	if !h.d.exit.quitting {
		t.Fatal("Enter did not press the question's default, Pause uploads and quit")
	}
}

// TestEnterClosesTheResult: Enter closes a result's dialog, as its Close does.
func TestEnterClosesTheResult(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.finishedEmails(1)
	h.d.acts.ShowResult(h.d.list.Views()[0])
	if len(h.d.frame.Dialogs) != 1 {
		t.Fatal("no result's dialog")
	}
	h.key(fyne.KeyReturn)
	if len(h.d.frame.Dialogs) != 0 {
		t.Error("Enter left the result's dialog open")
	}
}

// TestAMessageDoesNotMoveTheList: a sentence the window shows (a copied
// address, a refused action, a drop that added nothing) appears without
// moving the rows: the row under the pointer stays the row under it (the
// message line at the top pushed the list down by a line).
func TestAMessageDoesNotMoveTheList(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.showFixed(manyJobs(30))
	h.layOut()
	drv := fyne.CurrentApp().Driver()
	first := h.d.list.RowAt[0]
	before := drv.AbsolutePositionForObject(first)
	h.d.frame.Tell("The address of “spring.png” was copied.")
	h.layOut()
	if !h.d.frame.Message.Visible() || !h.OnScreen(h.d.frame.Message) {
		t.Fatal("the message is not on screen")
	}
	if after := drv.AbsolutePositionForObject(h.d.list.RowAt[0]); after != before || h.d.list.RowAt[0] != first {
		t.Errorf("the first row moved from %v to %v when a message appeared", before, after)
	}
	h.d.frame.Unsay("")
	h.layOut()
	if after := drv.AbsolutePositionForObject(h.d.list.RowAt[0]); after != before {
		t.Errorf("the first row moved from %v to %v when the message went", before, after)
	}
}
