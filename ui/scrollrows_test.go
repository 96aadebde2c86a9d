package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hoist/ui/look"
)

// TestRowsStayTheirOwnWhileScrolling: in Persian and Arabic, light and
// dark, a long list scrolled down and back again draws each row with its
// own job's name, never a name left from the row it showed before, and
// nothing of one row over another (another row's text was drawn over the
// first row and stayed there while scrolling).
func TestRowsStayTheirOwnWhileScrolling(t *testing.T) {
	for _, code := range []string{"fa", "ar"} {
		for _, shade := range []string{look.ThemeLight, look.ThemeDark} {
			t.Run(fmt.Sprintf("%s %s", code, shade), func(t *testing.T) {
				speakWindow(t, code)
				h := newHarness(t, harnessOptions{sandboxMode: true})
				h.app.Settings().SetTheme(look.NewTheme(shade))
				h.d.win.Resize(fyne.NewSize(1000, 640))
				views := manyJobs(80)
				for i := range views {
					views[i].Name = fmt.Sprintf("گزارش فصل %03d.pdf", i) // a right-to-left name
				}
				h.showFixed(views)
				l := h.d.list
				step := l.RowHeight() * 3.5 // not a whole number of rows
				check := func(at string) {
					t.Helper()
					first, last := l.OnScreen()
					if last < first {
						t.Fatalf("%s: no row on screen", at)
					}
					for i := first; i <= last; i++ {
						r := l.RowAt[i]
						if r == nil || !r.Visible() {
							continue
						}
						if want := l.Snap.View(i).Name; !strings.Contains(unmarked(r.Name.Text()), want) {
							t.Errorf("%s: row %d shows %q, want %q", at, i, r.Name.Text(), want)
						}
					}
					checkNothingDrawnOver(t, at, l)
				}
				check("at the top")
				for y := float32(0); y < step*12; y += step {
					l.ScrollToOffset(y)
					check(fmt.Sprintf("scrolled to %.0f", y))
				}
				for y := step * 12; y >= 0; y -= step {
					l.ScrollToOffset(y)
					check(fmt.Sprintf("back at %.0f", y))
				}
			})
		}
	}
}

// TestTheScrollBarLeavesThePicturesAlone: the list's scroll bar is at its
// right in every language; in a right-to-left window, where a row's
// picture is at its right, the bar was drawn over the thumbnails. Nothing
// of a row is drawn where the bar is.
func TestTheScrollBarLeavesThePicturesAlone(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			h.finishedEmails(24)
			h.d.win.Resize(fyne.NewSize(900, 500))
			h.Refresh()
			l := h.d.list
			drv := fyne.CurrentApp().Driver()
			bar := drv.AbsolutePositionForObject(l).X + l.Size().Width - l.Theme().Size(theme.SizeNameScrollBar)
			if len(l.RowAt) == 0 {
				t.Fatal("the list draws no rows")
			}
			for _, r := range l.RowAt {
				for _, p := range drawnPieces(r) {
					if right := p.pos.X + p.size.Width; right > bar+0.5 {
						t.Errorf("%q of a row is drawn to x %.1f, under the scroll bar at %.1f", p.what, right, bar)
					}
				}
			}
		})
	}
}
