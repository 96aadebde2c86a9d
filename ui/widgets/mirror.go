package widgets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Right-to-left building blocks. The toolkit lays everything out from the
// left; in Arabic, Persian and Hebrew the window reads from the right. These
// pieces put things in reading order, so a screen built from them mirrors
// as a whole when the language does:
//
//	row(a, b, c)                   a b c from the reading side (HBox)
//	border(top, bottom, start, end, centre...)
//	                               start on the reading side (Border)
//	Mirrored(anyLayout)            any layout, its children's places Mirrored
//	NewProgressBar()               fills from the reading side, its percentage in the language's digits
//	DirectionalIcon(res)           an arrow or chevron that points the other way in right to left
//	NewLabel(text)             any text: visual order by UAX #9, aligned to the reading side

// mirrorLayout lays out as its inner layout does, then, in a right-to-left
// window, moves every child to the mirror place: what was at the left edge
// is at the right edge.
type mirrorLayout struct {
	inner fyne.Layout
	rtl   func() bool
}

// Mirrored wraps a layout so that it follows the window's reading direction.
func Mirrored(l fyne.Layout) fyne.Layout {
	if m, ok := l.(*mirrorLayout); ok {
		return m
	}
	return &mirrorLayout{inner: l, rtl: RightToLeft}
}

func (m *mirrorLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	m.inner.Layout(objects, size)
	if !m.rtl() {
		return
	}
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		p := o.Position()
		o.Move(fyne.NewPos(size.Width-p.X-o.Size().Width, p.Y))
	}
}

func (m *mirrorLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return m.inner.MinSize(objects)
}

// row is a horizontal box in reading order: the first object is at the
// left in English and at the right in Arabic, Persian and Hebrew.
func Row(objects ...fyne.CanvasObject) *fyne.Container {
	return container.New(Mirrored(layout.NewHBoxLayout()), objects...)
}

// border is a border container whose start side is the reading side: start
// is at the left in English and at the right in right-to-left languages.
func Border(top, bottom, start, end fyne.CanvasObject, centre ...fyne.CanvasObject) *fyne.Container {
	c := container.NewBorder(top, bottom, start, end, centre...)
	c.Layout = Mirrored(c.Layout)
	return c
}

// ProgressBar is the toolkit's progress bar, filling from the reading side,
// with its percentage written in the window's language.
type ProgressBar struct {
	widget.ProgressBar
}

// NewProgressBar is a bar from 0 to 1 whose percentage percent writes, in
// the language's digits.
func NewProgressBar(percent func(ratio float64) string) *ProgressBar {
	p := &ProgressBar{}
	p.Max = 1
	p.TextFormatter = func() string { return VisualText(percent(p.ratio()), RightToLeft()) }
	p.ExtendBaseWidget(p)
	return p
}

// VisualText puts a short text without letters (a percentage, a count) in
// the order it is seen, for the toolkit's own labels, which draw text as it
// is: Arabic's ٢٥٪ is seen as ٪٢٥ in a right-to-left window.
func VisualText(s string, rtlPara bool) string {
	var b strings.Builder
	for _, sg := range paragraphSegments(s, rtlPara) {
		b.WriteString(sg.text)
	}
	return b.String()
}

func (p *ProgressBar) ratio() float64 {
	if p.Max <= p.Min {
		return 0
	}
	return min(max((p.Value-p.Min)/(p.Max-p.Min), 0), 1)
}

func (p *ProgressBar) CreateRenderer() fyne.WidgetRenderer {
	inner := p.ProgressBar.CreateRenderer()
	r := &fromReadingSide{objects: inner.Objects}
	return &placing{WidgetRenderer: inner, size: p.Size, place: r.place}
}

// placing is a toolkit's renderer that puts some of its parts in place
// again after each of the toolkit's layouts and refreshes.
type placing struct {
	fyne.WidgetRenderer
	size  func() fyne.Size
	place func(fyne.Size)
	extra []fyne.CanvasObject // drawn over the toolkit's own objects
}

func (r *placing) Layout(size fyne.Size) {
	r.WidgetRenderer.Layout(size)
	r.place(size)
}

func (r *placing) Refresh() {
	r.WidgetRenderer.Refresh()
	r.place(r.size())
}

func (r *placing) Objects() []fyne.CanvasObject {
	if len(r.extra) == 0 {
		return r.WidgetRenderer.Objects()
	}
	return append(r.WidgetRenderer.Objects(), r.extra...)
}

// fromReadingSide places the toolkit's bar, which it always lays out from
// x = 0, against the right edge in a right-to-left window. Every part of the
// toolkit's progress bar starts at x = 0, so the place is the same however
// often it is laid out.
type fromReadingSide struct {
	objects func() []fyne.CanvasObject // the toolkit's parts of the bar
}

func (r *fromReadingSide) place(size fyne.Size) {
	right := RightToLeft()
	for _, o := range r.objects() {
		x := float32(0)
		if right {
			x = size.Width - o.Size().Width
		}
		o.Move(fyne.NewPos(x, o.Position().Y))
	}
}

// DirectionalIcon is an icon that shows a direction (back, forward, a
// chevron that opens a panel): in a right-to-left window it is drawn
// Mirrored, as the reader expects the arrow to point the other way. Icons
// without a direction (pause, close, a file) are used as they are.
func DirectionalIcon(res fyne.Resource) fyne.Resource {
	if !RightToLeft() || res == nil {
		return res
	}
	return flipIcon(res)
}

// flipIcon mirrors an icon left to right: an SVG icon (the theme's) by a
// transform around its drawing, keeping the theme's colours; any other
// image pixel by pixel. An icon that cannot be read is kept as it is.
func flipIcon(res fyne.Resource) fyne.Resource {
	name := "rtl-" + res.Name()
	content := res.Content()
	if svg, ok := flipSVG(content); ok {
		flipped := fyne.NewStaticResource(name, svg)
		if _, themed := res.(*theme.ThemedResource); themed {
			return theme.NewThemedResource(flipped)
		}
		return flipped
	}
	img, _, err := image.Decode(bytes.NewReader(content))
	if err != nil {
		return res
	}
	b := img.Bounds()
	out := image.NewNRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.Set(b.Max.X-1-(x-b.Min.X), y, img.At(x, y))
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, out); err != nil {
		return res
	}
	return fyne.NewStaticResource(name+".png", buf.Bytes())
}

var viewBox = regexp.MustCompile(`viewBox\s*=\s*"\s*([-0-9.]+)[ ,]+[-0-9.]+[ ,]+([0-9.]+)[ ,]+[0-9.]+\s*"`)

// flipSVG wraps an SVG's drawing in a mirror transform about the middle of
// its view box.
func flipSVG(content []byte) ([]byte, bool) {
	s := string(content)
	start := strings.Index(s, "<svg")
	if start < 0 {
		return nil, false
	}
	open := strings.Index(s[start:], ">")
	end := strings.LastIndex(s, "</svg>")
	if open < 0 || end < 0 {
		return nil, false
	}
	open += start + 1
	m := viewBox.FindStringSubmatch(s[start:open])
	if m == nil {
		return nil, false
	}
	x, err1 := strconv.ParseFloat(m[1], 64)
	w, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil {
		return nil, false
	}
	shift := strconv.FormatFloat(2*x+w, 'f', -1, 64)
	return []byte(s[:open] + `<g transform="matrix(-1 0 0 1 ` + shift + ` 0)">` + s[open:end] + "</g>" + s[end:]), true
}

// form is the toolkit's form in reading order: in a right-to-left window
// each label is on the right of its field, and the buttons under the form
// are on the left, the one that goes on at the end of the line.
type Form struct {
	widget.Form
	content *fyne.Container // the form's items and buttons, once drawn
}

// NewForm is widget.NewForm, Mirrored as the window reads.
func NewForm(items ...*widget.FormItem) *Form {
	f := &Form{}
	f.Items = items
	f.ExtendBaseWidget(f)
	return f
}

func (f *Form) CreateRenderer() fyne.WidgetRenderer {
	r := f.Form.CreateRenderer()
	if objs := r.Objects(); len(objs) == 1 {
		f.content, _ = objs[0].(*fyne.Container)
	}
	f.mirror()
	return r
}

// Refresh lets the toolkit lay its form out anew, then mirrors it again.
func (f *Form) Refresh() {
	f.Form.Refresh()
	f.mirror()
}

// mirror wraps the layouts of the form's parts (the grid of labels and
// fields, the buttons' box and their row) so that they follow the window's
// reading direction.
func (f *Form) mirror() {
	if f.content == nil {
		return
	}
	var wrap func(c *fyne.Container, depth int)
	wrap = func(c *fyne.Container, depth int) {
		if c.Layout != nil {
			c.Layout = Mirrored(c.Layout)
			c.Layout.Layout(c.Objects, c.Size())
		}
		if depth == 0 {
			return
		}
		for _, o := range c.Objects {
			if inner, ok := o.(*fyne.Container); ok {
				wrap(inner, depth-1)
			}
		}
	}
	for _, part := range f.content.Objects {
		if c, ok := part.(*fyne.Container); ok {
			wrap(c, 1) // the grid and its labels' boxes; the buttons' box and their row
		}
	}
}

// NewSelect is the toolkit's select, its choice written from the reading
// side: at the right in a right-to-left window, as its list of options,
// with its arrow at the reading end, the left.
func NewSelect(options []string, changed func(string)) *Select {
	s := &Select{}
	s.Options, s.OnChanged = options, changed
	s.ExtendBaseWidget(s)
	if RightToLeft() {
		s.Alignment = fyne.TextAlignTrailing
	}
	return s
}

// Select is the toolkit's select, which always puts its arrow at the
// right; in a right-to-left window its arrow and its choice swap sides.
type Select struct {
	widget.Select
}

func (s *Select) CreateRenderer() fyne.WidgetRenderer {
	r := s.Select.CreateRenderer()
	if !RightToLeft() {
		return r
	}
	return &placing{WidgetRenderer: r, size: s.Size, place: func(size fyne.Size) {
		r.Layout(size) // from the toolkit's places each time, so that twice is once
		for _, o := range r.Objects() {
			switch o.(type) {
			case *widget.Icon, *widget.RichText: // the arrow and the choice
				o.Move(fyne.NewPos(size.Width-o.Position().X-o.Size().Width, o.Position().Y))
			}
		}
	}}
}

// entry is the toolkit's one-line entry, reading right in a right-to-left
// window. The toolkit draws typed text in logical order from the left and
// loses the spaces between runs of different directions ("بایگانی خبرنامه
// ۱۴۰۵" comes out as "۱۴۰۵بایگانی خبرنامه"), so there the entry draws its
// own text, placeholder, cursor and selection in no colour, and draws them
// again over it as they are seen: the text (or placeholder) in visual order
// from the right, the cursor at the place of the logical one in that text
// (at the left end of a word just typed in Arabic, Persian or Hebrew), the
// selection over the characters it holds.
type Entry struct {
	widget.Entry
	seen    *Label
	caret   *canvas.Rectangle
	chosen  *fyne.Container // the selection's boxes
	focused bool
	drags   *dragSurface // over the text: the window's drags come to the entry
	// onEscape, when set, is what Escape does in the field (a dialog's
	// field closes its dialog); the toolkit's entry would swallow it.
	OnEscape func()
}

// NewEntry is a one-line field that reads in the window's direction.
func NewEntry() *Entry {
	e := &Entry{seen: NewLabel(""), caret: canvas.NewRectangle(color.Transparent), chosen: container.NewWithoutLayout()}
	e.caret.Hide()
	e.drags = newDragSurface(e)
	e.ExtendBaseWidget(e)
	if RightToLeft() {
		e.seen.ColorName = colorNameTyped
		container.NewThemeOverride(e, textless{})
		// The arrow keys move the toolkit's cursor without a refresh of the entry.
		e.OnCursorChanged = func() { e.place(e.Size()) }
	}
	return e
}

func (e *Entry) CreateRenderer() fyne.WidgetRenderer {
	r := e.Entry.CreateRenderer()
	if !RightToLeft() {
		return r
	}
	return &placing{WidgetRenderer: r, size: e.Size, place: e.place, extra: []fyne.CanvasObject{e.chosen, e.seen, e.caret, e.drags}}
}

// FocusGained shows the entry's own cursor. In a right-to-left window the
// toolkit is not told: it would blink its cursor where the text is not.
func (e *Entry) FocusGained() {
	e.focused = true
	if !RightToLeft() {
		e.Entry.FocusGained()
		return
	}
	e.Refresh()
}

// FocusLost hides it.
func (e *Entry) FocusLost() {
	e.focused = false
	e.Entry.FocusLost()
}

// place puts the text, as it is seen, over the entry's own, with the
// cursor and the selection where they are in it.
func (e *Entry) place(size fyne.Size) {
	text := e.shown()
	th := fyne.CurrentApp().Settings().Theme()
	size.Width = e.textWidth(size.Width)
	e.seen.Move(fyne.NewPos(0, 0))
	e.seen.Resize(size)
	e.drags.Resize(size)
	if text == "" {
		e.seen.ColorName = colorNameHint
		e.seen.SetText(e.PlaceHolder)
	} else {
		e.seen.ColorName = colorNameTyped
		e.seen.SetText(text)
	}
	e.seen.Refresh()

	ts := th.Size(theme.SizeNameText)
	line := fyne.MeasureText("Mg", ts, e.TextStyle).Height
	y := (size.Height - line) / 2
	boxes, caretX := caretPlaces(text, e.CursorTextOffset(), rightToLeft, size.Width, th.Size(theme.SizeNameInnerPadding), ts, e.TextStyle)

	e.chosen.Objects = e.chosen.Objects[:0]
	if from, to, ok := selectedRange(&e.Entry, text); ok {
		e.chosen.Objects = selectionBoxes(e.chosen.Objects, boxes, from, to, fyne.NewPos(0, y), line)
	}
	e.chosen.Refresh()
	showCaret(e.caret, e.focused && !e.Disabled(), caretX, y, line)
}

// selectionBoxes adds to dst a box in the selection's colour over each of
// the characters [from, to) of a line whose characters' edges are boxes,
// drawn line tall at the given place.
func selectionBoxes(dst []fyne.CanvasObject, boxes [][2]float32, from, to int, at fyne.Position, line float32) []fyne.CanvasObject {
	col := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNameSelection, fyne.CurrentApp().Settings().ThemeVariant())
	for i := max(from, 0); i < to && i < len(boxes); i++ {
		r := canvas.NewRectangle(col)
		r.Move(fyne.NewPos(at.X+boxes[i][0], at.Y))
		r.Resize(fyne.NewSize(boxes[i][1]-boxes[i][0], line))
		dst = append(dst, r)
	}
	return dst
}

// showCaret draws a field's own cursor, line tall, centred on x with its
// top at y; shown false hides it (the field is not focused).
func showCaret(caret *canvas.Rectangle, shown bool, x, y, line float32) {
	if !shown {
		caret.Hide()
		return
	}
	th := fyne.CurrentApp().Settings().Theme()
	w := th.Size(theme.SizeNameInputBorder)
	caret.FillColor = th.Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
	caret.Move(fyne.NewPos(x-w/2, y))
	caret.Resize(fyne.NewSize(w, line))
	caret.Show()
	caret.Refresh()
}

// shown is the entry's text as it is drawn: dots for a password.
func (e *Entry) shown() string {
	if e.Password {
		return strings.Repeat("•", utf8.RuneCountInString(e.Text))
	}
	return e.Text
}

// textWidth is the width the text is drawn in, of an entry this wide.
func (e *Entry) textWidth(width float32) float32 {
	return fieldTextWidth(&e.Entry, width)
}

// fieldTextWidth is the width a toolkit's entry this wide leaves for its
// text.
func fieldTextWidth(e *widget.Entry, width float32) float32 {
	if e.Validator != nil { // the toolkit's mark of a wrong value is at the right
		th := fyne.CurrentApp().Settings().Theme()
		width -= th.Size(theme.SizeNameInlineIcon) + th.Size(theme.SizeNameInnerPadding)
	}
	return width
}

// MouseDown puts the cursor where the click is in the text as it is seen.
// The toolkit places it as if the text were drawn in logical order from
// the left; in a right-to-left window it is told the place, in its own
// layout, of the character under the pointer.
func (e *Entry) MouseDown(m *desktop.MouseEvent) {
	if !RightToLeft() {
		e.Entry.MouseDown(m)
		return
	}
	at := e.columnAt(m.Position.X)
	moved := *m
	moved.Position.X = e.toolkitX(at)
	e.Entry.MouseDown(&moved)
	if e.SelectedText() == "" && e.CursorColumn != at { // the toolkit's text was scrolled
		e.CursorRow, e.CursorColumn = 0, at
	}
	e.place(e.Size())
}

// Dragged selects from where the drag started to the pointer, both as seen.
func (e *Entry) Dragged(d *fyne.DragEvent) {
	if !RightToLeft() {
		e.Entry.Dragged(d)
		return
	}
	from := e.toolkitX(e.columnAt(d.Position.X - d.Dragged.DX))
	moved := *d
	moved.Position.X = e.toolkitX(e.columnAt(d.Position.X))
	moved.Dragged.DX = moved.Position.X - from
	e.Entry.Dragged(&moved)
	e.place(e.Size())
}

// columnAt is the logical place of the cursor nearest to x, in the text as
// the entry draws it.
func (e *Entry) columnAt(x float32) int {
	th := fyne.CurrentApp().Settings().Theme()
	return caretColumn(e.shown(), x, rightToLeft, e.textWidth(e.Size().Width), th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameText), e.TextStyle)
}

// toolkitX is a place the toolkit, which lays the text out in logical
// order from the left, turns into logical index at.
func (e *Entry) toolkitX(at int) float32 {
	return toolkitX([]rune(e.shown()), at, e.TextStyle)
}

// toolkitX is a place on a line of runes that the toolkit, which lays a
// line out in logical order from the left, turns into logical index at:
// past the middle of every character before it, each measured alone as the
// toolkit does.
func toolkitX(runes []rune, at int, style fyne.TextStyle) float32 {
	th := fyne.CurrentApp().Settings().Theme()
	pad, size := th.Size(theme.SizeNameInnerPadding), th.Size(theme.SizeNameText)
	var x float32
	for i := 0; i < at && i < len(runes); i++ {
		before := fyne.MeasureText(string(runes[:i]), size, style).Width
		half := fyne.MeasureText(string(runes[i]), size, style).Width / 2
		x = max(x, pad+before+half)
	}
	return x
}

// selectedRange is the logical range [from, to) of the selected characters
// of text, an entry's; ok false when nothing is selected. The toolkit tells
// the selected text and the cursor, which is at one end of it.
func selectedRange(e *widget.Entry, text string) (from, to int, ok bool) {
	chosen := []rune(e.SelectedText())
	if len(chosen) == 0 {
		return 0, 0, false
	}
	runes, at := []rune(text), e.CursorTextOffset()
	if at >= len(chosen) && at <= len(runes) && string(runes[at-len(chosen):at]) == string(chosen) {
		return at - len(chosen), at, true
	}
	if at+len(chosen) <= len(runes) {
		return at, at + len(chosen), true
	}
	return 0, 0, false
}

// caretPlaces lays a line of text out as dir says, drawn from its reading
// side in a field of the given width, as Label draws it: a
// right-to-left paragraph from the right edge, a line of code from the
// left. It gives the left and right edges
// of each character (by its logical index), and where the cursor before
// logical index at stands.
func caretPlaces(text string, at int, dir lineDir, width, pad, size float32, style fyne.TextStyle) (boxes [][2]float32, caret float32) {
	boxes, levels := caretLayout(text, dir, width, pad, size, style)
	return boxes, caretX(boxes, levels, at, startX(fyne.TextAlignLeading, dir == rightToLeft, pad, width, 0))
}

// lineDir is how a field lays a line of its text out.
type lineDir int

const (
	rightToLeft lineDir = iota // a right-to-left paragraph, from the right edge
	codeLine                   // a left-to-right line of code, its strings each laid out on their own (codeLevels)
)

// levels resolves the bidi levels of a line laid out so.
func (d lineDir) levels(runes []rune) []uint8 {
	if d == codeLine {
		return codeLevels(runes)
	}
	return bidiLevels(runes, true)
}

// caretColumn is the logical place, in text laid out as caretPlaces does,
// of the cursor nearest to x: where a click at x puts it.
func caretColumn(text string, x float32, dir lineDir, width, pad, size float32, style fyne.TextStyle) int {
	boxes, levels := caretLayout(text, dir, width, pad, size, style)
	empty := startX(fyne.TextAlignLeading, dir == rightToLeft, pad, width, 0)
	best, dist := 0, float32(-1)
	for at := 0; at <= len(boxes); at++ {
		d := caretX(boxes, levels, at, empty) - x
		if d < 0 {
			d = -d
		}
		if dist < 0 || d < dist {
			best, dist = at, d
		}
	}
	return best
}

// caretLayout gives the left and right edges of each character of text
// (by its logical index) drawn as a line laid out as dir says from its
// reading side of a field, and the characters' bidi levels.
func caretLayout(text string, dir lineDir, width, pad, size float32, style fyne.TextStyle) (boxes [][2]float32, levels []uint8) {
	runes := []rune(text)
	if len(runes) == 0 {
		return nil, nil
	}
	levels = dir.levels(runes)
	order := visualOrder(levels)
	boxes = make([][2]float32, len(runes))
	var x float32
	for i := 0; i < len(order); {
		j := i + 1
		// A run of one level is one stretch of the logical text; runs of
		// like direction but other levels (Persian digits beside the
		// left-to-right text of a line of code) are not.
		for j < len(order) && levels[order[j]] == levels[order[i]] {
			j++
		}
		lo, hi := order[i], order[i]
		for _, k := range order[i:j] {
			lo, hi = min(lo, k), max(hi, k)
		}
		run := fyne.MeasureText(string(runes[lo:hi+1]), size, style).Width
		for k := lo; k <= hi; k++ {
			before := fyne.MeasureText(string(runes[lo:k]), size, style).Width
			through := fyne.MeasureText(string(runes[lo:k+1]), size, style).Width
			if levels[k]%2 == 1 { // drawn from the run's right end
				boxes[k] = [2]float32{x + run - through, x + run - before}
			} else {
				boxes[k] = [2]float32{x + before, x + through}
			}
		}
		x += run
		i = j
	}
	shift := startX(fyne.TextAlignLeading, dir == rightToLeft, pad, width, x)
	for k := range boxes {
		boxes[k][0] += shift
		boxes[k][1] += shift
	}
	return boxes, levels
}

// caretX is where the cursor before logical index at stands among boxes;
// empty is its place on an empty line.
func caretX(boxes [][2]float32, levels []uint8, at int, empty float32) float32 {
	if len(boxes) == 0 {
		return empty
	}
	edge := func(k int, leading bool) float32 { // the edge a reader meets first (leading) or last
		if (levels[k]%2 == 1) == leading {
			return boxes[k][1]
		}
		return boxes[k][0]
	}
	if at >= len(boxes) {
		return edge(len(boxes)-1, false)
	}
	return edge(max(at, 0), true)
}

// dragSurface lies over a field's text and hands the pointer's drags to
// the field, which turns them into places in the text as it is drawn. The
// window gives a drag to the deepest object under the pointer that takes
// drags: without it, the toolkit's entry's text, laid out from the left.
type dragSurface struct {
	widget.BaseWidget
	field fyne.Draggable
}

func newDragSurface(field fyne.Draggable) *dragSurface {
	s := &dragSurface{field: field}
	s.ExtendBaseWidget(s)
	return s
}

// Dragged hands the drag to the field, placed in the field.
func (s *dragSurface) Dragged(d *fyne.DragEvent) {
	moved := *d
	moved.Position = d.Position.Add(s.Position())
	s.field.Dragged(&moved)
}

func (s *dragSurface) DragEnd()               { s.field.DragEnd() }
func (s *dragSurface) Cursor() desktop.Cursor { return desktop.TextCursor }
func (s *dragSurface) MinSize() fyne.Size     { return fyne.Size{} }
func (s *dragSurface) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// textless is the window's theme with the text, placeholder, cursor and
// selection of the entry it is given to drawn in no colour (and so its
// focused edge: the window's focus ring marks it); colorNameTyped and
// colorNameHint are the text's and the placeholder's colours for what is
// drawn over it.
type textless struct{}

const (
	colorNameTyped fyne.ThemeColorName = "hoist-typed"
	colorNameHint  fyne.ThemeColorName = "hoist-hint" // the placeholder's colour
)

func (textless) current() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (t textless) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch n {
	case theme.ColorNameForeground, theme.ColorNamePlaceHolder, theme.ColorNameSelection, theme.ColorNamePrimary:
		return color.Transparent // drawn again by the entry, where they are seen
	case colorNameTyped:
		n = theme.ColorNameForeground
	case colorNameHint:
		n = theme.ColorNamePlaceHolder
	}
	return t.current().Color(n, v)
}
func (t textless) Font(s fyne.TextStyle) fyne.Resource     { return t.current().Font(s) }
func (t textless) Icon(n fyne.ThemeIconName) fyne.Resource { return t.current().Icon(n) }
func (t textless) Size(n fyne.ThemeSizeName) float32       { return t.current().Size(n) }
