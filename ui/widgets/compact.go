package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// A row of the list is two lines of text, not four: its widgets and
// layouts use these small paddings of their own. (A theme override per row
// would do the same, but the toolkit clears its caches of measured text and
// drawn icons for every widget entering an override, so adding rows would
// measure and draw everything anew.)
const (
	CompactPadding      = 1  // between a row's pieces
	CompactInnerPadding = 2  // around a text or a button's content
	compactIconSize     = 16 // a button's icon
	iconGap             = 4  // between a button's icon and its words
)

// denseBox lays its visible objects one after another, gap apart: side by
// side (each as wide as it needs and as high as the box) or, when vertical,
// stacked (each as high as it needs and as wide as the box).
type denseBox struct {
	vertical bool
	gap      float32
}

// compactBox is a dense HBox: side by side, CompactPadding apart.
var compactBox = denseBox{gap: CompactPadding}

// TightVBox stacks its objects with no space between them.
var TightVBox = denseBox{vertical: true}

// along and across split a size into the box's direction and the other.
func (l denseBox) along(s fyne.Size) (along, across float32) {
	if l.vertical {
		return s.Height, s.Width
	}
	return s.Width, s.Height
}

func (l denseBox) size(along, across float32) fyne.Size {
	if l.vertical {
		return fyne.NewSize(across, along)
	}
	return fyne.NewSize(along, across)
}

func (l denseBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var sum, most float32
	n := 0
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		a, c := l.along(o.MinSize())
		sum += a
		most = max(most, c)
		n++
	}
	if n > 1 {
		sum += float32(n-1) * l.gap
	}
	return l.size(sum, most)
}

func (l denseBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	_, across := l.along(size)
	at := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		a, _ := l.along(o.MinSize())
		p := l.size(at, 0)
		o.Move(fyne.NewPos(p.Width, p.Height))
		o.Resize(l.size(a, across))
		at += a + l.gap
	}
}

// CompactRow is a dense row in reading order (see row).
func CompactRow(objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(Mirrored(compactBox), objs...)
}

// compactSides lays out start at the left, end at the right, each as wide
// as it needs, and the centre between them, CompactPadding apart (a dense
// Border without top and bottom).
type compactSides struct {
	start, end fyne.CanvasObject
}

// CompactBorder is a dense border in reading order (see border): start on
// the reading side.
func CompactBorder(start, end, centre fyne.CanvasObject) *fyne.Container {
	var objs []fyne.CanvasObject
	for _, o := range []fyne.CanvasObject{centre, start, end} {
		if o != nil {
			objs = append(objs, o)
		}
	}
	return container.New(Mirrored(&compactSides{start: start, end: end}), objs...)
}

func (l *compactSides) side(o fyne.CanvasObject) (w float32) {
	if o == nil || !o.Visible() {
		return 0
	}
	return o.MinSize().Width + CompactPadding
}

func (l *compactSides) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var centre, h float32
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		h = max(h, m.Height)
		if o != l.start && o != l.end {
			centre = max(centre, m.Width)
		}
	}
	return fyne.NewSize(centre+l.side(l.start)+l.side(l.end), h)
}

func (l *compactSides) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	left, right := l.side(l.start), l.side(l.end)
	for _, o := range objs {
		switch o {
		case l.start:
			o.Move(fyne.NewPos(0, 0))
			o.Resize(fyne.NewSize(left-CompactPadding, size.Height))
		case l.end:
			o.Move(fyne.NewPos(size.Width-right+CompactPadding, 0))
			o.Resize(fyne.NewSize(right-CompactPadding, size.Height))
		default:
			o.Move(fyne.NewPos(left, 0))
			o.Resize(fyne.NewSize(size.Width-left-right, size.Height))
		}
	}
}

// CompactButton is a button of a row: its icon and words with the small
// paddings of the list, low importance (no background until the pointer is
// on it) unless high. It answers the mouse; Tab passes it by (the
// selection's panel offers the same actions to the keyboard).
type CompactButton struct {
	widget.BaseWidget

	Text       string
	Icon       fyne.Resource
	Importance widget.Importance
	OnTapped   func()

	hovered  bool
	wordless bool // only the icon shows: the row is short of room
}

// NewCompactButton is a small button of a dense row, with words and an icon.
func NewCompactButton(text string, icon fyne.Resource, tapped func()) *CompactButton {
	b := &CompactButton{Text: text, Icon: icon, OnTapped: tapped, Importance: widget.LowImportance}
	b.ExtendBaseWidget(b)
	return b
}

// SetWordless shows the icon alone (on) or the icon and the words, as a
// row short of room asks.
func (b *CompactButton) SetWordless(on bool) {
	if b.wordless != on && b.Icon != nil {
		b.wordless = on
		b.Refresh()
	}
}

// Wordless reports whether the button shows its icon alone.
func (b *CompactButton) Wordless() bool { return b.wordless }

// Widths are how wide the button is with its words and with its icon alone.
func (b *CompactButton) Widths() (withWords, iconAlone float32) {
	th := b.Theme()
	withWords = fyne.MeasureText(b.Text, th.Size(theme.SizeNameText), fyne.TextStyle{Bold: true}).Width
	if b.Text == "" {
		withWords = 0
	}
	if b.Icon == nil {
		return withWords + 2*CompactInnerPadding, withWords + 2*CompactInnerPadding
	}
	if b.Text != "" {
		withWords += CompactPadding
	}
	return withWords + compactIconSize + 2*CompactInnerPadding, compactIconSize + 2*CompactInnerPadding
}

func (b *CompactButton) Tapped(*fyne.PointEvent) {
	if b.OnTapped != nil {
		b.OnTapped()
	}
}

func (b *CompactButton) MouseIn(*desktop.MouseEvent) { b.setHovered(true) }

func (b *CompactButton) MouseMoved(*desktop.MouseEvent) {}

func (b *CompactButton) MouseOut() { b.setHovered(false) }

func (b *CompactButton) setHovered(on bool) {
	if b.hovered != on {
		b.hovered = on
		b.Refresh()
	}
}

func (b *CompactButton) CreateRenderer() fyne.WidgetRenderer {
	r := &compactButtonRenderer{b: b, bg: canvas.NewRectangle(color.Transparent), text: canvas.NewText("", color.Black)}
	r.icon = &canvas.Image{FillMode: canvas.ImageFillContain}
	r.objects = []fyne.CanvasObject{r.bg, r.icon, r.text}
	r.Refresh()
	return r
}

type compactButtonRenderer struct {
	b       *CompactButton
	bg      *canvas.Rectangle
	icon    *canvas.Image
	text    *canvas.Text
	objects []fyne.CanvasObject
	shown   fyne.Resource // the icon as last given, before any colouring
}

// content is the size of the icon and the words side by side.
func (r *compactButtonRenderer) content() (size, text fyne.Size) {
	th := r.b.Theme()
	text = fyne.MeasureText(r.b.Text, th.Size(theme.SizeNameText), fyne.TextStyle{Bold: true})
	if r.b.Text == "" || r.words() == "" {
		text.Width = 0
	}
	if r.b.Text == "" {
		text = fyne.Size{}
	}
	if r.b.Icon != nil {
		size.Width = compactIconSize
		if r.words() != "" {
			size.Width += CompactPadding
		}
	}
	size.Width += text.Width
	size.Height = max(text.Height, compactIconSize)
	return size, text
}

// words are the words shown: none when the button is wordless.
func (r *compactButtonRenderer) words() string {
	if r.b.wordless && r.b.Icon != nil {
		return ""
	}
	return r.b.Text
}

func (r *compactButtonRenderer) MinSize() fyne.Size {
	c, _ := r.content()
	return c.AddWidthHeight(2*CompactInnerPadding, 2*CompactInnerPadding)
}

func (r *compactButtonRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	c, t := r.content()
	gap := float32(0)
	if r.b.Icon != nil && r.words() != "" {
		// The words stand a little further from the icon than the minimum
		// size counts, as the list's buttons have always been drawn.
		gap = iconGap - CompactPadding
	}
	pos := fyne.NewPos((size.Width-c.Width-gap)/2, (size.Height-c.Height)/2)
	if r.b.Icon != nil {
		r.icon.Move(pos)
		r.icon.Resize(fyne.NewSize(compactIconSize, c.Height))
		pos.X += compactIconSize + CompactPadding + gap
	}
	r.text.Move(pos.AddXY(0, (c.Height-t.Height)/2))
	r.text.Resize(t)
}

func (r *compactButtonRenderer) Refresh() {
	b := r.b
	th := b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fg, bg := theme.ColorNameForeground, fyne.ThemeColorName("")
	if b.Importance == widget.HighImportance {
		fg, bg = theme.ColorNameForegroundOnPrimary, theme.ColorNamePrimary
	} else if b.hovered {
		bg = theme.ColorNameButton
	}
	fill := color.Color(color.Transparent)
	if bg != "" {
		fill = th.Color(bg, v)
	}
	if b.hovered {
		fill = blend(fill, th.Color(theme.ColorNameHover, v))
	}
	r.bg.FillColor = fill
	r.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)

	r.text.Text = r.words()
	r.text.TextSize = th.Size(theme.SizeNameText)
	r.text.TextStyle = fyne.TextStyle{Bold: true}
	r.text.Color = th.Color(fg, v)

	if b.Icon != r.shown {
		r.shown = b.Icon
		icon := b.Icon
		if t, ok := icon.(fyne.ThemedResource); ok && fg != theme.ColorNameForeground && t.ThemeColorName() != fg {
			icon = theme.NewColoredResource(icon, fg)
		}
		r.icon.Resource = icon
	}
	if b.Icon == nil {
		r.icon.Hide()
	} else {
		r.icon.Show()
	}
	r.Layout(b.Size())
	canvas.Refresh(b)
}

func (r *compactButtonRenderer) Objects() []fyne.CanvasObject { return r.objects }

func (r *compactButtonRenderer) Destroy() {}

// blend lays over on under, as paint with over's opacity would.
func blend(under, over color.Color) color.Color {
	ur, ug, ub, ua := under.RGBA()
	or, og, ob, oa := over.RGBA()
	a := float32(oa) / 0xffff
	mix := func(u, o uint32) uint8 { return uint8((float32(o) + float32(u)*(1-a)) / 0x101) }
	outA := float32(oa) + float32(ua)*(1-a)
	return color.RGBA{R: mix(ur, or), G: mix(ug, og), B: mix(ub, ob), A: uint8(outA / 0x101)}
}

// ScrollRoom keeps a row's buttons clear of the list's scroll bar.
func ScrollRoom() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(theme.Size(theme.SizeNameScrollBar)+2, 1))
	return r
}

// SlimBar is a thin progress bar, without the percentage of Fyne's: the
// row's words say how far the file is.
type SlimBar struct {
	widget.BaseWidget
	Value float64 // 0 to 1
}

// NewSlimBar is an empty slim bar.
func NewSlimBar() *SlimBar {
	b := &SlimBar{}
	b.ExtendBaseWidget(b)
	return b
}

// SetValue moves the bar; it must be called on the UI goroutine.
func (b *SlimBar) SetValue(v float64) {
	b.Value = v
	b.Refresh()
}

func (b *SlimBar) CreateRenderer() fyne.WidgetRenderer {
	r := &slimBarRenderer{bar: b, track: canvas.NewRectangle(color.Transparent), fill: canvas.NewRectangle(color.Transparent)}
	r.track.CornerRadius, r.fill.CornerRadius = slimBarHeight/2, slimBarHeight/2
	r.Refresh()
	return r
}

const (
	slimBarWidth  = 120
	slimBarHeight = 6
)

type slimBarRenderer struct {
	bar         *SlimBar
	track, fill *canvas.Rectangle
}

func (r *slimBarRenderer) MinSize() fyne.Size { return fyne.NewSize(slimBarWidth, slimBarHeight) }

func (r *slimBarRenderer) Layout(size fyne.Size) {
	y := (size.Height - slimBarHeight) / 2
	r.track.Move(fyne.NewPos(0, y))
	r.track.Resize(fyne.NewSize(size.Width, slimBarHeight))
	w := size.Width * float32(min(max(r.bar.Value, 0), 1))
	x := float32(0)
	if RightToLeft() { // filling from the reading side
		x = size.Width - w
	}
	r.fill.Move(fyne.NewPos(x, y))
	r.fill.Resize(fyne.NewSize(w, slimBarHeight))
}

func (r *slimBarRenderer) Refresh() {
	th := r.bar.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.track.FillColor = th.Color(theme.ColorNameInputBorder, v)
	r.fill.FillColor = th.Color(theme.ColorNamePrimary, v)
	r.Layout(r.bar.Size())
	r.track.Refresh()
	r.fill.Refresh()
}

func (r *slimBarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.track, r.fill}
}

func (r *slimBarRenderer) Destroy() {}
