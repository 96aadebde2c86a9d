package queuelist

import (
	"hoist/ui/view"
	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// AllAction is something done to every file that allows it.
type AllAction int

const (
	PauseEvery AllAction = iota
	ResumeEvery
	RetryFailed
	ClearFinished
)

// FooterController is what the bar under the list asks of the window.
type FooterController interface {
	DoAll(a AllAction)
	UndoRemoval()
}

// Footer is the bar under the list: the overall progress, the buttons for
// all files, the totals in words and the Undo of the last removal. It draws
// them from the latest snapshot. The Undo has its room kept whether it is
// shown or not, so that offering it moves nothing on screen: the row under
// the pointer stays the row under the pointer.
type Footer struct {
	Overall                                         *widgets.SlimBar
	Summary                                         *widgets.Paragraph
	PauseAll, ResumeAll, RetryFailed, ClearFinished *widgets.Button
	UndoText                                        *widgets.Label
	undoButton                                      *widgets.Button
	Undo                                            *fyne.Container
	Totals                                          *fyne.Container // the totals in words and the Undo
	Progress                                        *fyne.Container // the overall bar and the buttons
	Content                                         fyne.CanvasObject
	quitting                                        bool // the totals make way for "Quitting…"
}

func NewFooter(d FooterController) *Footer {
	f := &Footer{}
	f.Overall = widgets.NewSlimBar()
	f.Summary = widgets.NewParagraph(view.Say("ui.summary.none")) // wraps: "— 2 need attention" at its end must show
	f.PauseAll = widgets.NewIconButton(view.Visual(view.Say("ui.all.pause")), theme.MediaPauseIcon(), func() { d.DoAll(PauseEvery) })
	f.ResumeAll = widgets.NewIconButton(view.Visual(view.Say("ui.all.resume")), theme.MediaPlayIcon(), func() { d.DoAll(ResumeEvery) })
	f.RetryFailed = widgets.NewIconButton(view.Visual(view.Say("ui.all.retry")), theme.ViewRefreshIcon(), func() { d.DoAll(RetryFailed) })
	f.ClearFinished = widgets.NewIconButton(view.Visual(view.Say("ui.all.clear")), theme.ContentClearIcon(), func() { d.DoAll(ClearFinished) })
	f.UndoText = widgets.NewLabel("") // a long name is cut: the window never gets wider for it
	f.UndoText.SetAlignment(fyne.TextAlignTrailing)
	f.undoButton = widgets.NewIconButton(view.Visual(view.UndoWord()), theme.ContentUndoIcon(), d.UndoRemoval)
	f.Undo = widgets.Border(nil, nil, nil, f.undoButton, f.UndoText)
	f.Undo.Hide()
	// In a narrow window the buttons go under the bar, and wrap.
	controls := widgets.Flow(fyne.TextAlignTrailing, f.PauseAll, f.ResumeAll, f.RetryFailed, f.ClearFinished)
	f.Totals = container.New(&totalsLine{Undo: f.Undo, text: f.UndoText, button: f.undoButton}, f.Summary, f.Undo)
	f.Progress = widgets.Fold(nil, f.Overall, controls)
	f.Content = container.NewVBox(widget.NewSeparator(), f.Progress, f.Totals)
	f.Draw(view.NewSnapshots().Last)
	return f
}

// Draw draws snapshot s; it runs on the UI goroutine.
func (f *Footer) Draw(s *view.Snapshot) {
	t := s.Totals
	if !f.quitting {
		f.Summary.SetText(view.SummaryWords(t.Summary, t.Canceled))
	}
	if on := t.Bytes > 0; on != f.Overall.Visible() { // nothing to upload: a 0% bar would say nothing
		ShowIf(f.Overall, on)
		f.Progress.Refresh()
	}
	if v := OverallValue(t); f.Overall.Value != v {
		f.Overall.SetValue(v)
	}
	enable(f.PauseAll, t.Moving > 0)
	enable(f.ResumeAll, t.Paused > 0)
	enable(f.RetryFailed, t.Failed > 0)
	enable(f.ClearFinished, t.Done > 0 || t.Failed > 0)
	was, wasText := f.Undo.Visible(), f.UndoText.Text()
	if s.Undo.N > 0 {
		f.UndoText.SetText(view.RemovedWords(s.Undo.N, s.Undo.First))
		f.Undo.Show()
	} else {
		f.Undo.Hide()
	}
	if f.Undo.Visible() != was || f.UndoText.Text() != wasText {
		f.Totals.Refresh() // the Undo takes its room, or gives it back
	}
}

// SayQuitting puts "Quitting…" in place of the totals, for good.
func (f *Footer) SayQuitting() {
	f.quitting = true
	f.Summary.SetText(view.Say("ui.quitting"))
}

// OverallValue is how far the overall bar is filled.
func OverallValue(t view.Totals) float64 {
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
	Undo   *fyne.Container
	text   *widgets.Label
	button fyne.CanvasObject
}

// undoShare is the most of the line the Undo takes.
const undoShare = 0.4

// undoWidth is how wide the Undo is on a line of this width.
func (l *totalsLine) undoWidth(width float32) float32 {
	if !l.Undo.Visible() {
		return 0
	}
	whole := l.text.TextWidth() + theme.Padding() + l.button.MinSize().Width
	return max(l.Undo.MinSize().Width, min(whole, width*undoShare))
}

func (l *totalsLine) MinSize(objs []fyne.CanvasObject) fyne.Size {
	summary, undo := objs[0].MinSize(), l.Undo.MinSize()
	w := summary.Width
	if l.Undo.Visible() {
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
		l.Undo.Move(fyne.NewPos(0, 0))
	} else {
		summary.Move(fyne.NewPos(0, 0))
		l.Undo.Move(fyne.NewPos(size.Width-u, 0))
	}
	summary.Resize(fyne.NewSize(s, size.Height))
	l.Undo.Resize(fyne.NewSize(u, size.Height))
}

func enable(b *widgets.Button, on bool) {
	if on && b.Disabled() {
		b.Enable()
	} else if !on && !b.Disabled() {
		b.Disable()
	}
}
