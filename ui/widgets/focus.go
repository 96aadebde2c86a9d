package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// RowButton is a button inside a list's row: it answers the mouse, and Tab
// passes it by.
type RowButton struct {
	widget.Button
}

// NewRowButton is a button of a list's row, for the mouse only.
func NewRowButton(label string, icon fyne.Resource, tapped func()) *RowButton {
	b := &RowButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// notFocusable takes the place of the button's focus methods, so that a
// RowButton is no fyne.Focusable.
type notFocusable struct{}

func (b *RowButton) FocusGained(notFocusable) {}

// Button is a button that Enter presses, as Space does: every button of
// the window is one, so a focused button is pressed from the keyboard the
// way people expect (the toolkit's answers Space only).
type Button struct {
	widget.Button
}

// NewButton is a Button with words.
func NewButton(label string, tapped func()) *Button {
	return NewIconButton(label, nil, tapped)
}

// NewIconButton is a Button with words and an icon.
func NewIconButton(label string, icon fyne.Resource, tapped func()) *Button {
	b := &Button{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey presses the button on Enter as on Space.
func (b *Button) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyReturn || ev.Name == fyne.KeyEnter {
		ev = &fyne.KeyEvent{Name: fyne.KeySpace, Physical: ev.Physical}
	}
	b.Button.TypedKey(ev)
}

// FocusColor is the colour of the ring around the focused control or row.
func FocusColor(th fyne.Theme) color.Color {
	return th.Color(theme.ColorNamePrimary, fyne.CurrentApp().Settings().ThemeVariant())
}

// FocusWidth is the ring's width, in Fyne units.
const FocusWidth = 2

// NewFocusRing is a ring, hidden until something is focused.
func NewFocusRing() *canvas.Rectangle {
	r := canvas.NewRectangle(color.Transparent)
	r.StrokeWidth = FocusWidth
	r.CornerRadius = 4
	r.Hide()
	return r
}

// ScrollIntoView scrolls s, when obj is inside it, so that obj is on screen.
func ScrollIntoView(s *container.Scroll, obj fyne.CanvasObject) {
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

// CursorMove is where a list's keyboard cursor goes for a key: Up and Down
// by one row, Page Up and Page Down by page rows, Home and End to the first
// and the last of n rows. ok is false for any other key.
func CursorMove(key fyne.KeyName, cursor, page, n int) (to int, ok bool) {
	switch key {
	case fyne.KeyUp:
		to = cursor - 1
	case fyne.KeyDown:
		to = cursor + 1
	case fyne.KeyPageUp:
		to = cursor - max(page, 1)
	case fyne.KeyPageDown:
		to = cursor + max(page, 1)
	case fyne.KeyHome:
		to = 0
	case fyne.KeyEnd:
		to = n - 1
	default:
		return cursor, false
	}
	return max(0, min(to, n-1)), true
}
