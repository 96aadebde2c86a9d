package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/ui/internal/testui"
)

// TestDialogSelectAndEntryReadFromTheRight: in Persian, a dialog's title,
// the choice of a select and the text of an entry start at the right edge
// of their place, the entry's text in the order it is seen and its cursor
// at the end of what was typed, which for Persian letters is the left end.
func TestDialogSelectAndEntryReadFromTheRight(t *testing.T) {
	w := window(t, true, fyne.NewSize(520, 320))
	choice := NewSelect([]string{"خصوصی", "فهرست‌نشده"}, nil)
	choice.SetSelected("خصوصی")
	typed := NewEntry()
	empty := NewEntry()
	empty.SetPlaceHolder("نام را بنویسید")
	dlg := dialog.NewCustom("نامه مشتری.eml", "بستن", container.NewVBox(choice, typed, empty), w)
	dlg.Resize(fyne.NewSize(420, 260))
	dlg.Show()
	ReadingTitle(w.Canvas())
	w.Canvas().Focus(typed)
	test.Type(typed, "بایگانی خبرنامه")

	box := DialogBox(w.Canvas().Overlays().Top())
	if box == nil {
		t.Fatal("no dialog on top")
	}
	drv := fyne.CurrentApp().Driver()
	rightOf := func(o fyne.CanvasObject) float32 { return drv.AbsolutePositionForObject(o).X + o.Size().Width }
	pad := theme.InnerPadding()
	near := func(a, b float32) bool { return a > b-2*pad-2 && a <= b+0.5 }

	title, ok := box.Objects[4].(*Label)
	if !ok {
		t.Fatalf("the dialog's title is a %T, not drawn in reading order", box.Objects[4])
	}
	if _, r, ok := testui.TextSpan(title); !ok || !near(r, rightOf(box)) {
		t.Errorf("the title ends at %v; the dialog's right edge is %v", r, rightOf(box))
	}
	if choice.Alignment != fyne.TextAlignTrailing {
		t.Error("the select's choice is not written from the right")
	}
	if _, r, ok := testui.TextSpan(choice); !ok || r < rightOf(choice)-choice.Size().Width/3 {
		t.Errorf("the select's choice ends at %v, far from its right edge %v", r, rightOf(choice))
	}
	if _, r, ok := testui.TextSpan(typed.seen); !ok || !near(r, rightOf(typed)) {
		t.Errorf("the entry's text ends at %v; its right edge is %v", r, rightOf(typed))
	}
	if _, r, ok := testui.TextSpan(empty.seen); !ok || !near(r, rightOf(empty)) || empty.seen.Text() != "نام را بنویسید" {
		t.Errorf("the placeholder %q ends at %v; the entry's right edge is %v", empty.seen.Text(), r, rightOf(empty))
	}
	if !typed.caret.Visible() {
		t.Fatal("the focused entry shows no cursor")
	}
	l, _, _ := testui.TextSpan(typed.seen)
	if at := drv.AbsolutePositionForObject(typed.caret).X; at > l+3 || at < l-5 {
		t.Errorf("the cursor after the last Persian word is at %v; the text starts at %v on the left", at, l)
	}
	test.AssertImageMatches(t, "rtl_dialog_widgets_fa.png", w.Canvas().Capture())
}

// TestCaretPlaces: in a right-to-left field, the cursor before a Persian
// letter stands at its right, after the last one at the left end of the
// word, and in a Latin name inside, at the Latin letters' left.
func TestCaretPlaces(t *testing.T) {
	test.NewTempApp(t)
	const width, pad, size = 300, 4, 14
	style := fyne.TextStyle{}
	boxes, end := caretPlaces("سلام", 4, rightToLeft, width, pad, size, style)
	if len(boxes) != 4 {
		t.Fatalf("%d boxes", len(boxes))
	}
	if _, start := caretPlaces("سلام", 0, rightToLeft, width, pad, size, style); start != boxes[0][1] || start < width-pad-0.5 {
		t.Errorf("before the first letter the cursor is at %v; the word ends at %v", start, boxes[0][1])
	}
	if end != boxes[3][0] || end >= boxes[0][1] {
		t.Errorf("after the last letter the cursor is at %v, want the word's left edge %v", end, boxes[3][0])
	}
	// "نامه abc": the Latin word is at the left, read left to right.
	boxes, at := caretPlaces("نامه abc", 6, rightToLeft, width, pad, size, style) // between a and b
	if !(boxes[5][0] < boxes[6][0] && boxes[6][0] < boxes[7][0] && boxes[7][0] < boxes[0][0]) {
		t.Errorf("the letters' places %v are not in reading order", boxes)
	}
	if at != boxes[6][0] {
		t.Errorf("between a and b the cursor is at %v, want %v", at, boxes[6][0])
	}
	if _, none := caretPlaces("", 0, rightToLeft, width, pad, size, style); none != width-pad {
		t.Errorf("in an empty field the cursor is at %v, want the right edge %v", none, width-pad)
	}
}

// TestCursorMove: a list's cursor moves by the keys, never beyond its rows.
func TestCursorMove(t *testing.T) {
	for _, tc := range []struct {
		key             fyne.KeyName
		cursor, page, n int
		to              int
		ok              bool
	}{
		{fyne.KeyDown, 3, 5, 10, 4, true},
		{fyne.KeyUp, 0, 5, 10, 0, true},
		{fyne.KeyPageDown, 7, 5, 10, 9, true},
		{fyne.KeyPageUp, 7, 0, 10, 6, true}, // a page is at least a row
		{fyne.KeyHome, 7, 5, 10, 0, true},
		{fyne.KeyEnd, 2, 5, 10, 9, true},
		{fyne.KeyEnd, 0, 5, 0, 0, true},
		{fyne.KeyA, 2, 5, 10, 2, false},
	} {
		if to, ok := CursorMove(tc.key, tc.cursor, tc.page, tc.n); to != tc.to || ok != tc.ok {
			t.Errorf("%s from %d (page %d, %d rows): %d %v, want %d %v", tc.key, tc.cursor, tc.page, tc.n, to, ok, tc.to, tc.ok)
		}
	}
}
