package ui

import (
	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// allAction is something done to every file that allows it.
type allAction int

const (
	pauseEvery allAction = iota
	resumeEvery
	retryFailed
	clearFinished
)

// footerController is what the bar under the list asks of the window.
type footerController interface {
	doAll(a allAction)
	undoRemoval()
}

// footer is the bar under the list: the overall progress, the buttons for
// all files, the totals in words and the Undo of the last removal. It draws
// them from the latest snapshot. The Undo has its room kept whether it is
// shown or not, so that offering it moves nothing on screen: the row under
// the pointer stays the row under the pointer.
type footer struct {
	overall                                         *widgets.SlimBar
	summary                                         *widgets.Paragraph
	pauseAll, resumeAll, retryFailed, clearFinished *widgets.Button
	undoText                                        *widgets.Label
	undoButton                                      *widgets.Button
	undo                                            *fyne.Container
	totals                                          *fyne.Container // the totals in words and the Undo
	progress                                        *fyne.Container // the overall bar and the buttons
	content                                         fyne.CanvasObject
	quitting                                        bool // the totals make way for "Quitting…"
}

func newFooter(d footerController) *footer {
	f := &footer{}
	f.overall = widgets.NewSlimBar()
	f.summary = widgets.NewParagraph(say("ui.summary.none")) // wraps: "— 2 need attention" at its end must show
	f.pauseAll = widgets.NewIconButton(visual(say("ui.all.pause")), theme.MediaPauseIcon(), func() { d.doAll(pauseEvery) })
	f.resumeAll = widgets.NewIconButton(visual(say("ui.all.resume")), theme.MediaPlayIcon(), func() { d.doAll(resumeEvery) })
	f.retryFailed = widgets.NewIconButton(visual(say("ui.all.retry")), theme.ViewRefreshIcon(), func() { d.doAll(retryFailed) })
	f.clearFinished = widgets.NewIconButton(visual(say("ui.all.clear")), theme.ContentClearIcon(), func() { d.doAll(clearFinished) })
	f.undoText = widgets.NewLabel("") // a long name is cut: the window never gets wider for it
	f.undoText.SetAlignment(fyne.TextAlignTrailing)
	f.undoButton = widgets.NewIconButton(visual(undoWord()), theme.ContentUndoIcon(), d.undoRemoval)
	f.undo = widgets.Border(nil, nil, nil, f.undoButton, f.undoText)
	f.undo.Hide()
	// In a narrow window the buttons go under the bar, and wrap.
	controls := widgets.Flow(fyne.TextAlignTrailing, f.pauseAll, f.resumeAll, f.retryFailed, f.clearFinished)
	f.totals = container.New(&totalsLine{undo: f.undo, text: f.undoText, button: f.undoButton}, f.summary, f.undo)
	f.progress = widgets.Fold(nil, f.overall, controls)
	f.content = container.NewVBox(widget.NewSeparator(), f.progress, f.totals)
	f.show(newSnapshots().last)
	return f
}

// show draws snapshot s; it runs on the UI goroutine.
func (f *footer) show(s *snapshot) {
	t := s.totals
	if !f.quitting {
		f.summary.SetText(summaryWords(t.Summary, t.Canceled))
	}
	if on := t.Bytes > 0; on != f.overall.Visible() { // nothing to upload: a 0% bar would say nothing
		showIf(f.overall, on)
		f.progress.Refresh()
	}
	if v := overallValue(t); f.overall.Value != v {
		f.overall.SetValue(v)
	}
	enable(f.pauseAll, t.Moving > 0)
	enable(f.resumeAll, t.Paused > 0)
	enable(f.retryFailed, t.Failed > 0)
	enable(f.clearFinished, t.Done > 0 || t.Failed > 0)
	was, wasText := f.undo.Visible(), f.undoText.Text()
	if s.undo.N > 0 {
		f.undoText.SetText(removedWords(s.undo.N, s.undo.First))
		f.undo.Show()
	} else {
		f.undo.Hide()
	}
	if f.undo.Visible() != was || f.undoText.Text() != wasText {
		f.totals.Refresh() // the Undo takes its room, or gives it back
	}
}

// sayQuitting puts "Quitting…" in place of the totals, for good.
func (f *footer) sayQuitting() {
	f.quitting = true
	f.summary.SetText(say("ui.quitting"))
}

// overallValue is how far the overall bar is filled.
func overallValue(t totals) float64 {
	if t.Bytes <= 0 {
		return 0
	}
	return min(float64(t.BytesDone)/float64(t.Bytes), 1)
}

// totalsLine lays out the totals on the reading side and, when it is
// offered, the Undo at the other, as wide as its words but for at most a
// share of the line: a long name in it is cut rather than widen the
// window. The line is as high as the Undo whether it is shown or not.
type totalsLine struct {
	undo   *fyne.Container
	text   *widgets.Label
	button fyne.CanvasObject
}

// undoShare is the most of the line the Undo takes.
const undoShare = 0.4

// undoWidth is how wide the Undo is on a line of this width.
func (l *totalsLine) undoWidth(width float32) float32 {
	if !l.undo.Visible() {
		return 0
	}
	whole := l.text.TextWidth() + theme.Padding() + l.button.MinSize().Width
	return max(l.undo.MinSize().Width, min(whole, width*undoShare))
}

func (l *totalsLine) MinSize(objs []fyne.CanvasObject) fyne.Size {
	summary, undo := objs[0].MinSize(), l.undo.MinSize()
	w := summary.Width
	if l.undo.Visible() {
		w += theme.Padding() + undo.Width
	}
	return fyne.NewSize(w, max(summary.Height, undo.Height))
}

func (l *totalsLine) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	u := l.undoWidth(size.Width)
	s := size.Width
	if u > 0 {
		s = max(0, size.Width-u-theme.Padding())
	}
	summary := objs[0]
	if widgets.RightToLeft() {
		summary.Move(fyne.NewPos(size.Width-s, 0))
		l.undo.Move(fyne.NewPos(0, 0))
	} else {
		summary.Move(fyne.NewPos(0, 0))
		l.undo.Move(fyne.NewPos(size.Width-u, 0))
	}
	summary.Resize(fyne.NewSize(s, size.Height))
	l.undo.Resize(fyne.NewSize(u, size.Height))
}

func enable(b *widgets.Button, on bool) {
	if on && b.Disabled() {
		b.Enable()
	} else if !on && !b.Disabled() {
		b.Disable()
	}
}
