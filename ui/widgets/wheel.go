package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Wheel is a layer laid over a list that takes the mouse wheel, so that its
// owner decides how far one notch moves the list. The toolkit moves a scroll
// by 25 units a notch on Linux and Windows, under a third of a row of
// Hoist's list. The layer takes nothing else: taps, the pointer's hover and
// drags reach what is under it.
type Wheel struct {
	widget.BaseWidget
	OnScrolled func(*fyne.ScrollEvent)
}

// NewWheel returns a wheel layer calling onScrolled with each wheel event,
// its position relative to the layer.
func NewWheel(onScrolled func(*fyne.ScrollEvent)) *Wheel {
	w := &Wheel{OnScrolled: onScrolled}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled hands the wheel's event to the owner.
func (w *Wheel) Scrolled(ev *fyne.ScrollEvent) {
	if w.OnScrolled != nil {
		w.OnScrolled(ev)
	}
}

// MinSize: the layer asks for no room of its own.
func (w *Wheel) MinSize() fyne.Size { return fyne.Size{} }

// CreateRenderer draws nothing.
func (w *Wheel) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}
