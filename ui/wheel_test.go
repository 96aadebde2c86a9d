package ui

import (
	"fmt"
	"image/color"
	"runtime"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// TestOneWheelNotchMovesThreeRows: one notch of the mouse wheel over the
// list moves it by three rows, in every language (it moved about 20 units,
// under a third of a row), and the rows drawn after it are each their own,
// nothing drawn over another.
func TestOneWheelNotchMovesThreeRows(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS keeps the toolkit's own distance")
	}
	for _, code := range []string{"en", "fa", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			h.d.win.Resize(fyne.NewSize(1000, 640))
			h.showFixed(manyJobs(60))
			l := h.d.list
			step := l.RowHeight() + l.Theme().Size(theme.SizeNamePadding)
			if step <= 0 {
				t.Fatal("the list draws no rows")
			}
			c := h.d.win.Canvas()
			over := fyne.CurrentApp().Driver().AbsolutePositionForObject(l).Add(fyne.NewPos(l.Size().Width/2, step/2))
			test.Scroll(c, over, 0, -25) // one notch down, as the toolkit gives it
			if got, want := l.GetScrollOffset(), 3*step; got < want-1 || got > want+1 {
				t.Errorf("one notch moved the list %.0f units, want three rows' %.0f", got, want)
			}
			first, _ := l.OnScreen()
			if first != 3 {
				t.Errorf("after one notch the first row on screen is %d, want 3", first)
			}
			checkNothingDrawnOver(t, "after one notch", l)
			test.Scroll(c, over, 0, 25)
			if got := l.GetScrollOffset(); got > 1 {
				t.Errorf("a notch back up left the list at %.0f, want the top", got)
			}
		})
	}
}

// TestTheHighlightFollowsTheWheel: the row under a pointer that stands
// still is the one highlighted after the wheel moves the rows (the old
// row's highlight stayed while the wheel scrolled), and only that one.
func TestTheHighlightFollowsTheWheel(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(1000, 640))
	h.showFixed(manyJobs(60))
	l := h.d.list
	step := l.RowHeight() + l.Theme().Size(theme.SizeNamePadding)
	c := h.d.win.Canvas()
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(l)
	// On the second row, away from its buttons.
	pointer := at.Add(fyne.NewPos(l.Size().Width/3, step*1.5))
	test.MoveMouse(c, pointer)
	hovered := func() []int {
		var out []int
		for i, r := range l.RowAt {
			if r.Index == i && r.Hovered.FillColor != color.Transparent {
				out = append(out, i)
			}
		}
		return out
	}
	if got := hovered(); fmt.Sprint(got) != "[1]" {
		t.Fatalf("with the pointer on the second row, highlighted rows = %v, want [1]", got)
	}
	// As the toolkit's driver gives it: the position relative to the layer
	// that takes the wheel, which lies over the list.
	wheel := l.WheelLayer
	rel := pointer.Subtract(fyne.CurrentApp().Driver().AbsolutePositionForObject(wheel))
	wheel.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: rel, AbsolutePosition: pointer}, Scrolled: fyne.NewDelta(0, -25)})
	if got := hovered(); fmt.Sprint(got) != "[4]" {
		t.Errorf("after one notch under a still pointer, highlighted rows = %v, want [4]", got)
	}
	test.MoveMouse(c, at.Add(fyne.NewPos(-5, -5))) // off the list
	if got := hovered(); len(got) != 0 {
		t.Errorf("with the pointer off the list, highlighted rows = %v, want none", got)
	}
}
