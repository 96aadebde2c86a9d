package ui

import "fyne.io/fyne/v2"

// roomyHint stacks a heading, a hint and the rest, the rest taking what
// is left; where there is no room for the hint (a small screen, a large
// scale) the hint is left out, so that the window around it need not
// scroll, unless keep says the hint matters more than the rest (which has
// nothing to show yet). Its minimum size does not count the hint.
type roomyHint struct {
	keep func() bool
}

func (roomyHint) MinSize(objs []fyne.CanvasObject) fyne.Size {
	head, rest := objs[0].MinSize(), objs[2].MinSize()
	return fyne.NewSize(max(head.Width, rest.Width), head.Height+rest.Height)
}

func (l roomyHint) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	head, hint, rest := objs[0], objs[1], objs[2]
	hh := head.MinSize().Height
	head.Move(fyne.NewPos(0, 0))
	head.Resize(fyne.NewSize(size.Width, hh))
	y := hh
	hint.Resize(fyne.NewSize(size.Width, hint.MinSize().Height)) // its height follows its width
	if need := hint.MinSize().Height; size.Height-hh-need >= rest.MinSize().Height || (l.keep != nil && l.keep() && size.Height-hh >= need) {
		hint.Move(fyne.NewPos(0, y))
		hint.Resize(fyne.NewSize(size.Width, need))
		showIf(hint, true)
		y += need
	} else {
		showIf(hint, false)
	}
	rest.Move(fyne.NewPos(0, y))
	rest.Resize(fyne.NewSize(size.Width, size.Height-y))
}
