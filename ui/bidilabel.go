package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

const ellipsis = "…"

// bidiLabel is a one-line label that shows text mixing left-to-right and
// right-to-left scripts in the right order, drawing one text object per run.
// Text that does not fit is cut at its logical end with an ellipsis.
type bidiLabel struct {
	widget.BaseWidget

	text      string
	style     fyne.TextStyle
	sizeName  fyne.ThemeSizeName
	colorName fyne.ThemeColorName
}

func newBidiLabel(text string) *bidiLabel {
	l := &bidiLabel{text: text, sizeName: theme.SizeNameText, colorName: theme.ColorNameForeground}
	l.ExtendBaseWidget(l)
	return l
}

// SetText changes the text; it must be called on the UI goroutine.
func (l *bidiLabel) SetText(s string) {
	if s == l.text {
		return
	}
	l.text = s
	l.Refresh()
}

// Text is the text shown (before any ellipsis).
func (l *bidiLabel) Text() string { return l.text }

// SetColor changes the theme colour of the text.
func (l *bidiLabel) SetColor(name fyne.ThemeColorName) {
	if name == l.colorName {
		return
	}
	l.colorName = name
	l.Refresh()
}

func (l *bidiLabel) CreateRenderer() fyne.WidgetRenderer {
	r := &bidiRenderer{label: l}
	r.layout(l.Size())
	return r
}

type bidiRenderer struct {
	label   *bidiLabel
	texts   []*canvas.Text
	objects []fyne.CanvasObject

	// The last layout, kept so that a refresh with nothing new costs nothing.
	laidText  string
	laidArea  fyne.Size // the label's size, less the padding
	laidSize  float32
	laidStyle fyne.TextStyle
	laidColor color.Color
}

func (r *bidiRenderer) textSize() float32 {
	return r.label.Theme().Size(r.label.sizeName)
}

func (r *bidiRenderer) MinSize() fyne.Size {
	pad := r.label.Theme().Size(theme.SizeNameInnerPadding)
	h := fyne.MeasureText("Mg", r.textSize(), r.label.style).Height
	w := fyne.MeasureText(ellipsis, r.textSize(), r.label.style).Width
	return fyne.NewSize(w+2*pad, h+2*pad)
}

func (r *bidiRenderer) Layout(size fyne.Size) {
	r.layout(size)
}

func (r *bidiRenderer) layout(size fyne.Size) {
	l := r.label
	th := l.Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	ts := r.textSize()
	fg := th.Color(l.colorName, fyne.CurrentApp().Settings().ThemeVariant())
	avail := size.Width - 2*pad
	// The height counts too: the text is centred in it.
	area := fyne.NewSize(avail, size.Height)
	if l.text == r.laidText && area == r.laidArea && ts == r.laidSize && l.style == r.laidStyle && fg == r.laidColor {
		return
	}
	r.laidText, r.laidArea, r.laidSize, r.laidStyle, r.laidColor = l.text, area, ts, l.style, fg

	segs := fitSegments(l.text, avail, ts, l.style)
	for len(r.texts) < len(segs) {
		t := canvas.NewText("", fg)
		r.texts = append(r.texts, t)
		r.objects = append(r.objects, t)
	}
	x := pad
	h := fyne.MeasureText("Mg", ts, l.style).Height
	y := (size.Height - h) / 2
	for i, t := range r.texts {
		if i >= len(segs) {
			t.Hide()
			continue
		}
		t.Text = segs[i].text
		t.TextSize = ts
		t.TextStyle = l.style
		t.Color = fg
		w := fyne.MeasureText(t.Text, ts, l.style).Width
		t.Move(fyne.NewPos(x, y))
		t.Resize(fyne.NewSize(w, h))
		t.Show()
		t.Refresh()
		x += w
	}
}

// fitSegments lays out text in visual order, cutting it with an ellipsis at
// its logical end when it is wider than width.
func fitSegments(text string, width, size float32, style fyne.TextStyle) []segment {
	if text == "" {
		return nil
	}
	if width <= 0 || fyne.MeasureText(text, size, style).Width <= width {
		return visualSegments(text)
	}
	runes := []rune(text)
	lo, hi := 0, len(runes) // the longest prefix that fits is in [lo, hi)
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if fyne.MeasureText(string(runes[:mid])+ellipsis, size, style).Width <= width {
			lo = mid
		} else {
			hi = mid
		}
	}
	return visualSegments(string(runes[:lo]) + ellipsis)
}

func (r *bidiRenderer) Refresh() {
	r.layout(r.label.Size())
	canvas.Refresh(r.label)
}

func (r *bidiRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *bidiRenderer) Destroy() {}
