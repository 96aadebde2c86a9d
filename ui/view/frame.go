package view

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// WindowFrame is the window around the panels: its dialogs, the message
// line, and the work the window starts off the UI goroutine. Every panel
// reaches it as the frame interface. Its methods run on the UI goroutine,
// but for background and later.
type WindowFrame struct {
	App fyne.App
	Win fyne.Window
	Log *slog.Logger

	Context context.Context // ends when the window closes; for background work
	stop    context.CancelFunc
	Work    sync.WaitGroup // background goroutines started by the window

	inboxMu sync.Mutex
	inbox   []func() // to run on the UI goroutine at the next sample

	Dialogs []Hideable          // open dialogs, the top one last
	Scrolls []*container.Scroll // dialogs' scrolls, which follow the focus
	Message *widgets.Paragraph  // the latest thing worth saying; made with the window's content
}

func NewWindowFrame(ctx context.Context, a fyne.App, win fyne.Window, log *slog.Logger) *WindowFrame {
	ctx, stop := context.WithCancel(ctx)
	return &WindowFrame{App: a, Win: win, Log: log, Context: ctx, stop: stop}
}

// Hideable is a dialog of any kind.
type Hideable interface {
	Show()
	Hide()
	SetOnClosed(func())
}

func (f *WindowFrame) Window() fyne.Window { return f.Win }

// Open shows a dialog and keeps it on the stack that Escape closes from the top.
func (f *WindowFrame) Open(dlg Hideable) {
	f.Dialogs = append(f.Dialogs, dlg)
	dlg.SetOnClosed(func() {
		if i := slices.Index(f.Dialogs, dlg); i >= 0 {
			f.Dialogs = slices.Delete(f.Dialogs, i, i+1)
		}
	})
	dlg.Show()
	widgets.ReadingTitle(f.Win.Canvas())
}

// top is the dialog on top, or nil.
func (f *WindowFrame) top() Hideable {
	if len(f.Dialogs) == 0 {
		return nil
	}
	return f.Dialogs[len(f.Dialogs)-1]
}

// CloseTopDialog closes the dialog on top, as its Cancel or Close would.
func (f *WindowFrame) CloseTopDialog() bool {
	top := f.top()
	if top == nil {
		return false
	}
	top.Hide()
	return true
}

// CloseDialogs closes every dialog, the top one first.
func (f *WindowFrame) CloseDialogs() {
	for n := len(f.Dialogs); n > 0 && f.CloseTopDialog(); n-- {
	}
}

// PressDefault presses the default button of the dialog on top (its yes,
// its OK or Close): Enter does, where no button has the focus.
func (f *WindowFrame) PressDefault() {
	if p, ok := f.top().(interface{ PressDefault() }); ok {
		p.PressDefault()
	}
}

// Fit shrinks a dialog's size to the window, so that none is larger than it.
func (f *WindowFrame) Fit(s fyne.Size) fyne.Size {
	w := f.Win.Canvas().Size()
	if w.Width > 0 {
		s.Width = min(s.Width, w.Width-16)
	}
	if w.Height > 0 {
		s.Height = min(s.Height, w.Height-16)
	}
	return s
}

// Tell shows a sentence above the totals until the next one.
func (f *WindowFrame) Tell(msg string) {
	f.Message.SetText(Sentence(msg))
	f.Message.Show()
}

// Unsay takes back the sentence shown, when it is msg ("" takes back any).
func (f *WindowFrame) Unsay(msg string) {
	if msg == "" || f.Message.Text() == Sentence(msg) {
		f.Message.SetText("")
		f.Message.Hide()
	}
}

// SayOnTop says msg where it is seen: in the window's message line, or in
// a small dialog above the dialog that is open.
func (f *WindowFrame) SayOnTop(msg string) {
	if len(f.Dialogs) == 0 {
		f.Tell(msg)
		return
	}
	f.Open(widgets.NewSentenceDialog(Say("ui.app"), msg, f.Win))
}

func (f *WindowFrame) CopyText(text string) { f.App.Clipboard().SetContent(text) }

// Background runs work off the UI goroutine; the window waits for it on close.
func (f *WindowFrame) Background(work func(ctx context.Context)) {
	f.Work.Add(1)
	go func() {
		defer f.Work.Done()
		work(f.Context)
	}()
}

// Later runs work on the UI goroutine at the next sample. Background work
// hands its results to the window this way, never by touching widgets itself.
func (f *WindowFrame) Later(work func()) {
	f.inboxMu.Lock()
	f.inbox = append(f.inbox, work)
	f.inboxMu.Unlock()
}

// TakeLater is what later was given since the last call.
func (f *WindowFrame) TakeLater() []func() {
	f.inboxMu.Lock()
	defer f.inboxMu.Unlock()
	out := f.inbox
	f.inbox = nil
	return out
}

// Scrolled is content in a dialog's scroll, which keeps the focused
// control on screen.
func (f *WindowFrame) Scrolled(content fyne.CanvasObject) *container.Scroll {
	s := container.NewVScroll(content)
	const kept = 4 // dialogs open on top of each other, at most; older ones are gone
	f.Scrolls = append(f.Scrolls[max(0, len(f.Scrolls)-kept+1):], s)
	return s
}

// End stops the background work and waits for it.
func (f *WindowFrame) End() {
	f.stop()
	f.Work.Wait()
}

// Frame is what every panel may ask of the window around it.
type Frame interface {
	Window() fyne.Window
	Open(dlg Hideable)                  // shows a dialog that Escape closes
	Fit(s fyne.Size) fyne.Size          // a dialog's size, no larger than the window
	Tell(msg string)                    // a sentence above the totals
	CopyText(text string)               // puts text on the clipboard
	Background(f func(context.Context)) // work off the UI goroutine, waited for on close
	Later(f func())                     // back on the UI goroutine, at the next sample
	// Scrolled is content in a scroll that keeps the focused control on screen.
	Scrolled(content fyne.CanvasObject) *container.Scroll
}

var _ Frame = (*WindowFrame)(nil)
