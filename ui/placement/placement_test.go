package placement

import (
	"fmt"
	"image"
	"testing"

	"fyne.io/fyne/v2"
)

// laptop is a monitor of w × h pixels with a panel of panel pixels at its
// bottom (Windows' task bar, a desktop's dock).
func laptop(w, h, panel int, scale float32) Screen {
	return Screen{Whole: image.Rect(0, 0, w, h), Work: image.Rect(0, 0, w, h-panel), Scale: scale}
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
					got := WindowSize(wanted, s)
					outerW := got.Width*scale + frameRoomWide*scale
					outerH := got.Height*scale + frameRoomHigh*scale
					x0, y0 := (float32(size[0])-outerW)/2, (float32(size[1])-outerH)/2
					if x0 < 0 || y0 < 0 || x0+outerW > float32(s.Work.Max.X) || y0+outerH > float32(s.Work.Max.Y) {
						t.Errorf("%s: the window %v (%v × %v pixels framed) goes outside the work area %v", name, got, outerW, outerH, s.Work)
					}
					if wanted.IsZero() {
						if w, h := got.Width*scale/float32(s.Work.Dx()), got.Height*scale/float32(s.Work.Dy()); (w < 0.6 && got.Width < largestFirstWidth) || (h < 0.6 && got.Height < largestFirstHeight) {
							t.Errorf("%s: a first start takes only %.0f%% × %.0f%% of the work area", name, 100*w, 100*h)
						}
					} else if got.Width > wanted.Width || got.Height > wanted.Height {
						t.Errorf("%s: the window grew to %v", name, got)
					}
				}
			}
		}
	}
	if got := WindowSize(fyne.NewSize(960, 640), laptop(3840, 2160, 80, 2)); got != fyne.NewSize(960, 640) {
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
		if got := WindowScale(env(tc.env), tc.monitor); got != tc.want {
			t.Errorf("FYNE_SCALE=%q on a monitor at %v: scale %v, want %v", tc.env, tc.monitor, got, tc.want)
		}
	}
}
