package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
)

func (h *harness) shortcut(key fyne.KeyName) {
	h.d.win.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault})
}

func (h *harness) key(key fyne.KeyName) {
	h.d.win.Canvas().(interface {
		OnTypedKey() func(*fyne.KeyEvent)
	}).OnTypedKey()(&fyne.KeyEvent{Name: key})
}

// TestCtrlQAsksLikeClosing: Ctrl+Q during an upload asks the same question
// as closing the window, with buttons that say what they do; Escape keeps
// uploading, and the question's own button pauses and quits.
func TestCtrlQAsksLikeClosing(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)

	h.shortcut(fyne.KeyQ)
	if h.findButton("Keep uploading") == nil || h.findButton("Pause uploads and quit") == nil {
		t.Fatal("Ctrl+Q did not ask whether to pause uploads and quit")
	}
	h.key(fyne.KeyEscape)
	if h.findButton("Keep uploading") != nil {
		t.Fatal("Escape did not close the question")
	}
	if h.d.exit.quitting || h.state("movie.dat") != engine.Uploading {
		t.Fatal("Escape should keep uploading")
	}
	h.shortcut(fyne.KeyQ)
	test.Tap(h.button("Pause uploads and quit"))
	h.waitFor("the queue to pause for quitting", func() bool { return h.d.exit.quitting && h.state("movie.dat") == engine.Paused })
}

// TestEscapeClosesForms: Escape closes the settings and a destination's form.
func TestEscapeClosesForms(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.settings.ShowSettings()
	h.d.bar.ShowForm(h.d.target.Dest, false)
	if n := len(h.d.frame.Dialogs); n != 2 {
		t.Fatalf("%d dialogs open, want 2", n)
	}
	h.key(fyne.KeyEscape)
	h.key(fyne.KeyEscape)
	if n := len(h.d.frame.Dialogs); n != 0 {
		t.Errorf("after two Escapes %d dialogs are still open", n)
	}
	for _, o := range h.d.win.Canvas().Overlays().List() {
		if o.Visible() {
			t.Errorf("a dialog is still on screen: %T", o)
		}
	}
}

// TestDeleteOffersUndo: Delete takes the selected rows (picked with
// Ctrl+click and Shift+click) off the list at once; Undo brings them back,
// and once the Undo is gone the queue forgets them.
func TestDeleteOffersUndo(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	for _, n := range []string{"a", "b", "c", "d"} {
		h.drop(h.writeFile(n+".eml", emailBytes(n+" <"+n+"@example.com>", n)))
	}
	h.waitFor("four finished rows", func() bool { return h.d.shots.Last.Totals.Done == 4 && len(h.d.list.Views()) == 4 })
	l := h.d.list
	first, second, third, fourth := l.Views()[0].Name, l.Views()[1].Name, l.Views()[2].Name, l.Views()[3].Name
	l.Click(0, 0)
	l.Click(2, fyne.KeyModifierShift)
	l.Click(1, fyne.KeyModifierShortcutDefault) // takes the second row out again
	if got, want := names(l.Snap.Selected), first+" "+third; got != want {
		t.Fatalf("selected %q, want %q", got, want)
	}
	if got := h.d.selection.Title.Text(); got != "2 files selected" {
		t.Errorf("the selection's panel says %q", got)
	}
	l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDelete})
	h.Refresh()
	if got, want := names(l.Views()), second+" "+fourth; got != want {
		t.Fatalf("after Delete the list shows %q, want %q", got, want)
	}
	if len(h.q.Jobs()) != 4 {
		t.Fatal("the queue forgot the jobs before the Undo went away")
	}
	test.Tap(h.button("Undo"))
	h.Refresh()
	if len(l.Views()) != 4 || h.d.foot.Undo.Visible() {
		t.Fatalf("Undo did not bring the rows back: %q", names(l.Views()))
	}
	l.Click(l.Snap.Index[h.job(fourth).ID], 0)
	h.key(fyne.KeyDelete)
	h.Refresh()
	h.d.removals.Commit() // as when the Undo goes away
	h.waitFor("the queue to forget the removed row", func() bool { return len(h.q.Jobs()) == 3 && len(l.Views()) == 3 })
	if h.state(fourth) != "" {
		t.Errorf("%s is still queued", fourth)
	}
}

func names(views []engine.JobView) string {
	s := ""
	for i, v := range views {
		if i > 0 {
			s += " "
		}
		s += v.Name
	}
	return s
}
