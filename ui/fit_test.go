package ui

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"

	"hoist/ui/placement"
)

// laptop is a monitor of w × h pixels with a panel of panel pixels at its
// bottom (Windows' task bar, a desktop's dock).
func laptop(w, h, panel int, scale float32) placement.Screen {
	return placement.Screen{Whole: image.Rect(0, 0, w, h), Work: image.Rect(0, 0, w, h-panel), Scale: scale}
}

// TestWindowKeepsItsSize: the window opens at the size it had when it closed.
func TestWindowKeepsItsSize(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(700, 500))
	placement.SaveSize(h.app.Preferences(), h.d.win.Canvas().Size())
	if got := placement.SavedSize(h.app.Preferences()); got != fyne.NewSize(700, 500) {
		t.Errorf("the saved size is %v, want 700×500", got)
	}
	placement.Place(h.d.win, h.app.Preferences(), laptop(1920, 1080, 40, 1))
	if got := h.d.win.Canvas().Size(); got != fyne.NewSize(700, 500) {
		t.Errorf("placed on a large screen the window is %v, want 700×500", got)
	}
}

// TestSmallScreensReachEverything: at 1024×600 (scale 1) and 1366×768
// (scale 2), the window is as small as the screen, and the status line is
// inside it, or within the window's scrolling at the larger scale.
func TestSmallScreensReachEverything(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	small, scaled := placement.WindowSize(fyne.Size{}, laptop(1024, 600, 0, 1)), placement.WindowSize(fyne.Size{}, laptop(1366, 768, 80, 2))
	for _, size := range []fyne.Size{small, scaled} {
		h.d.win.Resize(size)
		got := h.d.win.Canvas().Size()
		if got.Width > size.Width+1 || got.Height > size.Height+1 {
			t.Errorf("asked for %v, the window is %v: its controls do not let it be that small", size, got)
		}
	}
	h.d.win.Resize(small)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.d.foot.Summary)
	if bottom := pos.Y + h.d.foot.Summary.Size().Height; bottom > h.d.win.Canvas().Size().Height {
		t.Errorf("at 1024×600 the status line ends at %v, below the window (%v)", bottom, h.d.win.Canvas().Size().Height)
	}
}
