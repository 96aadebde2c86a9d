package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"hoist/engine"
	"hoist/ui/widgets"
)

// statusLine lays out a row's second line: its state in words at the
// start, then the byte count, speed and time left, then the bar at the
// end. When all fit, each is as wide as its words. When they do not, the
// state keeps at least its state word whole ("در حال بارگذاری", never
// "در حال ..."), the progress gives up its room first (cut with "…"),
// and only then the rest of the state's sentence.
type statusLine struct {
	status, progress *widgets.Label
	bar              fyne.CanvasObject
	least            string // the state word, never cut
}

// newStatusLine lays status, progress and bar out in reading order.
func newStatusLine(status, progress *widgets.Label, bar fyne.CanvasObject) (*fyne.Container, *statusLine) {
	l := &statusLine{status: status, progress: progress, bar: bar}
	return container.New(widgets.Mirrored(l), status, progress, bar), l
}

// stateHead is the word of a job's state, which its status starts with.
func stateHead(v engine.JobView) string { return speaking().State(string(v.State)) }

// natural is the width l needs to show text whole.
func natural(l *widgets.Label, text string) float32 {
	if text == "" {
		return 0
	}
	return l.WidthOf(text)
}

func (l *statusLine) barWidth() float32 {
	if !l.bar.Visible() {
		return 0
	}
	return l.bar.MinSize().Width + widgets.CompactPadding
}

func (l *statusLine) MinSize([]fyne.CanvasObject) fyne.Size {
	h := max(l.status.MinSize().Height, l.progress.MinSize().Height, l.bar.MinSize().Height)
	least := natural(l.status, l.least+widgets.Ellipsis)
	return fyne.NewSize(least+l.barWidth(), h)
}

func (l *statusLine) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	bar := l.barWidth()
	room := max(0, size.Width-bar)
	s := natural(l.status, l.status.Text())
	p := natural(l.progress, l.progress.Text())
	if p > 0 {
		p += widgets.CompactPadding
	}
	if s+p > room {
		least := min(s, natural(l.status, l.least+widgets.Ellipsis))
		s = max(least, room-p)
		p = max(0, room-s)
	}
	s = max(s, room-p) // the state takes what is left over
	l.status.Move(fyne.NewPos(0, 0))
	l.status.Resize(fyne.NewSize(s, size.Height))
	l.progress.Move(fyne.NewPos(s, 0))
	l.progress.Resize(fyne.NewSize(max(0, p-widgets.CompactPadding), size.Height))
	if p == 0 {
		l.progress.Resize(fyne.NewSize(0, size.Height))
	}
	if l.bar.Visible() {
		w := l.bar.MinSize().Width
		l.bar.Move(fyne.NewPos(size.Width-w, 0))
		l.bar.Resize(fyne.NewSize(w, size.Height))
	}
}
