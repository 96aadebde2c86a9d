package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Layouts that fit a narrow window (a small screen, a large scale) without
// scrolling sideways: what does not fit on a line goes onto the next,
// instead of making the window wider than the screen. Their height follows
// the width they were last given, as a wrapping paragraph's does.

// Flow lays its objects side by side in reading order, each as wide as it
// needs, and starts a new line where the next one would not fit: a row of
// buttons that wraps. Each line sits at the reading side (leading), at the
// other (trailing: the right in English, the left in a right-to-left
// window) or in the middle. It is never narrower than its widest object;
// hidden objects take no room.
func Flow(align fyne.TextAlign, objs ...fyne.CanvasObject) *fyne.Container {
	return container.New(&flowLayout{align: align}, objs...)
}

type flowLayout struct {
	align fyne.TextAlign
	width float32 // the width of the last layout; 0 before it
}

// line is the objects of one line and its size.
type line struct {
	objs          []fyne.CanvasObject
	width, height float32
}

// lines breaks objs into lines no wider than width (any width: one line).
func (l *flowLayout) lines(objs []fyne.CanvasObject, width float32) []line {
	gap := theme.Padding()
	var out []line
	var cur line
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		if len(cur.objs) > 0 && width > 0 && cur.width+gap+m.Width > width {
			out = append(out, cur)
			cur = line{}
		}
		if len(cur.objs) > 0 {
			cur.width += gap
		}
		cur.objs = append(cur.objs, o)
		cur.width += m.Width
		cur.height = max(cur.height, m.Height)
	}
	if len(cur.objs) > 0 {
		out = append(out, cur)
	}
	return out
}

// stacked is how high lines are, a padding apart.
func stacked(lines []line) float32 {
	var h float32
	for i, ln := range lines {
		if i > 0 {
			h += theme.Padding()
		}
		h += ln.height
	}
	return h
}

// natural is the size of every object on one line.
func (l *flowLayout) natural(objs []fyne.CanvasObject) fyne.Size {
	lns := l.lines(objs, 0)
	if len(lns) == 0 {
		return fyne.Size{}
	}
	return fyne.NewSize(lns[0].width, lns[0].height)
}

func (l *flowLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var widest float32
	for _, o := range objs {
		if o.Visible() {
			widest = max(widest, o.MinSize().Width)
		}
	}
	return fyne.NewSize(widest, stacked(l.lines(objs, l.width)))
}

func (l *flowLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	rtl := RightToLeft()
	gap := theme.Padding()
	var y float32
	for _, ln := range l.lines(objs, size.Width) {
		x := float32(0)
		switch l.align {
		case fyne.TextAlignTrailing:
			x = max(0, size.Width-ln.width)
		case fyne.TextAlignCenter:
			x = max(0, (size.Width-ln.width)/2)
		}
		for _, o := range ln.objs {
			m := o.MinSize()
			w := min(m.Width, size.Width)
			at := x
			if rtl {
				at = size.Width - x - w
			}
			o.Move(fyne.NewPos(at, y+(ln.height-m.Height)/2))
			o.Resize(fyne.NewSize(w, m.Height))
			x += w + gap
		}
		y += ln.height + gap
	}
}

// Fold is a Border without top and bottom: start on the reading side, end
// on the other, each as wide as it needs, centre taking the rest. Where the
// three do not fit on one line, end goes onto a line of its own under the
// others, at the end side (and wraps there, if it is a Flow). The centre's
// room is kept when it is hidden, so that its coming and going moves
// nothing. Start or end may be nil.
func Fold(start, centre, end fyne.CanvasObject) *fyne.Container {
	f := &foldLayout{start: start, centre: centre, end: end}
	var objs []fyne.CanvasObject
	for _, o := range []fyne.CanvasObject{start, centre, end} {
		if o != nil {
			objs = append(objs, o)
		}
	}
	return container.New(f, objs...)
}

type foldLayout struct {
	start, centre, end fyne.CanvasObject
	width              float32 // the width of the last layout; 0 before it
}

// widthOf is o's width on a line with others, and its height; nil or
// hidden takes nothing, but for the centre, whose room is kept.
func (l *foldLayout) sizeOf(o fyne.CanvasObject, natural bool) fyne.Size {
	if o == nil || (!o.Visible() && o != l.centre) {
		return fyne.Size{}
	}
	if c, ok := o.(*fyne.Container); ok && natural {
		if f, ok := c.Layout.(*flowLayout); ok {
			return f.natural(c.Objects)
		}
	}
	return o.MinSize()
}

// gapAfter is the space between o and what follows it on its line.
func (l *foldLayout) gapAfter(o fyne.CanvasObject) float32 {
	if o == nil || (!o.Visible() && o != l.centre) {
		return 0
	}
	return theme.Padding()
}

// folded tells whether, at width, end goes under the others.
func (l *foldLayout) folded(width float32) bool {
	if l.end == nil || !l.end.Visible() || width <= 0 {
		return false
	}
	need := l.sizeOf(l.start, false).Width + l.gapAfter(l.start) + l.sizeOf(l.centre, false).Width +
		l.gapAfter(l.centre) + l.sizeOf(l.end, true).Width
	return need > width
}

func (l *foldLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	s, c := l.sizeOf(l.start, false), l.sizeOf(l.centre, false)
	first := fyne.NewSize(s.Width+l.gapAfter(l.start)+c.Width, max(s.Height, c.Height))
	e := l.sizeOf(l.end, false)
	width := max(first.Width, e.Width)
	if !l.folded(l.width) {
		return fyne.NewSize(width, max(first.Height, l.sizeOf(l.end, true).Height))
	}
	return fyne.NewSize(width, first.Height+theme.Padding()+heightAt(l.end, l.width))
}

// heightAt is how high o is at width: a Flow's lines, anything else's
// minimum.
func heightAt(o fyne.CanvasObject, width float32) float32 {
	if c, ok := o.(*fyne.Container); ok {
		if f, ok := c.Layout.(*flowLayout); ok {
			return stacked(f.lines(c.Objects, width))
		}
	}
	return o.MinSize().Height
}

func (l *foldLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	rtl := RightToLeft()
	place := func(o fyne.CanvasObject, x, y, w, h float32) {
		if o == nil {
			return
		}
		if rtl {
			x = size.Width - x - w
		}
		o.Move(fyne.NewPos(x, y))
		o.Resize(fyne.NewSize(w, h))
	}
	s := l.sizeOf(l.start, false)
	startRoom := s.Width + l.gapAfter(l.start)
	if !l.folded(size.Width) {
		e := l.sizeOf(l.end, true)
		endRoom := float32(0)
		if e.Width > 0 {
			endRoom = e.Width + l.gapAfter(l.centre)
		}
		place(l.start, 0, 0, s.Width, size.Height)
		place(l.centre, startRoom, 0, max(0, size.Width-startRoom-endRoom), size.Height)
		place(l.end, size.Width-e.Width, 0, e.Width, size.Height)
		return
	}
	c := l.sizeOf(l.centre, false)
	first := max(s.Height, c.Height)
	place(l.start, 0, 0, s.Width, first)
	place(l.centre, startRoom, 0, max(0, size.Width-startRoom), first)
	y := first + theme.Padding()
	w := min(size.Width, l.sizeOf(l.end, true).Width)
	place(l.end, size.Width-w, y, w, heightAt(l.end, w))
}
