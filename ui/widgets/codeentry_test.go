package widgets

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// drawnPiece is a text the JSON field draws, where it draws it in the field.
type drawnPiece struct {
	text       string
	left, top  float32
	right, low float32
}

// drawnLines are the texts a JSON field draws, line by line from the top,
// each line's pieces from the left.
func drawnLines(e *CodeEntry) [][]drawnPiece {
	var pieces []drawnPiece
	for _, o := range e.view.objects {
		l, ok := o.(*Label)
		if !ok || !l.Visible() {
			continue
		}
		walk(l, func(o fyne.CanvasObject) {
			t, ok := o.(*canvas.Text)
			if !ok || !t.Visible() || t.Text == "" {
				return
			}
			at := e.view.Position().Add(l.Position()).Add(t.Position())
			w := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width
			pieces = append(pieces, drawnPiece{t.Text, at.X, at.Y, at.X + w, at.Y + t.Size().Height})
		})
	}
	slices.SortFunc(pieces, func(a, b drawnPiece) int {
		if d := a.top - b.top; d < -1 || d > 1 {
			return int(d)
		}
		return int(a.left - b.left)
	})
	var lines [][]drawnPiece
	for _, p := range pieces {
		if n := len(lines); n > 0 && p.top-lines[n-1][0].top < 1 && p.top-lines[n-1][0].top > -1 {
			lines[n-1] = append(lines[n-1], p)
			continue
		}
		lines = append(lines, []drawnPiece{p})
	}
	return lines
}

// seenText is a drawn line as it is read off the screen, piece by piece
// from the left.
func seenText(line []drawnPiece) string {
	var b strings.Builder
	for _, p := range line {
		b.WriteString(p.text)
	}
	return b.String()
}

// jsonField is a JSON field, focused, in a window of the given language.
func jsonField(t *testing.T, code string, size fyne.Size) (fyne.Window, *CodeEntry) {
	t.Helper()
	w := window(t, readsRight(code), size)
	e := NewCodeEntry()
	w.SetContent(container.NewVBox(e))
	w.Resize(size)
	w.Canvas().Focus(e)
	return w, e
}

// runOf is the piece of a drawn line that is text, drawn as one run.
func runOf(t *testing.T, line []drawnPiece, text string) drawnPiece {
	t.Helper()
	for _, p := range line {
		if p.text == text {
			return p
		}
	}
	t.Fatalf("%q is not drawn as one run: %v", text, line)
	return drawnPiece{}
}

func clickAt(e *CodeEntry, p fyne.Position) {
	ev := &desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}, Button: desktop.MouseButtonPrimary}
	e.MouseDown(ev)
	e.MouseUp(ev)
}

// TestJSONFieldDrawsPersianValueInOrder: a Persian value typed into the
// JSON field is drawn as one right-to-left run inside its quotes, its
// Persian digits at its left end, while the braces, quotes and key keep
// their places from the left, in the Persian window and the English one.
func TestJSONFieldDrawsPersianValueInOrder(t *testing.T) {
	for _, code := range []string{"fa", "en"} {
		_, e := jsonField(t, code, fyne.NewSize(420, 160))
		test.Type(e, `{"name": "گزارش سالانه ۱۴۰۵"}`)
		lines := drawnLines(e)
		if len(lines) != 1 {
			t.Fatalf("%s: %d lines drawn, want 1", code, len(lines))
		}
		if got, want := seenText(lines[0]), `{"name": "۱۴۰۵ گزارش سالانه"}`; got != want {
			t.Errorf("%s: the line is seen as %q, want %q", code, got, want)
		}
		words := runOf(t, lines[0], "گزارش سالانه")
		first, last := lines[0][0], lines[0][len(lines[0])-1]
		if first.left > theme.InnerPadding()+1 || !strings.HasPrefix(first.text, `{"name": "`) {
			t.Errorf("%s: the line starts with %q at %v, not at the field's left", code, first.text, first.left)
		}
		if last.text != `"}` || last.left < words.right-0.5 {
			t.Errorf("%s: the closing quote and brace %q at %v are not right of the Persian words ending at %v", code, last.text, last.left, words.right)
		}
		// The cursor after the last character typed stands after the brace.
		if x := e.view.caret.Position().X + e.view.Position().X; x < last.right-3 || x > last.right+3 {
			t.Errorf("%s: the cursor is at %v, the line ends at %v", code, x, last.right)
		}
	}
}

// TestJSONFieldClickOnSecondLine: a click between two letters of a
// Persian value on the second line puts the cursor between them, at the
// column where they are in the text, and draws it where the click was.
func TestJSONFieldClickOnSecondLine(t *testing.T) {
	_, e := jsonField(t, "fa", fyne.NewSize(420, 160))
	e.SetText("{\n  \"name\": \"سلام دنیا\"\n}")
	lines := drawnLines(e)
	if len(lines) != 3 {
		t.Fatalf("%d lines drawn", len(lines))
	}
	value := runOf(t, lines[1], "سلام دنیا")
	width := func(s string) float32 { return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width }
	x := value.right - width("سلا") // between ا and م, read from the right
	clickAt(e, fyne.NewPos(x+0.5, (value.top+value.low)/2))
	if want := len([]rune(`  "name": "`)) + 3; e.CursorRow != 1 || e.CursorColumn != want {
		t.Errorf("the click put the cursor at line %d, column %d; want line 1, column %d", e.CursorRow, e.CursorColumn, want)
	}
	caret := e.view.Position().Add(e.view.caret.Position())
	if caret.X < x-2 || caret.X > x+2 || caret.Y < value.top-2 || caret.Y > value.top+2 {
		t.Errorf("the cursor is drawn at %v, not where the click was (%v, %v)", caret, x, value.top)
	}
	clickAt(e, fyne.NewPos(value.right-1, (value.top+value.low)/2)) // the value's right end: before its first letter
	if want := len([]rune(`  "name": "`)); e.CursorRow != 1 || e.CursorColumn != want {
		t.Errorf("a click at the value's right end put the cursor at %d:%d, want 1:%d", e.CursorRow, e.CursorColumn, want)
	}
}

// selectionRows are the lines (by their top) on which the field draws
// selection boxes, and how many on each.
func selectionRows(e *CodeEntry) map[float32]int {
	col := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNameSelection, fyne.CurrentApp().Settings().ThemeVariant())
	rows := map[float32]int{}
	for _, o := range e.view.objects {
		if r, ok := o.(*canvas.Rectangle); ok && r.Visible() && r.FillColor == col && r != e.view.caret {
			rows[r.Position().Y]++
		}
	}
	return rows
}

// TestJSONFieldSelectsAcrossLines: Shift+Down selects from the cursor to
// the place drawn below it on the next line (after "{" on the first line,
// two spaces on the second), drawn over both lines; a drag from the
// second line's Persian value up to the first line selects what is between.
func TestJSONFieldSelectsAcrossLines(t *testing.T) {
	w, e := jsonField(t, "fa", fyne.NewSize(420, 160))
	e.SetText("{\n  \"نام\": 1\n}")
	e.CursorRow, e.CursorColumn = 0, 1
	e.Refresh()
	e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if got := e.SelectedText(); got != "\n  " {
		t.Errorf("Shift+Down selected %q", got)
	}
	rows := selectionRows(e)
	if len(rows) != 2 {
		t.Errorf("the selection is drawn on %d lines (%v), want 2", len(rows), rows)
	}

	// A drag from the right end of «نام» (before its first letter) to the
	// left end of the first line.
	lines := drawnLines(e)
	name := runOf(t, lines[1], "نام")
	from := fyne.NewPos(name.right-1, (name.top+name.low)/2).Subtract(e.view.Position())
	to := fyne.NewPos(lines[0][0].left+0.5, (lines[0][0].top+lines[0][0].low)/2).Subtract(e.view.Position())
	clickAt(e, from.Add(e.view.Position()))
	// Dragged where the window sends it: to what is under the pointer.
	at := w.Content().Position().Add(e.Position()).Add(e.view.Position())
	test.Drag(w.Canvas(), at.Add(to), to.X-from.X, to.Y-from.Y)
	if got := e.SelectedText(); got != "{\n  \"" {
		t.Errorf("the drag selected %q, want the text before «نام»", got)
	}
	if rows := selectionRows(e); len(rows) != 2 {
		t.Errorf("the dragged selection is drawn on %d lines", len(rows))
	}
}

// TestJSONFieldEnterSplitsLine: Enter in the middle of a line makes two
// lines, drawn one under the other, with the cursor at the start of the
// second; undo joins them again; Tab leaves the field.
func TestJSONFieldEnterSplitsLine(t *testing.T) {
	w, e := jsonField(t, "fa", fyne.NewSize(420, 160))
	test.Type(e, `{"نام ۱": 1}`)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if e.Text != "{\"نام ۱\": 1\n}" {
		t.Fatalf("the text is %q", e.Text)
	}
	lines := drawnLines(e)
	if len(lines) != 2 || seenText(lines[0]) != `{"۱ نام": 1` || seenText(lines[1]) != "}" {
		t.Fatalf("the lines drawn are %v", lines)
	}
	_, line, _ := e.view.metrics()
	if d := lines[1][0].top - lines[0][0].top; d < line-1 || d > line+1 {
		t.Errorf("the second line is %v below the first, want %v", d, line)
	}
	caret := e.view.Position().Add(e.view.caret.Position())
	if caret.Y < lines[1][0].top-2 || caret.X > lines[1][0].left+2 {
		t.Errorf("the cursor is drawn at %v, not before the second line at %v", caret, lines[1][0])
	}
	e.TypedShortcut(&fyne.ShortcutUndo{})
	if lines := drawnLines(e); e.Text != `{"نام ۱": 1}` || len(lines) != 1 || seenText(lines[0]) != `{"۱ نام": 1}` {
		t.Errorf("after undo the text is %q, drawn as %v", e.Text, lines)
	}
	if e.AcceptsTab() {
		t.Error("Tab is typed into the field instead of moving on")
	}
	_ = w
}

// TestJSONFieldScrollsToTheCursor: in a field longer and wider than its
// box, the text scrolls so that the cursor stays in view at the end of the
// last line, and the rest is clipped.
func TestJSONFieldScrollsToTheCursor(t *testing.T) {
	_, e := jsonField(t, "en", fyne.NewSize(300, 160))
	var lines []string
	for range 20 {
		lines = append(lines, `"گزارش": "`+strings.Repeat("سالانه ", 8)+`",`)
	}
	e.SetText(strings.Join(lines, "\n"))
	for range 20 {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
	if e.CursorRow != 19 {
		t.Fatalf("the cursor is on line %d", e.CursorRow)
	}
	v := e.view
	if v.offset.X <= 0 || v.offset.Y <= 0 {
		t.Errorf("the text is not scrolled (%v)", v.offset)
	}
	at := v.caret.Position()
	if !v.caret.Visible() || at.X < 0 || at.Y < 0 || at.X > v.Size().Width || at.Y+v.caret.Size().Height > v.Size().Height+0.5 {
		t.Errorf("the cursor at %v is out of the view %v", at, v.Size())
	}
	if _, clip := any(v).(fyne.Scrollable); !clip {
		t.Error("the view does not clip its text")
	}
	v.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, 10000)})
	if v.offset.Y != 0 {
		t.Errorf("the wheel up to the top left the text at %v", v.offset)
	}
}

// TestJSONFieldGolden draws the JSON field of a form with a Persian value
// in the Persian window: the box on the reading side, the JSON from the left.
func TestJSONFieldGolden(t *testing.T) {
	w := window(t, true, fyne.NewSize(460, 170))
	e := NewCodeEntry()
	e.SetText("{\n  \"name\": \"گزارش سالانه ۱۴۰۵\",\n  \"mimeType\": \"image/png\"\n}")
	w.SetContent(NewForm(widget.NewFormItem("فراداده", e)))
	w.Resize(fyne.NewSize(460, 170))
	w.Canvas().Focus(e)
	e.CursorRow, e.CursorColumn = 1, len([]rune(`  "name": "گزا`))
	e.Refresh()
	test.AssertImageMatches(t, "json_field_fa.png", w.Canvas().Capture())
}

// TestCodeSegmentsKeepStringsApart: in a line of JSON each string is laid
// out on its own, so two Persian strings in an array stay in the order
// they are written (the bidi algorithm alone would swap them), and an
// escaped quote does not end a string.
func TestCodeSegmentsKeepStringsApart(t *testing.T) {
	backwards := func(s string) string { // a right-to-left piece's letters as they are seen from the left
		r := []rune(s)
		slices.Reverse(r)
		return string(r)
	}
	seen := strings.NewReplacer("سلام", backwards("سلام"), "دنیا", backwards("دنیا"), "عدد", backwards("عدد"))
	for _, line := range []string{`["سلام", "دنیا"]`, `["a\"سلام", "دنیا"]`, `{"عدد": ٣٤, "n": 1}`} {
		var b strings.Builder
		for _, sg := range codeSegments(line) {
			if sg.rtl {
				b.WriteString(backwards(sg.text))
			} else {
				b.WriteString(sg.text)
			}
		}
		if got, want := b.String(), seen.Replace(line); got != want {
			t.Errorf("%s is seen as %s, want %s", line, got, want)
		}
	}
}

// TestJSONFieldPassesTheWheelToTheForm: the wheel over a JSON field whose
// text fits moves the form around it; over a longer text it moves the text
// first, and the form stays.
func TestJSONFieldPassesTheWheelToTheForm(t *testing.T) {
	w := window(t, false, fyne.NewSize(400, 300))
	e := NewCodeEntry()
	e.SetText(`{"name": "a.png"}`)
	tall := canvas.NewRectangle(color.Transparent)
	tall.SetMinSize(fyne.NewSize(10, 2000))
	form := container.NewVScroll(container.NewVBox(e, tall))
	e.view.outer = form
	w.SetContent(form)
	w.Resize(fyne.NewSize(400, 300))

	e.view.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -100)})
	if form.Offset.Y <= 0 {
		t.Errorf("the wheel over a field that fits left the form at %v", form.Offset)
	}

	e.SetText(strings.Repeat(`{"a": 1},`+"\n", 50))
	e.CursorRow, e.CursorColumn = 0, 0
	e.view.draw()
	at := form.Offset
	e.view.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -30)})
	if e.view.offset.Y <= 0 || form.Offset != at {
		t.Errorf("the wheel over a long text: text at %v, form moved from %v to %v", e.view.offset, at, form.Offset)
	}
}

// TestJSONFieldUpDownByTheDrawnPlace: Up from a line of Latin letters into
// a line whose Persian value is drawn right to left puts the cursor at the
// character drawn above it, not at the same logical column (which, inside
// the Persian run, is drawn at the other end of it); Down comes back to the
// same place, and Up again over a short line keeps aiming there.
func TestJSONFieldUpDownByTheDrawnPlace(t *testing.T) {
	_, e := jsonField(t, "en", fyne.NewSize(420, 200))
	e.SetText("{\"x\": \"سلام دنیای خوب\",\n\"y\": \"abcdefghijklmnopqrstu\",\n}")
	e.CursorRow, e.CursorColumn = 1, 9 // inside "abc…", under the Persian value's first words
	e.Refresh()
	e.place(e.Size())
	below := e.view.caret.Position()
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	above := e.view.caret.Position()
	if e.CursorRow != 0 {
		t.Fatalf("Up left the cursor on line %d", e.CursorRow)
	}
	charW := fyne.MeasureText("m", theme.TextSize(), e.TextStyle).Width
	if d := above.X - below.X; d > charW || d < -charW {
		t.Errorf("Up put the cursor at x=%.1f (column %d), %.1f from x=%.1f below it", above.X, e.CursorColumn, d, below.X)
	}
	if e.CursorColumn == 9 {
		t.Errorf("Up kept the logical column 9, which is drawn elsewhere in the Persian value")
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if e.CursorRow != 1 || e.CursorColumn != 9 {
		t.Errorf("Down came back to %d:%d, want 1:9", e.CursorRow, e.CursorColumn)
	}
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // "}": too short to reach
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if e.CursorRow != 1 || e.CursorColumn != 9 {
		t.Errorf("over a short line and back, the cursor is at %d:%d, want 1:9", e.CursorRow, e.CursorColumn)
	}
}
