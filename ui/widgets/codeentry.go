package widgets

import (
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CodeEntry is an entry of several lines for code: the JSON metadata of a
// destination. JSON reads from the left in every language, so each line is
// a left-to-right paragraph (braces, quotes and keys stay in place), and the
// runs of Arabic, Persian or Hebrew inside it (a value such as
// "گزارش سالانه ۱۴۰۵") are drawn in their order, as the one-line entry draws
// its text: the toolkit keeps the text, the cursor, the selection, the keys,
// the clipboard and undo, and draws nothing that can be seen; the entry
// draws the lines, the cursor and the selection as they are seen, maps
// clicks and drags on the drawn text to places in it, and scrolls in both
// directions, keeping the cursor in view. Lines are not wrapped. Left and
// Right move in logical order, as in the one-line entry; Up and Down move to
// the character drawn above or below the cursor. Tab moves the focus on, as
// in any other field.
type CodeEntry struct {
	widget.Entry
	view    *codeView
	focused bool

	// Where Up and Down aim, in the line as drawn: kept over lines too short
	// to reach it, forgotten at any other key, typing or click.
	goalX  float32
	goalOn bool
}

// TypedKey moves up and down by the text as it is seen: a line holding a
// Persian or Hebrew string draws its characters out of their logical order,
// so the toolkit's "same column" would land elsewhere on the screen. The
// toolkit still moves the row, extends or clears the selection and keeps
// undo; the column is then the one drawn nearest the place aimed at.
func (e *CodeEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name != fyne.KeyUp && k.Name != fyne.KeyDown {
		e.goalOn = false
		e.Entry.TypedKey(k)
		return
	}
	lines := strings.Split(e.Text, "\n")
	if !e.goalOn {
		_, e.goalX = e.view.layoutLine(lines[min(e.CursorRow, len(lines)-1)], e.CursorColumn)
		e.goalOn = true
	}
	from := e.CursorRow
	e.Entry.TypedKey(k)
	row := e.CursorRow
	if row == from || row >= len(lines) {
		return
	}
	margin, _, size := e.view.metrics()
	want := caretColumn(lines[row], e.goalX, codeLine, e.view.Size().Width, margin, size, e.TextStyle)
	// Step there along the line with the toolkit's own keys, so that a
	// selection being extended (Shift held) follows the cursor.
	for e.CursorColumn < want && e.CursorRow == row {
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	}
	for e.CursorColumn > want && e.CursorRow == row {
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	}
}

// TypedRune types, and forgets where Up and Down aimed.
func (e *CodeEntry) TypedRune(r rune) {
	e.goalOn = false
	e.Entry.TypedRune(r)
}

// NewCodeEntry is a field of several lines of code (JSON), drawn left to
// right in every window with each string in its own direction.
func NewCodeEntry() *CodeEntry {
	e := &CodeEntry{}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapOff
	e.Scroll = fyne.ScrollNone // the entry scrolls what it draws itself
	e.view = &codeView{entry: e, caret: canvas.NewRectangle(color.Transparent)}
	e.view.caret.Hide()
	e.view.ExtendBaseWidget(e.view)
	e.ExtendBaseWidget(e)
	container.NewThemeOverride(e, textless{})
	// The arrow keys move the toolkit's cursor without a refresh of the entry.
	e.OnCursorChanged = func() { e.place(e.Size()) }
	return e
}

func (e *CodeEntry) CreateRenderer() fyne.WidgetRenderer {
	r := e.Entry.CreateRenderer()
	return &codeRenderer{placing: &placing{WidgetRenderer: r, size: e.Size, place: e.place, extra: []fyne.CanvasObject{e.view}}, entry: e}
}

// codeRenderer is the toolkit's renderer with the entry's own view over
// it; it is as small as the toolkit's scrolling entry of three lines, as
// the view scrolls.
type codeRenderer struct {
	*placing
	entry *CodeEntry
}

func (r *codeRenderer) MinSize() fyne.Size {
	th := fyne.CurrentApp().Settings().Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	m := fyne.MeasureText("M", th.Size(theme.SizeNameText), r.entry.TextStyle)
	size := fyne.NewSize(m.Width+3*pad, 3*m.Height+2*pad)
	if r.entry.Validator != nil {
		size.Width += th.Size(theme.SizeNameInlineIcon) + th.Size(theme.SizeNameLineSpacing)
	}
	return size
}

// AcceptsTab is false: Tab moves the focus to the next field, as JSON
// needs no tabs.
func (e *CodeEntry) AcceptsTab() bool { return false }

// ScrollsIn names the scroll around the field (a form's), which the mouse
// wheel over the field moves once the field's own text cannot move.
func (e *CodeEntry) ScrollsIn(s *container.Scroll) { e.view.outer = s }

// FocusGained shows the entry's own cursor; the toolkit is not told, as it
// would blink its own where the text is not drawn.
func (e *CodeEntry) FocusGained() {
	e.focused = true
	e.Refresh()
}

// FocusLost hides it.
func (e *CodeEntry) FocusLost() {
	e.focused = false
	e.Entry.FocusLost()
}

// place lays the view out over the room the toolkit leaves for the text
// and draws the text, the cursor and the selection in it.
func (e *CodeEntry) place(size fyne.Size) {
	b := fyne.CurrentApp().Settings().Theme().Size(theme.SizeNameInputBorder)
	e.view.Move(fyne.NewPos(b, b))
	e.view.Resize(fyne.NewSize(max(fieldTextWidth(&e.Entry, size.Width)-2*b, 0), max(size.Height-2*b, 0)))
	e.view.draw()
}

// DoubleTapped selects the word under the pointer, as the toolkit does,
// and keeps the toolkit's own cursor hidden: it would blink where the text
// is not drawn.
func (e *CodeEntry) DoubleTapped(ev *fyne.PointEvent) {
	e.Entry.DoubleTapped(ev)
	e.Entry.FocusLost() // only the toolkit's: the field keeps the focus
	e.place(e.Size())
}

// MouseDown puts the cursor where the click is in the text as it is seen.
func (e *CodeEntry) MouseDown(m *desktop.MouseEvent) {
	e.goalOn = false
	moved := *m
	moved.Position = e.view.toolkitPos(e.view.placeAt(m.Position.Subtract(e.view.Position())))
	e.Entry.MouseDown(&moved)
	e.place(e.Size())
}

// Dragged selects from where the drag started to the pointer, both as seen.
func (e *CodeEntry) Dragged(d *fyne.DragEvent) {
	moved := *d
	moved.Position = d.Position.Subtract(e.view.Position())
	e.view.Dragged(&moved)
}

// DragEnd ends the selection by the pointer.
func (e *CodeEntry) DragEnd() { e.view.DragEnd() }

// codeView draws the text of a CodeEntry as it is seen, scrolled, and
// clips it to the field; drags and the mouse wheel over the text land on it.
type codeView struct {
	widget.BaseWidget
	entry *CodeEntry

	offset  fyne.Position     // how far the text is scrolled
	outer   *container.Scroll // the form's scroll, which takes the wheel where the text cannot move
	lines   []*Label          // one per line in view, each a left-to-right paragraph
	caret   *canvas.Rectangle
	objects []fyne.CanvasObject

	// The cursor and the text last drawn: when either moves, the view
	// scrolls to keep the cursor in it.
	lastRow, lastCol int
	lastText         string
}

// codeMetrics are the sizes of a codeView's text: its left and top margin,
// the height of a line, the text's size.
func (v *codeView) metrics() (margin, line, size float32) {
	th := fyne.CurrentApp().Settings().Theme()
	size = th.Size(theme.SizeNameText)
	margin = max(th.Size(theme.SizeNameInnerPadding)-th.Size(theme.SizeNameInputBorder), 1)
	line = fyne.MeasureText("M", size, v.entry.TextStyle).Height
	return margin, line, size
}

// layoutLine is where the characters of a line stand in the view before it
// is scrolled, and where the cursor before logical index at does.
func (v *codeView) layoutLine(text string, at int) (boxes [][2]float32, x float32) {
	margin, _, size := v.metrics()
	return caretPlaces(text, at, codeLine, v.Size().Width, margin, size, v.entry.TextStyle)
}

// placeAt is the line and logical column of the cursor nearest to a point
// of the view: where a click there puts it.
func (v *codeView) placeAt(p fyne.Position) (row, col int) {
	margin, line, size := v.metrics()
	lines := strings.Split(v.entry.Text, "\n")
	row = int(math.Floor(float64((p.Y + v.offset.Y - margin) / line)))
	row = min(max(row, 0), len(lines)-1)
	col = caretColumn(lines[row], p.X+v.offset.X, codeLine, v.Size().Width, margin, size, v.entry.TextStyle)
	return row, col
}

// toolkitPos is the place, in the entry, that the toolkit (which lays the
// text out in logical order from the left, unscrolled) turns into row and
// logical column col.
func (v *codeView) toolkitPos(row, col int) fyne.Position {
	th := fyne.CurrentApp().Settings().Theme()
	_, line, _ := v.metrics()
	lines := strings.Split(v.entry.Text, "\n")
	y := th.Size(theme.SizeNameInnerPadding) - th.Size(theme.SizeNameLineSpacing) + (float32(row)+0.5)*line
	return fyne.NewPos(toolkitX([]rune(lines[min(row, len(lines)-1)]), col, v.entry.TextStyle), y)
}

// Dragged selects from where the drag started to the pointer, both as seen.
func (v *codeView) Dragged(d *fyne.DragEvent) {
	from := v.toolkitPos(v.placeAt(d.Position.SubtractXY(d.Dragged.DX, d.Dragged.DY)))
	to := v.toolkitPos(v.placeAt(d.Position))
	moved := *d
	// The toolkit counts a drag's place from below the entry's border.
	moved.Position = to.SubtractXY(0, fyne.CurrentApp().Settings().Theme().Size(theme.SizeNameInputBorder))
	moved.Dragged = fyne.NewDelta(to.X-from.X, to.Y-from.Y)
	v.entry.Entry.Dragged(&moved)
	v.entry.place(v.entry.Size())
}

// DragEnd ends the selection by the pointer.
func (v *codeView) DragEnd() {
	v.entry.Entry.DragEnd()
	v.entry.place(v.entry.Size())
}

// Scrolled moves the text under the mouse wheel; when the text fits, or
// has reached its end in the wheel's direction, the form around it scrolls
// instead, as a page does past a box it is done with.
func (v *codeView) Scrolled(ev *fyne.ScrollEvent) {
	before := v.offset
	v.offset = v.offset.SubtractXY(ev.Scrolled.DX, ev.Scrolled.DY)
	v.draw()
	if v.offset == before && v.outer != nil {
		v.outer.Scrolled(ev)
	}
}

// Cursor is the text cursor, as over any field.
func (v *codeView) Cursor() desktop.Cursor { return desktop.TextCursor }

// draw puts the lines in view, the selection and the cursor where they are
// seen, scrolled so that a cursor that has just moved is in view.
func (v *codeView) draw() {
	e := v.entry
	margin, line, size := v.metrics()
	view := v.Size()
	text, hint := e.Text, false
	if text == "" {
		text, hint = e.PlaceHolder, true
	}
	lines := strings.Split(text, "\n")
	var widest float32
	for _, l := range lines {
		widest = max(widest, fyne.MeasureText(l, size, e.TextStyle).Width)
	}
	content := fyne.NewSize(widest+2*margin+FocusWidth, float32(len(lines))*line+2*margin)

	row, col := e.CursorRow, e.CursorColumn
	if hint {
		row, col = 0, 0
	}
	if row != v.lastRow || col != v.lastCol || e.Text != v.lastText {
		v.lastRow, v.lastCol, v.lastText = row, col, e.Text
		_, x := v.layoutLine(lines[min(row, len(lines)-1)], col)
		y := margin + float32(row)*line
		v.offset.X = min(max(v.offset.X, x+margin-view.Width), max(x-margin, 0))
		v.offset.Y = min(max(v.offset.Y, y+line+margin-view.Height), max(y-margin, 0))
	}
	v.offset.X = min(max(v.offset.X, 0), max(content.Width-view.Width, 0))
	v.offset.Y = min(max(v.offset.Y, 0), max(content.Height-view.Height, 0))

	from, to, chosen := selectedRange(&e.Entry, e.Text)
	first := max(int((v.offset.Y-margin)/line), 0)
	last := min(int((v.offset.Y+view.Height-margin)/line), len(lines)-1)
	v.objects = v.objects[:0]
	var shown []fyne.CanvasObject
	start := 0 // the logical index of the line's first character in the text
	for i, l := range lines {
		n := len([]rune(l))
		if i < first || i > last {
			start += n + 1
			continue
		}
		top := fyne.NewPos(-v.offset.X, margin+float32(i)*line-v.offset.Y)
		label := v.line(len(shown))
		label.Inner = margin
		label.ColorName = colorNameTyped
		if hint {
			label.ColorName = colorNameHint
		}
		label.SetText(l)
		label.Move(top)
		label.Resize(fyne.NewSize(fyne.MeasureText(l, size, e.TextStyle).Width+2*margin+1, line))
		label.Refresh()
		shown = append(shown, label)
		if chosen && from <= start+n && to > start {
			boxes, end := v.layoutLine(l, n)
			// A chosen line break is a space's width after the line's end.
			boxes = append(boxes, [2]float32{end, end + fyne.MeasureText(" ", size, e.TextStyle).Width})
			v.objects = selectionBoxes(v.objects, boxes, from-start, to-start, top, line)
		}
		if i == row && !hint {
			_, x := v.layoutLine(l, col)
			showCaret(v.caret, e.focused && !e.Disabled(), x-v.offset.X, top.Y, line)
		}
		start += n + 1
	}
	if hint || row < first || row > last {
		showCaret(v.caret, e.focused && !e.Disabled() && row >= first && row <= last, margin-v.offset.X, margin-v.offset.Y, line)
	}
	v.objects = append(v.objects, shown...)
	v.objects = append(v.objects, v.caret)
	v.objects = append(v.objects, scrollMarks(view, content, v.offset)...)
	canvas.Refresh(v)
}

// line is the i-th label of the lines in view, made when first needed.
func (v *codeView) line(i int) *Label {
	for len(v.lines) <= i {
		l := NewLabel("")
		l.code, l.whole = true, true
		container.NewThemeOverride(l, textless{}) // colorNameTyped and colorNameHint
		v.lines = append(v.lines, l)
	}
	return v.lines[i]
}

// scrollMarks are thin bars at the right and bottom edges of a view of the
// given size showing which part of content it shows, when it does not
// show all of it.
func scrollMarks(view, content fyne.Size, offset fyne.Position) []fyne.CanvasObject {
	th := fyne.CurrentApp().Settings().Theme()
	col := th.Color(theme.ColorNameScrollBar, fyne.CurrentApp().Settings().ThemeVariant())
	thick := th.Size(theme.SizeNameScrollBarSmall)
	var marks []fyne.CanvasObject
	if content.Height > view.Height && view.Height > 0 {
		r := canvas.NewRectangle(col)
		r.Move(fyne.NewPos(view.Width-thick, offset.Y*view.Height/content.Height))
		r.Resize(fyne.NewSize(thick, view.Height*view.Height/content.Height))
		marks = append(marks, r)
	}
	if content.Width > view.Width && view.Width > 0 {
		r := canvas.NewRectangle(col)
		r.Move(fyne.NewPos(offset.X*view.Width/content.Width, view.Height-thick))
		r.Resize(fyne.NewSize(view.Width*view.Width/content.Width, thick))
		marks = append(marks, r)
	}
	return marks
}

func (v *codeView) CreateRenderer() fyne.WidgetRenderer { return &codeViewRenderer{view: v} }

type codeViewRenderer struct{ view *codeView }

func (r *codeViewRenderer) Layout(fyne.Size)             {}
func (r *codeViewRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *codeViewRenderer) Refresh()                     {}
func (r *codeViewRenderer) Objects() []fyne.CanvasObject { return r.view.objects }
func (r *codeViewRenderer) Destroy()                     {}
