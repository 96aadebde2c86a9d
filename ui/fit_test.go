package ui

import (
	"fmt"
	"image"
	"testing"

	"fyne.io/fyne/v2"
)

// laptop is a monitor of w × h pixels with a panel of panel pixels at its
// bottom (Windows' task bar, a desktop's dock).
func laptop(w, h, panel int, scale float32) screen {
	return screen{whole: image.Rect(0, 0, w, h), work: image.Rect(0, 0, w, h-panel), scale: scale}
}

// TestWindowOpensInsideTheWorkArea: at every scale, on small and large
// screens, the window with its frame, centred on the monitor as it opens,
// is inside the work area; at a first start it takes a good share of it,
// and a size kept from a larger screen or a smaller scale is made to fit.
func TestWindowOpensInsideTheWorkArea(t *testing.T) {
	for _, size := range [][2]int{{1024, 600}, {1366, 768}, {1920, 1080}, {3840, 2160}} {
		for _, scale := range []float32{1, 1.25, 1.5, 2} {
			for _, panel := range []int{0, int(40 * scale)} {
				s := laptop(size[0], size[1], panel, scale)
				for _, wanted := range []fyne.Size{{}, fyne.NewSize(960, 640), fyne.NewSize(1900, 1200)} {
					name := fmt.Sprintf("%d×%d at %v, panel %d, wanted %v", size[0], size[1], scale, panel, wanted)
					got := windowSize(wanted, s)
					outerW := got.Width*scale + frameRoomWide*scale
					outerH := got.Height*scale + frameRoomHigh*scale
					x0, y0 := (float32(size[0])-outerW)/2, (float32(size[1])-outerH)/2
					if x0 < 0 || y0 < 0 || x0+outerW > float32(s.work.Max.X) || y0+outerH > float32(s.work.Max.Y) {
						t.Errorf("%s: the window %v (%v × %v pixels framed) goes outside the work area %v", name, got, outerW, outerH, s.work)
					}
					if wanted.IsZero() {
						if w, h := got.Width*scale/float32(s.work.Dx()), got.Height*scale/float32(s.work.Dy()); (w < 0.6 && got.Width < largestFirstWidth) || (h < 0.6 && got.Height < largestFirstHeight) {
							t.Errorf("%s: a first start takes only %.0f%% × %.0f%% of the work area", name, 100*w, 100*h)
						}
					} else if got.Width > wanted.Width || got.Height > wanted.Height {
						t.Errorf("%s: the window grew to %v", name, got)
					}
				}
			}
		}
	}
	if got := windowSize(fyne.NewSize(960, 640), laptop(3840, 2160, 80, 2)); got != fyne.NewSize(960, 640) {
		t.Errorf("where it fits, the kept size changed to %v", got)
	}
}

// TestWindowScaleIsTheToolkits: the window is sized at the scale the
// toolkit draws at: FYNE_SCALE times the monitor's own, not the app's
// setting alone (which left a 1920×1280 window on a 1366×768 screen at 200 %).
func TestWindowScaleIsTheToolkits(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == "FYNE_SCALE" {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		env     string
		monitor float32
		want    float32
	}{{"", 1, 1}, {"2", 1, 2}, {"auto", 1.5, 1.5}, {"1.5", 2, 3}, {"nonsense", 1, 1}, {"", 0, 1}} {
		if got := windowScale(env(tc.env), tc.monitor); got != tc.want {
			t.Errorf("FYNE_SCALE=%q on a monitor at %v: scale %v, want %v", tc.env, tc.monitor, got, tc.want)
		}
	}
}

// TestWindowKeepsItsSize: the window opens at the size it had when it closed.
func TestWindowKeepsItsSize(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(700, 500))
	saveSize(h.app.Preferences(), h.d.win.Canvas().Size())
	if got := savedSize(h.app.Preferences()); got != fyne.NewSize(700, 500) {
		t.Errorf("the saved size is %v, want 700×500", got)
	}
	place(h.d.win, h.app.Preferences(), laptop(1920, 1080, 40, 1))
	if got := h.d.win.Canvas().Size(); got != fyne.NewSize(700, 500) {
		t.Errorf("placed on a large screen the window is %v, want 700×500", got)
	}
}

// TestSmallScreensReachEverything: at 1024×600 (scale 1) and 1366×768
// (scale 2), the window is as small as the screen, and the status line is
// inside it, or within the window's scrolling at the larger scale.
func TestSmallScreensReachEverything(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	small, scaled := windowSize(fyne.Size{}, laptop(1024, 600, 0, 1)), windowSize(fyne.Size{}, laptop(1366, 768, 80, 2))
	for _, size := range []fyne.Size{small, scaled} {
		h.d.win.Resize(size)
		got := h.d.win.Canvas().Size()
		if got.Width > size.Width+1 || got.Height > size.Height+1 {
			t.Errorf("asked for %v, the window is %v: its controls do not let it be that small", size, got)
		}
	}
	h.d.win.Resize(small)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.d.foot.summary)
	if bottom := pos.Y + h.d.foot.summary.Size().Height; bottom > h.d.win.Canvas().Size().Height {
		t.Errorf("at 1024×600 the status line ends at %v, below the window (%v)", bottom, h.d.win.Canvas().Size().Height)
	}
}
