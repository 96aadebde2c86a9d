package widgets

import "fyne.io/fyne/v2"

// RoomyHint stacks a heading, a hint and the rest, the rest taking what
// is left; where there is no room for the hint (a small screen, a large
// scale) the hint is left out, so that the window around it need not
// scroll, unless keep says the hint matters more than the rest (which has
// nothing to show yet). Its minimum size does not count the hint.
type RoomyHint struct {
	Keep func() bool
}

func (RoomyHint) MinSize(objs []fyne.CanvasObject) fyne.Size {
	head, rest := objs[0].MinSize(), objs[2].MinSize()
	return fyne.NewSize(max(head.Width, rest.Width), head.Height+rest.Height)
}

func (l RoomyHint) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	head, hint, rest := objs[0], objs[1], objs[2]
	hh := head.MinSize().Height
	head.Move(fyne.NewPos(0, 0))
	head.Resize(fyne.NewSize(size.Width, hh))
	y := hh
	hint.Resize(fyne.NewSize(size.Width, hint.MinSize().Height)) // its height follows its width
	if need := hint.MinSize().Height; size.Height-hh-need >= rest.MinSize().Height || (l.Keep != nil && l.Keep() && size.Height-hh >= need) {
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

// KeepRoom lays its objects one over the other, each over the whole of it,
// and is as high as the highest of them and of also, shown or hidden: what
// comes and goes inside it never changes its height, so nothing around it
// moves.
type KeepRoom []fyne.CanvasObject

func (k KeepRoom) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	for _, o := range k {
		s.Height = max(s.Height, o.MinSize().Height)
	}
	return s
}

func (KeepRoom) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// showIf shows o when on is set, else hides it.
func showIf(o fyne.CanvasObject, on bool) {
	if on && !o.Visible() {
		o.Show()
	} else if !on && o.Visible() {
		o.Hide()
	}
}

// WidthFirst stacks its objects, each over the whole of it, and when its
// width changes lays them out twice: the first layout tells every line that
// wraps (Flow, Fold) how wide it is, and so how high it becomes, and the
// second puts what follows such a line below it rather than under it. Put it
// at the root of a window whose lines wrap.
type WidthFirst struct{ width float32 }

func (*WidthFirst) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		if o.Visible() {
			s = s.Max(o.MinSize())
		}
	}
	return s
}

func (l *WidthFirst) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	again := size.Width != l.width
	l.width = size.Width
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		if again {
			o.Resize(size.SubtractWidthHeight(0, 1)) // a size of its own, so the second is laid out anew
		}
		o.Resize(size)
	}
}
