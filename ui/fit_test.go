package ui

import (
	"testing"

	"fyne.io/fyne/v2"
)

// TestWindowFitsTheScreen: the window opens no larger than the screen, at
// scale 1 and 2, and keeps the size it had when it closed.
func TestWindowFitsTheScreen(t *testing.T) {
	for _, tc := range []struct {
		w, h  int
		scale float32
	}{{1024, 600, 1}, {1366, 768, 2}, {3840, 2160, 2}} {
		got := fitScreen(defaultSize, tc.w, tc.h, tc.scale)
		if got.Width*tc.scale > float32(tc.w) || got.Height*tc.scale > float32(tc.h) {
			t.Errorf("on %d×%d at scale %v the window is %v", tc.w, tc.h, tc.scale, got)
		}
	}
	if got := fitScreen(defaultSize, 3840, 2160, 1); got != defaultSize {
		t.Errorf("on a large screen the window is %v, want %v", got, defaultSize)
	}

	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(700, 500))
	h.d.saveSize()
	if got := h.d.savedSize(); got != fyne.NewSize(700, 500) {
		t.Errorf("the saved size is %v, want 700×500", got)
	}
}

// TestSmallScreensReachEverything: at 1024×600 (scale 1) and 1366×768
// (scale 2), the window is as small as the screen, and the status line is
// inside it, or within the window's scrolling at the larger scale.
func TestSmallScreensReachEverything(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	for _, size := range []fyne.Size{fitScreen(defaultSize, 1024, 600, 1), fitScreen(defaultSize, 1366, 768, 2)} {
		h.d.win.Resize(size)
		got := h.d.win.Canvas().Size()
		if got.Width > size.Width+1 || got.Height > size.Height+1 {
			t.Errorf("asked for %v, the window is %v: its controls do not let it be that small", size, got)
		}
	}
	h.d.win.Resize(fitScreen(defaultSize, 1024, 600, 1))
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.d.foot.summary)
	if bottom := pos.Y + h.d.foot.summary.Size().Height; bottom > h.d.win.Canvas().Size().Height {
		t.Errorf("at 1024×600 the status line ends at %v, below the window (%v)", bottom, h.d.win.Canvas().Size().Height)
	}
}
