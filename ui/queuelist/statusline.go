package queuelist

import (
	"hoist/ui/view"

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
	Status, Progress *widgets.Label
	Bar              fyne.CanvasObject
	least            string // the state word, never cut
}

// newStatusLine lays status, progress and bar out in reading order.
func newStatusLine(status, progress *widgets.Label, bar fyne.CanvasObject) (*fyne.Container, *statusLine) {
	l := &statusLine{Status: status, Progress: progress, Bar: bar}
	return container.New(widgets.Mirrored(l), status, progress, bar), l
}

// stateHead is the word of a job's state, which its status starts with.
func stateHead(v engine.JobView) string { return view.Speaking().State(string(v.State)) }

// Natural is the width l needs to show text whole.
func Natural(l *widgets.Label, text string) float32 {
	if text == "" {
		return 0
	}
	return l.WidthOf(text)
}

func (l *statusLine) barWidth() float32 {
	if !l.Bar.Visible() {
		return 0
	}
	return l.Bar.MinSize().Width + widgets.CompactPadding
}

func (l *statusLine) MinSize([]fyne.CanvasObject) fyne.Size {
	h := max(l.Status.MinSize().Height, l.Progress.MinSize().Height, l.Bar.MinSize().Height)
	least := Natural(l.Status, l.least+widgets.Ellipsis)
	return fyne.NewSize(least+l.barWidth(), h)
}

func (l *statusLine) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	bar := l.barWidth()
	room := max(0, size.Width-bar)
	s := Natural(l.Status, l.Status.Text())
	p := Natural(l.Progress, l.Progress.Text())
	if p > 0 {
		p += widgets.CompactPadding
	}
	if s+p > room {
		least := min(s, Natural(l.Status, l.least+widgets.Ellipsis))
		s = max(least, room-p)
		p = max(0, room-s)
	}
	s = max(s, room-p) // the state takes what is left over
	l.Status.Move(fyne.NewPos(0, 0))
	l.Status.Resize(fyne.NewSize(s, size.Height))
	l.Progress.Move(fyne.NewPos(s, 0))
	l.Progress.Resize(fyne.NewSize(max(0, p-widgets.CompactPadding), size.Height))
	if p == 0 {
		l.Progress.Resize(fyne.NewSize(0, size.Height))
	}
	if l.Bar.Visible() {
		w := l.Bar.MinSize().Width
		l.Bar.Move(fyne.NewPos(size.Width-w, 0))
		l.Bar.Resize(fyne.NewSize(w, size.Height))
	}
}
