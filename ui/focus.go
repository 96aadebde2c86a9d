package ui

import (
	"image/color"

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

// showFocus puts the ring around the focused control of the window (a list
// shows its cursor instead), or of the dialog on top, and, when the focus
// has just moved, scrolls the window or the dialog so that the control is
// on screen. It runs on the UI goroutine.
func (d *desk) showFocus() {
	c := d.win.Canvas()
	f := c.Focused()
	obj, _ := f.(fyne.CanvasObject)
	if top := c.Overlays().Top(); top != nil {
		if obj != nil && f != d.ringFor {
			for _, s := range d.dialogScrolls {
				scrollIntoView(s, obj)
			}
		}
		d.ringFor = f
		d.hideRing()
		d.showDialogRing(top, obj)
		return
	}
	d.hideDialogRing()
	if _, own := obj.(interface{ drawsOwnFocus() }); obj == nil || own || !obj.Visible() {
		d.ringFor = f
		d.hideRing()
		return
	}
	if f != d.ringFor {
		d.ringFor = f
		scrollIntoView(d.frame, obj)
		scrollIntoView(d.selection.scroll(), obj)
	}
	drv := fyne.CurrentApp().Driver()
	const gap = focusWidth * 2 // the ring stands clear of a coloured button's edge
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(d.rings)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := focusColor(d.app.Settings().Theme())
	if d.ring.Visible() && d.ring.Position() == pos && d.ring.Size() == size && d.ring.StrokeColor == col {
		return
	}
	d.ring.StrokeColor = col
	d.ring.Move(pos)
	d.ring.Resize(size)
	d.ring.Show()
	d.ring.Refresh()
	d.ringOn.Store(true)
}

// showDialogRing puts the dialog's ring around obj, focused in the dialog
// top; the toolkit's dialogs only shade a focused button faintly.
func (d *desk) showDialogRing(top fyne.CanvasObject, obj fyne.CanvasObject) {
	box := dialogBox(top)
	if box == nil || obj == nil || !obj.Visible() {
		d.hideDialogRing()
		return
	}
	if d.dialogRing == nil {
		d.dialogRing = newFocusRing()
	}
	r := d.dialogRing
	if d.ringBox != box {
		if d.ringBox != nil {
			d.ringBox.Remove(r)
		}
		box.Objects = append(box.Objects, r) // drawn last, over the dialog; its layout places only its own parts
		d.ringBox = box
	}
	drv := fyne.CurrentApp().Driver()
	const gap = focusWidth * 2
	pos := drv.AbsolutePositionForObject(obj).Subtract(drv.AbsolutePositionForObject(box)).SubtractXY(gap, gap)
	size := obj.Size().AddWidthHeight(2*gap, 2*gap)
	col := focusColor(d.app.Settings().Theme())
	d.ringOn.Store(true) // followed as the dialog scrolls
	if r.Visible() && r.Position() == pos && r.Size() == size && r.StrokeColor == col {
		return
	}
	r.StrokeColor = col
	r.Move(pos)
	r.Resize(size)
	r.Show()
	r.Refresh()
}

func (d *desk) hideDialogRing() {
	if d.dialogRing != nil && d.dialogRing.Visible() {
		d.dialogRing.Hide()
	}
}

func (d *desk) hideRing() {
	if d.ring.Visible() {
		d.ring.Hide()
	}
	d.ringOn.Store(false)
}

// scrolled is content in a dialog's scroll, which keeps the focused
// control on screen.
func (d *desk) scrolled(content fyne.CanvasObject) *container.Scroll {
	s := container.NewVScroll(content)
	const kept = 4 // dialogs open on top of each other, at most; older ones are gone
	d.dialogScrolls = append(d.dialogScrolls[max(0, len(d.dialogScrolls)-kept+1):], s)
	return s
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
