package ui

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// windowFrame is the window around the panels: its dialogs, the message
// line, and the work the window starts off the UI goroutine. Every panel
// reaches it as the frame interface. Its methods run on the UI goroutine,
// but for background and later.
type windowFrame struct {
	app fyne.App
	win fyne.Window
	log *slog.Logger

	ctx  context.Context // ends when the window closes; for background work
	stop context.CancelFunc
	work sync.WaitGroup // background goroutines started by the window

	inboxMu sync.Mutex
	inbox   []func() // to run on the UI goroutine at the next sample

	dialogs []hideable          // open dialogs, the top one last
	scrolls []*container.Scroll // dialogs' scrolls, which follow the focus
	message *widgets.Paragraph  // the latest thing worth saying; made with the window's content
}

func newWindowFrame(ctx context.Context, a fyne.App, win fyne.Window, log *slog.Logger) *windowFrame {
	ctx, stop := context.WithCancel(ctx)
	return &windowFrame{app: a, win: win, log: log, ctx: ctx, stop: stop}
}

// hideable is a dialog of any kind.
type hideable interface {
	Show()
	Hide()
	SetOnClosed(func())
}

func (f *windowFrame) window() fyne.Window { return f.win }

// open shows a dialog and keeps it on the stack that Escape closes from the top.
func (f *windowFrame) open(dlg hideable) {
	f.dialogs = append(f.dialogs, dlg)
	dlg.SetOnClosed(func() {
		if i := slices.Index(f.dialogs, dlg); i >= 0 {
			f.dialogs = slices.Delete(f.dialogs, i, i+1)
		}
	})
	dlg.Show()
	widgets.ReadingTitle(f.win.Canvas())
}

// top is the dialog on top, or nil.
func (f *windowFrame) top() hideable {
	if len(f.dialogs) == 0 {
		return nil
	}
	return f.dialogs[len(f.dialogs)-1]
}

// closeTopDialog closes the dialog on top, as its Cancel or Close would.
func (f *windowFrame) closeTopDialog() bool {
	top := f.top()
	if top == nil {
		return false
	}
	top.Hide()
	return true
}

// closeDialogs closes every dialog, the top one first.
func (f *windowFrame) closeDialogs() {
	for n := len(f.dialogs); n > 0 && f.closeTopDialog(); n-- {
	}
}

// pressDefault presses the default button of the dialog on top (its yes,
// its OK or Close): Enter does, where no button has the focus.
func (f *windowFrame) pressDefault() {
	if p, ok := f.top().(interface{ PressDefault() }); ok {
		p.PressDefault()
	}
}

// fit shrinks a dialog's size to the window, so that none is larger than it.
func (f *windowFrame) fit(s fyne.Size) fyne.Size {
	w := f.win.Canvas().Size()
	if w.Width > 0 {
		s.Width = min(s.Width, w.Width-16)
	}
	if w.Height > 0 {
		s.Height = min(s.Height, w.Height-16)
	}
	return s
}

// tell shows a sentence above the totals until the next one.
func (f *windowFrame) tell(msg string) {
	f.message.SetText(sentence(msg))
	f.message.Show()
}

// unsay takes back the sentence shown, when it is msg ("" takes back any).
func (f *windowFrame) unsay(msg string) {
	if msg == "" || f.message.Text() == sentence(msg) {
		f.message.SetText("")
		f.message.Hide()
	}
}

// sayOnTop says msg where it is seen: in the window's message line, or in
// a small dialog above the dialog that is open.
func (f *windowFrame) sayOnTop(msg string) {
	if len(f.dialogs) == 0 {
		f.tell(msg)
		return
	}
	f.open(widgets.NewSentenceDialog(say("ui.app"), msg, f.win))
}

func (f *windowFrame) copyText(text string) { f.app.Clipboard().SetContent(text) }

// background runs work off the UI goroutine; the window waits for it on close.
func (f *windowFrame) background(work func(ctx context.Context)) {
	f.work.Add(1)
	go func() {
		defer f.work.Done()
		work(f.ctx)
	}()
}

// later runs work on the UI goroutine at the next sample. Background work
// hands its results to the window this way, never by touching widgets itself.
func (f *windowFrame) later(work func()) {
	f.inboxMu.Lock()
	f.inbox = append(f.inbox, work)
	f.inboxMu.Unlock()
}

// takeLater is what later was given since the last call.
func (f *windowFrame) takeLater() []func() {
	f.inboxMu.Lock()
	defer f.inboxMu.Unlock()
	out := f.inbox
	f.inbox = nil
	return out
}

// scrolled is content in a dialog's scroll, which keeps the focused
// control on screen.
func (f *windowFrame) scrolled(content fyne.CanvasObject) *container.Scroll {
	s := container.NewVScroll(content)
	const kept = 4 // dialogs open on top of each other, at most; older ones are gone
	f.scrolls = append(f.scrolls[max(0, len(f.scrolls)-kept+1):], s)
	return s
}

// end stops the background work and waits for it.
func (f *windowFrame) end() {
	f.stop()
	f.work.Wait()
}

// frame is what every panel may ask of the window around it.
type frame interface {
	window() fyne.Window
	open(dlg hideable)                  // shows a dialog that Escape closes
	fit(s fyne.Size) fyne.Size          // a dialog's size, no larger than the window
	tell(msg string)                    // a sentence above the totals
	copyText(text string)               // puts text on the clipboard
	background(f func(context.Context)) // work off the UI goroutine, waited for on close
	later(f func())                     // back on the UI goroutine, at the next sample
	// scrolled is content in a scroll that keeps the focused control on screen.
	scrolled(content fyne.CanvasObject) *container.Scroll
}

var _ frame = (*windowFrame)(nil)
