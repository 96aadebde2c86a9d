package ui

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"

	"hoist/ui/view"
	"hoist/ui/widgets"
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

// focusRing draws the ring around the focused control: of the window (a
// list shows its cursor instead), or of the dialog on top, in a ring of
// its own drawn inside the dialog; when the focus has just moved, it
// scrolls the window, a panel or the dialog so that the control is on
// screen. It runs on the UI goroutine, but for on.
type focusRing struct {
	frame    *view.WindowFrame
	ring     *canvas.Rectangle // around the focused control of the window
	layer    *fyne.Container   // the layer the ring is drawn on, over everything
	inDialog *canvas.Rectangle // the ring in the dialog on top, once one was focused
	box      *fyne.Container   // the dialog it is drawn in
	around   fyne.Focusable    // what a ring was last put around
	scrolls  func() []*container.Scroll
	on       atomic.Bool // a ring is on screen: the sampler has it follow its control
}

// newFocusRingLayer is the window's ring on a layer to lay over its
// content; scrolls are the scrolls of the window that follow the focus.
func newFocusRingLayer(f *view.WindowFrame, scrolls func() []*container.Scroll) *focusRing {
	r := &focusRing{frame: f, ring: widgets.NewFocusRing(), scrolls: scrolls}
	r.layer = container.NewWithoutLayout(r.ring)
	return r
}

// Draw puts the ring where the focus is now.
func (r *focusRing) Draw() {
	c := r.frame.Win.Canvas()
	f := c.Focused()
	obj, _ := f.(fyne.CanvasObject)
	if top := c.Overlays().Top(); top != nil {
		if obj != nil && f != r.around {
			for _, s := range r.frame.Scrolls {
				widgets.ScrollIntoView(s, obj)
			}
		}
		r.around = f
		r.hide()
		r.showInDialog(top, obj)
		return
	}
	r.hideInDialog()
	if _, own := obj.(interface{ DrawsOwnFocus() }); obj == nil || own || !obj.Visible() {
		r.around = f
		r.hide()
		return
	}
	if f != r.around {
		r.around = f
		for _, s := range r.scrolls() {
			widgets.ScrollIntoView(s, obj)
		}
	}
	drv := fyne.CurrentApp().Driver()
	const gap = widgets.FocusWidth * 2 // the ring stands clear of a coloured button's edge
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(r.layer)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := widgets.FocusColor(r.frame.App.Settings().Theme())
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
	box := widgets.DialogBox(top)
	if box == nil || obj == nil || !obj.Visible() {
		r.hideInDialog()
		return
	}
	if r.inDialog == nil {
		r.inDialog = widgets.NewFocusRing()
	}
	in := r.inDialog
	if r.box != box {
		if r.box != nil {
			r.box.Remove(in)
		}
		box.Objects = append(box.Objects, in) // drawn last, over the dialog; its layout places only its own parts
		r.box = box
	}
	drv := fyne.CurrentApp().Driver()
	const gap = widgets.FocusWidth * 2
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(box)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := widgets.FocusColor(r.frame.App.Settings().Theme())
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
	if r.inDialog != nil && r.inDialog.Visible() {
		r.inDialog.Hide()
	}
}

func (r *focusRing) hide() {
	if r.ring.Visible() {
		r.ring.Hide()
	}
	r.on.Store(false)
}
