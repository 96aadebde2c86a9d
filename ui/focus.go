package ui

import (
	"image/color"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Keyboard focus in the window:
//
//   - A list that scrolls (the uploads, what the sandbox received) is one
//     stop of Tab. Up and Down move its cursor, which scrolls into view; in
//     the uploads it selects the row (Shift extends the selection, Ctrl
//     moves the cursor alone and Space then adds or takes the row away) and
//     Delete removes the selected rows; in what the sandbox received Enter,
//     Space or Ctrl+C copy the row's SHA-256. The buttons inside rows are
//     for the mouse and are no stops of Tab: the selection's panel and the
//     list's own keys offer the same.
//   - Enter presses the focused button, as Space does (pushButton); where
//     no button has the focus, it presses the default button of the dialog
//     on top (its yes, OK or Close).
//   - Any other control that takes focus is outlined by a ring in the
//     theme's primary colour, which stands out 3:1 or more from the
//     window's background, the buttons' and the selection's in the light and
//     the dark theme (TestFocusRingStandsOut); the window's scroll moves so
//     that the focused control is on screen. In a dialog, a ring of its own,
//     drawn in the dialog, does the same.

// rowButton is a button inside a list's row: it answers the mouse, and Tab
// passes it by.
type rowButton struct {
	widget.Button
}

func newRowButton(label string, icon fyne.Resource, tapped func()) *rowButton {
	b := &rowButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// notFocusable takes the place of the button's focus methods, so that a
// rowButton is no fyne.Focusable.
type notFocusable struct{}

func (b *rowButton) FocusGained(notFocusable) {}

// pushButton is a button that Enter presses, as Space does: every button of
// the window is one, so a focused button is pressed from the keyboard the
// way people expect (the toolkit's answers Space only).
type pushButton struct {
	widget.Button
}

// newButton is a pushButton with words.
func newButton(label string, tapped func()) *pushButton {
	return newIconButton(label, nil, tapped)
}

// newIconButton is a pushButton with words and an icon.
func newIconButton(label string, icon fyne.Resource, tapped func()) *pushButton {
	b := &pushButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Enter as on Space.
func (b *pushButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		ev = &fyne.KeyEvent{Name: fyne.KeySpace, Physical: ev.Physical}
	}
	b.Button.TypedKey(ev)
}

// focusColor is the colour of the ring around the focused control or row.
func focusColor(th fyne.Theme) color.Color {
	return th.Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
}

// focusWidth is the ring's width, in Fyne units.
const focusWidth = 2

// newFocusRing is a ring, hidden until something is focused.
func newFocusRing() *canvas.Rectangle {
	r := canvas.NewRectangle(color.Transparent)
	r.StrokeWidth = focusWidth
	r.CornerRadius = 4
	r.Hide()
	return r
}

// focusRing draws the ring around the focused control: of the window (a
// list shows its cursor instead), or of the dialog on top, in a ring of
// its own drawn inside the dialog; when the focus has just moved, it
// scrolls the window, a panel or the dialog so that the control is on
// screen. It runs on the UI goroutine, but for on.
type focusRing struct {
	frame   *windowFrame
	ring    *canvas.Rectangle // around the focused control of the window
	layer   *fyne.Container   // the layer the ring is drawn on, over everything
	inner   *canvas.Rectangle // the ring in the dialog on top, once one was focused
	box     *fyne.Container   // the dialog it is drawn in
	around  fyne.Focusable    // what a ring was last put around
	scrolls func() []*container.Scroll
	on      atomic.Bool // a ring is on screen: the sampler has it follow its control
}

// newFocusRingLayer is the window's ring on a layer to lay over its
// content; scrolls are the scrolls of the window that follow the focus.
func newFocusRingLayer(f *windowFrame, scrolls func() []*container.Scroll) *focusRing {
	r := &focusRing{frame: f, ring: newFocusRing(), scrolls: scrolls}
	r.layer = container.NewWithoutLayout(r.ring)
	return r
}

// show puts the ring where the focus is now.
func (r *focusRing) show() {
	c := r.frame.win.Canvas()
	f := c.Focused()
	obj, _ := f.(fyne.CanvasObject)
	if top := c.Overlays().Top(); top != nil {
		if obj != nil && f != r.around {
			for _, s := range r.frame.scrolls {
				scrollIntoView(s, obj)
			}
		}
		r.around = f
		r.hide()
		r.showInDialog(top, obj)
		return
	}
	r.hideInDialog()
	if _, own := obj.(interface{ drawsOwnFocus() }); obj == nil || own || !obj.Visible() {
		r.around = f
		r.hide()
		return
	}
	if f != r.around {
		r.around = f
		for _, s := range r.scrolls() {
			scrollIntoView(s, obj)
		}
	}
	drv := fyne.CurrentApp().Driver()
	const gap = focusWidth * 2 // the ring stands clear of a coloured button's edge
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(r.layer)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := focusColor(r.frame.app.Settings().Theme())
	if r.ring.Visible() && r.ring.Position() == pos && r.ring.Size() == size && r.ring.StrokeColor == col {
		return
	}
	r.ring.StrokeColor = col
	r.ring.Move(pos)
	r.ring.Resize(size)
	r.ring.Show()
	r.ring.Refresh()
	r.on.Store(true)
}

// showInDialog puts the dialog's ring around obj, focused in the dialog
// top; the toolkit's dialogs only shade a focused button faintly.
func (r *focusRing) showInDialog(top fyne.CanvasObject, obj fyne.CanvasObject) {
	box := dialogBox(top)
	if box == nil || obj == nil || !obj.Visible() {
		r.hideInDialog()
		return
	}
	if r.inner == nil {
		r.inner = newFocusRing()
	}
	in := r.inner
	if r.box != box {
		if r.box != nil {
			r.box.Remove(in)
		}
		box.Objects = append(box.Objects, in) // drawn last, over the dialog; its layout places only its own parts
		r.box = box
	}
	drv := fyne.CurrentApp().Driver()
	const gap = focusWidth * 2
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(box)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := focusColor(r.frame.app.Settings().Theme())
	r.on.Store(true) // followed as the dialog scrolls
	if in.Visible() && in.Position() == pos && in.Size() == size && in.StrokeColor == col {
		return
	}
	in.StrokeColor = col
	in.Move(pos)
	in.Resize(size)
	in.Show()
	in.Refresh()
}

func (r *focusRing) hideInDialog() {
	if r.inner != nil && r.inner.Visible() {
		r.inner.Hide()
	}
}

func (r *focusRing) hide() {
	if r.ring.Visible() {
		r.ring.Hide()
	}
	r.on.Store(false)
}

// scroll is the panel's scroll, which the focus keeps on screen.
func (p *selectionPanel) scroll() *container.Scroll {
	s, _ := p.content.(*container.Scroll)
	return s
}

// scrollIntoView scrolls s, when obj is inside it, so that obj is on screen.
func scrollIntoView(s *container.Scroll, obj fyne.CanvasObject) {
	if s == nil || !s.Visible() {
		return
	}
	drv := fyne.CurrentApp().Driver()
	at, in := drv.AbsolutePositionForObject(obj), drv.AbsolutePositionForObject(s.Content)
	if at.X < in.X || at.Y < in.Y || at.X > in.X+s.Content.Size().Width || at.Y > in.Y+s.Content.Size().Height {
		return // not inside s
	}
	top := at.Y - drv.AbsolutePositionForObject(s).Y // from the scroll's top edge
	bottom := top + obj.Size().Height
	offset := s.Offset
	switch {
	case top < 0:
		offset.Y += top
	case bottom > s.Size().Height:
		offset.Y += min(bottom-s.Size().Height, top)
	default:
		return
	}
	s.ScrollToOffset(offset)
}
