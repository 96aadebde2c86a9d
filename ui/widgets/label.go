package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Ellipsis ends a text cut short.
const Ellipsis = "…"

// Label is a one-line label that shows text mixing left-to-right and
// right-to-left scripts in the right order, drawing one text object per run.
// Text that does not fit is cut at its logical end with an Ellipsis. It
// reads in the window's direction: in Arabic, Persian and Hebrew its
// paragraph is right to left and its text starts at the right edge.
// Use it for any text a user wrote or named: file names, subjects, the
// message line, a dialog's sentence about a file.
type Label struct {
	widget.BaseWidget

	text      string
	align     fyne.TextAlign // leading is the reading side: right in a right-to-left window
	Style     fyne.TextStyle
	SizeName  fyne.ThemeSizeName
	ColorName fyne.ThemeColorName
	// Inner is the room around the text; 0: the theme's inner padding.
	Inner float32
	// whole: the label is never cut, it is as wide as its text (a size, a
	// count beside buttons); otherwise it may shrink to an Ellipsis.
	whole bool
	// code: the paragraph is left to right in every window (a line of
	// JSON), with the runs of other scripts inside it in their order.
	code bool
}

// NewWholeLabel is a label as wide as its text, for short words and numbers
// in rows of controls.
func NewWholeLabel(text string) *Label {
	l := NewLabel(text)
	l.whole = true
	return l
}

// NewLabel is a one-line label of text, cut with an Ellipsis where it does
// not fit.
func NewLabel(text string) *Label {
	l := &Label{text: text, SizeName: theme.SizeNameText, ColorName: theme.ColorNameForeground}
	l.ExtendBaseWidget(l)
	return l
}

// SetText changes the text; it must be called on the UI goroutine.
func (l *Label) SetText(s string) {
	if s == l.text {
		return
	}
	l.text = s
	l.Refresh()
}

// SetAlignment places the text: leading (the default) at the reading
// side, trailing at the other, or centred.
func (l *Label) SetAlignment(a fyne.TextAlign) {
	if a == l.align {
		return
	}
	l.align = a
	l.Refresh()
}

// TextWidth is how wide the whole text is drawn, with the room around it.
func (l *Label) TextWidth() float32 { return l.WidthOf(l.text) }

// WidthOf is how wide the label would draw text whole, with the room around it.
func (l *Label) WidthOf(text string) float32 {
	return fyne.MeasureText(text, l.Theme().Size(l.SizeName), l.Style).Width + 2*l.padding()
}

// Text is the text shown (before any Ellipsis).
func (l *Label) Text() string { return l.text }

// SetColor changes the theme colour of the text.
func (l *Label) SetColor(name fyne.ThemeColorName) {
	if name == l.ColorName {
		return
	}
	l.ColorName = name
	l.Refresh()
}

func (l *Label) CreateRenderer() fyne.WidgetRenderer {
	r := &bidiRenderer{label: l}
	r.layout(l.Size())
	return r
}

type bidiRenderer struct {
	label   *Label
	texts   []*canvas.Text
	objects []fyne.CanvasObject

	// The last layout, kept so that a refresh with nothing new costs nothing.
	laidText  string
	laidArea  fyne.Size // the label's size, less the padding
	laidSize  float32
	laidStyle fyne.TextStyle
	laidColor color.Color
	laidRTL   bool
	laidAlign fyne.TextAlign
}

// padding is the room around the text on every side.
func (l *Label) padding() float32 {
	if l.Inner > 0 {
		return l.Inner
	}
	return l.Theme().Size(theme.SizeNameInnerPadding)
}

func (r *bidiRenderer) textSize() float32 {
	return r.label.Theme().Size(r.label.SizeName)
}

func (r *bidiRenderer) MinSize() fyne.Size {
	pad := r.label.padding()
	h := fyne.MeasureText("Mg", r.textSize(), r.label.Style).Height
	w := fyne.MeasureText(Ellipsis, r.textSize(), r.label.Style).Width
	if r.label.whole && r.label.text != "" {
		w = fyne.MeasureText(r.label.text, r.textSize(), r.label.Style).Width
	}
	return fyne.NewSize(w+2*pad, h+2*pad)
}

func (r *bidiRenderer) Layout(size fyne.Size) {
	r.layout(size)
}

func (r *bidiRenderer) layout(size fyne.Size) {
	l := r.label
	th := l.Theme()
	pad := l.padding()
	ts := r.textSize()
	fg := th.Color(l.ColorName, fyne.CurrentApp().Settings().ThemeVariant())
	avail := size.Width - 2*pad
	// The height counts too: the text is centred in it.
	area := fyne.NewSize(avail, size.Height)
	right := RightToLeft() && !l.code
	if l.text == r.laidText && area == r.laidArea && ts == r.laidSize && l.Style == r.laidStyle && fg == r.laidColor &&
		right == r.laidRTL && l.align == r.laidAlign {
		return
	}
	r.laidText, r.laidArea, r.laidSize, r.laidStyle, r.laidColor = l.text, area, ts, l.Style, fg
	r.laidRTL, r.laidAlign = right, l.align

	segs := fitSegments(l.text, avail, ts, l.Style, right)
	if l.code {
		segs = codeSegments(l.text) // never cut
	}
	for len(r.texts) < len(segs) {
		t := canvas.NewText("", fg)
		r.texts = append(r.texts, t)
		r.objects = append(r.objects, t)
	}
	widths := make([]float32, len(segs))
	var total float32
	for i, sg := range segs {
		widths[i] = fyne.MeasureText(sg.text, ts, l.Style).Width
		total += widths[i]
	}
	x := startX(l.align, right, pad, size.Width, total)
	h := fyne.MeasureText("Mg", ts, l.Style).Height
	y := (size.Height - h) / 2
	for i, t := range r.texts {
		if i >= len(segs) {
			t.Hide()
			continue
		}
		t.Text = segs[i].text
		t.TextSize = ts
		t.TextStyle = l.Style
		t.Color = fg
		w := widths[i]
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, h))
		t.Show()
		t.Refresh()
		x += w
	}
}

// startX is where a line of text of width total starts in a label of the
// given width: at the reading side for leading text.
func startX(align fyne.TextAlign, rtlPara bool, pad, width, total float32) float32 {
	switch {
	case align == fyne.TextAlignCenter:
		return max(pad, (width-total)/2)
	case (align == fyne.TextAlignLeading) == rtlPara:
		return max(pad, width-pad-total)
	}
	return pad
}

// fitSegments lays out text in visual order, cutting it with an Ellipsis at
// its logical end when it is wider than width. Where not even the Ellipsis
// fits, nothing is drawn: a label never draws beyond its place.
func fitSegments(text string, width, size float32, style fyne.TextStyle, rtlPara bool) []segment {
	if text == "" {
		return nil
	}
	if fyne.MeasureText(text, size, style).Width <= width {
		return paragraphSegments(text, rtlPara)
	}
	if fyne.MeasureText(Ellipsis, size, style).Width > width {
		return nil
	}
	runes := []rune(text)
	lo, hi := 0, len(runes) // the longest prefix that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fyne.MeasureText(string(runes[:mid])+Ellipsis, size, style).Width <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	return paragraphSegments(string(runes[:lo])+Ellipsis, rtlPara)
}

func (r *bidiRenderer) Refresh() {
	r.layout(r.label.Size())
	canvas.Refresh(r.label)
}

func (r *bidiRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *bidiRenderer) Destroy() {}
