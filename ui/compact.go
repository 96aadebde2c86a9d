package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// compactTheme is the app's theme with the small paddings of a dense list:
// a row of the list is two lines of text, not four.
type compactTheme struct{}

func (compactTheme) current() fyne.Theme { return fyne.CurrentApp().Settings().Theme() }

func (t compactTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	return t.current().Color(n, v)
}
func (t compactTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.current().Font(s) }
func (t compactTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.current().Icon(n) }

func (t compactTheme) Size(n fyne.ThemeSizeName) float32 {
	switch n {
	case theme.SizeNamePadding:
		return 1
	case theme.SizeNameInnerPadding:
		return 2
	case theme.SizeNameInlineIcon:
		return 16
	}
	return t.current().Size(n)
}

// scrollRoom keeps a row's buttons clear of the list's scroll bar.
func scrollRoom() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	r.SetMinSize(fyne.NewSize(theme.Size(theme.SizeNameScrollBar)+2, 1))
	return r
}

// nameAndDetail lays a row's name and its detail side by side: the name
// takes what it needs, up to two thirds, and the detail the rest.
type nameAndDetail struct{}

func (nameAndDetail) MinSize(objs []fyne.CanvasObject) fyne.Size {
	a, b := objs[0].MinSize(), objs[1].MinSize()
	return fyne.NewSize(a.Width+b.Width, max(a.Height, b.Height))
}

func (nameAndDetail) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	name := objs[0].(*bidiLabel)
	want := fyne.MeasureText(name.Text(), name.Theme().Size(name.sizeName), name.style).Width + 2*name.Theme().Size(theme.SizeNameInnerPadding)
	w := min(want, size.Width*2/3)
	objs[0].Move(fyne.NewPos(0, 0))
	objs[0].Resize(fyne.NewSize(w, size.Height))
	objs[1].Move(fyne.NewPos(w, 0))
	objs[1].Resize(fyne.NewSize(size.Width-w, size.Height))
}

// tightVBox stacks its objects with no space between them.
type tightVBox struct{}

func (tightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s
}

func (tightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

// slimBar is a thin progress bar, without the percentage of Fyne's: the
// row's words say how far the file is.
type slimBar struct {
	widget.BaseWidget
	Value float64 // 0 to 1
}

func newSlimBar() *slimBar {
	b := &slimBar{}
	b.ExtendBaseWidget(b)
	return b
}

// SetValue moves the bar; it must be called on the UI goroutine.
func (b *slimBar) SetValue(v float64) {
	b.Value = v
	b.Refresh()
}

func (b *slimBar) CreateRenderer() fyne.WidgetRenderer {
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
	bar         *slimBar
	track, fill *canvas.Rectangle
}

func (r *slimBarRenderer) MinSize() fyne.Size { return fyne.NewSize(slimBarWidth, slimBarHeight) }

func (r *slimBarRenderer) Layout(size fyne.Size) {
	y := (size.Height - slimBarHeight) / 2
	r.track.Move(fyne.NewPos(0, y))
	r.track.Resize(fyne.NewSize(size.Width, slimBarHeight))
	w := size.Width * float32(min(max(r.bar.Value, 0), 1))
	x := float32(0)
	if rtl() { // filling from the reading side
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
