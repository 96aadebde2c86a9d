package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TestClickInPersianEntryPlacesTheCaret: in a right-to-left window, a click
// between two letters of a Persian word drawn from the right puts the
// logical cursor between those letters, not where the toolkit's own layout
// from the left would have it; in a Latin word inside, between its letters;
// and a drag from the right edge selects the first letters read, where
// the window sends the drag.
func TestClickInPersianEntryPlacesTheCaret(t *testing.T) {
	w := window(t, true, fyne.NewSize(420, 120))
	e := NewEntry()
	w.SetContent(container.NewVBox(e))
	w.Resize(fyne.NewSize(420, 120))
	e.SetText("سلام دنیا")
	w.Canvas().Focus(e)
	size, pad := theme.TextSize(), theme.InnerPadding()
	right := e.Size().Width - pad // the text starts there
	width := func(s string) float32 { return fyne.MeasureText(s, size, fyne.TextStyle{}).Width }
	click := func(x float32) {
		e.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x, e.Size().Height/2)}, Button: desktop.MouseButtonPrimary})
		e.MouseUp(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x, e.Size().Height/2)}, Button: desktop.MouseButtonPrimary})
	}

	click(right - width("سلا") + 0.5) // between ا and م, read from the right
	if e.CursorColumn != 3 || e.CursorRow != 0 {
		t.Errorf("a click after «سلا» put the cursor at column %d, want 3", e.CursorColumn)
	}
	if at := e.caret.Position().X; at < right-width("سلا")-2 || at > right-width("سلا")+2 {
		t.Errorf("the cursor is drawn at %v, not where the click was (%v)", at, right-width("سلا"))
	}
	click(right - 1) // the right edge: before the first letter
	if e.CursorColumn != 0 {
		t.Errorf("a click at the right edge put the cursor at column %d, want 0", e.CursorColumn)
	}

	e.SetText("گزارش abc")
	left := right - width("گزارش abc")
	click(left + width("a") + 0.5) // between a and b, drawn left to right at the left end
	if e.CursorColumn != 7 {
		t.Errorf("a click between a and b put the cursor at column %d, want 7", e.CursorColumn)
	}

	e.SetText("سلام دنیا")
	click(right - 1)
	from, to := fyne.NewPos(right-1, e.Size().Height/2), fyne.NewPos(right-width("سلا")+0.5, e.Size().Height/2)
	// Dragged where the window sends it: to what is under the pointer.
	test.Drag(w.Canvas(), w.Content().Position().Add(e.Position()).Add(to), to.X-from.X, 0)
	if got := e.SelectedText(); got != "سلا" {
		t.Errorf("a drag over «سلا» selected %q", got)
	}
}

// TestSelectArrowAtTheReadingEnd: in a right-to-left window a select's
// arrow is at its left, and its choice ends at its right; in English, as
// the toolkit has them.
func TestSelectArrowAtTheReadingEnd(t *testing.T) {
	for _, code := range []string{"fa", "en"} {
		w := window(t, readsRight(code), fyne.NewSize(420, 120))
		s := NewSelect([]string{"خصوصی", "Public"}, nil)
		s.SetSelected("خصوصی")
		w.SetContent(container.NewVBox(s))
		w.Resize(fyne.NewSize(420, 120))
		var arrow, choice fyne.CanvasObject
		for _, o := range test.WidgetRenderer(s).Objects() {
			switch o.(type) {
			case *widget.Icon:
				arrow = o
			case *widget.RichText:
				choice = o
			}
		}
		if arrow == nil || choice == nil {
			t.Fatal("the select has no arrow or no choice")
		}
		left := arrow.Position().X+arrow.Size().Width <= choice.Position().X
		if want := code == "fa"; left != want {
			t.Errorf("%s: the arrow at %v, the choice at %v (left %v, want %v)", code, arrow.Position().X, choice.Position().X, left, want)
		}
		s.Refresh() // twice laid out is once
		if again := arrow.Position().X+arrow.Size().Width <= choice.Position().X; again != left {
			t.Errorf("%s: a refresh moved the arrow to the other side", code)
		}
	}
}
