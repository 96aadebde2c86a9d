package widgets

import (
	"image/color"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Paragraph is text that wraps at word boundaries onto as many lines as
// it needs, each line drawn in visual order like Label's, in the
// window's direction. It is for sentences that name a file or quote a user:
// the message line, a dialog's text, a form's note, a notification.
type Paragraph struct {
	widget.BaseWidget

	text      string
	align     fyne.TextAlign
	Style     fyne.TextStyle
	ColorName fyne.ThemeColorName
	SizeName  fyne.ThemeSizeName // the text's size; "" is the theme's text size
	// minWidth, when set, is the narrowest the paragraph gets, and the width
	// its height is measured at before it is first laid out (a dialog's
	// sentence is measured before the dialog has a size).
	MinWidth float32
}

// NewParagraph is text that wraps, each line in visual order.
func NewParagraph(text string) *Paragraph {
	p := &Paragraph{text: text, ColorName: theme.ColorNameForeground}
	p.ExtendBaseWidget(p)
	return p
}

// SetText changes the text; it must be called on the UI goroutine.
func (p *Paragraph) SetText(s string) {
	if s == p.text {
		return
	}
	p.text = s
	p.Refresh()
}

// SetColor draws the text in the theme's colour name.
func (p *Paragraph) SetColor(name fyne.ThemeColorName) {
	if name == p.ColorName {
		return
	}
	p.ColorName = name
	p.Refresh()
}

// Text is the text shown.
func (p *Paragraph) Text() string { return p.text }

// SetAlignment places each line: leading (the default) at the reading side.
func (p *Paragraph) SetAlignment(a fyne.TextAlign) {
	p.align = a
	p.Refresh()
}

func (p *Paragraph) CreateRenderer() fyne.WidgetRenderer {
	return &paragraphRenderer{p: p}
}

type paragraphRenderer struct {
	p       *Paragraph
	texts   []*canvas.Text
	objects []fyne.CanvasObject
	lines   int     // lines at the last layout
	width   float32 // width at the last layout
}

func (r *paragraphRenderer) metrics() (size, pad, lineHeight float32) {
	th := r.p.Theme()
	size = th.Size(theme.SizeNameText)
	if r.p.SizeName != "" {
		size = th.Size(r.p.SizeName)
	}
	pad = th.Size(theme.SizeNameInnerPadding)
	lineHeight = fyne.MeasureText("Mg", size, r.p.Style).Height
	return
}

// MinSize is one word wide and as tall as the text is at the width it was
// last given, like the toolkit's wrapping labels.
func (r *paragraphRenderer) MinSize() fyne.Size {
	size, pad, lh := r.metrics()
	width := r.width
	if width <= 0 || width < r.p.MinWidth {
		width = r.p.MinWidth
	}
	lines := 1
	if width > 0 {
		lines = max(1, len(wrapLines(r.p.text, width-2*pad, size, r.p.Style)))
	}
	w := max(fyne.MeasureText(Ellipsis, size, r.p.Style).Width+2*pad, r.p.MinWidth)
	return fyne.NewSize(w, float32(lines)*lh+2*pad)
}

func (r *paragraphRenderer) Layout(s fyne.Size) {
	size, pad, lh := r.metrics()
	th := r.p.Theme()
	fg := th.Color(r.p.ColorName, fyne.CurrentApp().Settings().ThemeVariant())
	right := RightToLeft()
	r.width = s.Width
	parts, spans := wrapSpans(r.p.text, s.Width-2*pad, size, r.p.Style)
	r.lines = len(spans)
	used := 0
	for i, segs := range wrappedSegments(parts, spans, right) {
		var total float32
		widths := make([]float32, len(segs))
		for j, sg := range segs {
			widths[j] = fyne.MeasureText(sg.text, size, r.p.Style).Width
			total += widths[j]
		}
		x := startX(r.p.align, right, pad, s.Width, total)
		y := pad + float32(i)*lh
		for j, sg := range segs {
			t := r.text(used, fg)
			used++
			t.Text, t.TextSize, t.TextStyle, t.Color = sg.text, size, r.p.Style, fg
			t.Move(fyne.NewPos(x, y))
			t.Resize(fyne.NewSize(widths[j], lh))
			t.Show()
			t.Refresh()
			x += widths[j]
		}
	}
	for _, t := range r.texts[used:] {
		t.Hide()
	}
}

// text is the i-th text object, made when first needed.
func (r *paragraphRenderer) text(i int, fg color.Color) *canvas.Text {
	for len(r.texts) <= i {
		t := canvas.NewText("", fg)
		r.texts = append(r.texts, t)
		r.objects = append(r.objects, t)
	}
	return r.texts[i]
}

func (r *paragraphRenderer) Refresh() {
	r.Layout(r.p.Size())
	canvas.Refresh(r.p)
}

func (r *paragraphRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *paragraphRenderer) Destroy() {}

// wrapLines cuts text into lines no wider than width, in logical order:
// at line breaks, then between words; a word wider than a line is cut
// between letters.
func wrapLines(text string, width, size float32, style fyne.TextStyle) []string {
	parts, spans := wrapSpans(text, width, size, style)
	lines := make([]string, len(spans))
	for i, sp := range spans {
		lines[i] = string(parts[sp.part][sp.from:sp.to])
	}
	return lines
}

// lineSpan is a line of a text: the characters [from, to) of its part
// between two line breaks (a paragraph, as the bidirectional algorithm
// reads it).
type lineSpan struct{ part, from, to int }

// wrapSpans cuts text into its parts between line breaks, and those into
// lines no wider than width, between words; a word wider than a line is cut
// between letters. A line runs from its first word's start to its last
// word's end, so that it is a piece of its paragraph.
func wrapSpans(text string, width, size float32, style fyne.TextStyle) (parts [][]rune, spans []lineSpan) {
	if text == "" {
		return nil, nil
	}
	fits := func(r []rune) bool { return width <= 0 || fyne.MeasureText(string(r), size, style).Width <= width }
	for p, part := range strings.Split(text, "\n") {
		runes := []rune(part)
		parts = append(parts, runes)
		from, to := -1, -1 // the line being filled
		for i := 0; i < len(runes); {
			if unicode.IsSpace(runes[i]) {
				i++
				continue
			}
			end := i
			for end < len(runes) && !unicode.IsSpace(runes[end]) {
				end++
			}
			switch {
			case from >= 0 && fits(runes[from:end]):
				to = end
			default:
				if from >= 0 {
					spans = append(spans, lineSpan{p, from, to})
				}
				from, to = i, end
				for !fits(runes[from:to]) && to-from > 1 {
					cut := to - from - 1
					for cut > 1 && !fits(runes[from:from+cut]) {
						cut--
					}
					spans = append(spans, lineSpan{p, from, from + cut})
					from += cut
				}
			}
			i = end
		}
		if from < 0 {
			from, to = 0, 0
		}
		spans = append(spans, lineSpan{p, from, to})
	}
	return parts, spans
}

// Lines is the text cut into the lines it is drawn in at its present
// width, each in logical order.
func (p *Paragraph) Lines() []string {
	th := p.Theme()
	size := th.Size(theme.SizeNameText)
	if p.SizeName != "" {
		size = th.Size(p.SizeName)
	}
	return wrapLines(p.text, p.Size().Width-2*th.Size(theme.SizeNameInnerPadding), size, p.Style)
}
