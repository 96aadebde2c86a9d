package ui

import (
	"context"
	"os"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"

	"hoist/engine"
	"hoist/internal/sessionbus"
	"hoist/ui/native"
	"hoist/ui/queuelist"
	"hoist/ui/trayhost"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// quitWithin is how long quitting may take to pause uploads and save the list.
const quitWithin = 2 * time.Second

// exit is how the window goes and Hoist quits. Closing the window or Ctrl+Q
// while files upload asks first; yes pauses everything, saves the list and
// quits within two seconds. Closing the window with the setting on may
// keep uploading instead: the window goes to the tray only where a tray
// icon is really shown (trayhost), otherwise it stays, minimised, on the
// taskbar; either way Hoist quits once nothing is moving, since closing
// the window asked it to. A second Hoist, or the tray's Show, brings the
// window forward and keeps Hoist open.
type exit struct {
	frame    *view.WindowFrame
	q        *engine.Queue
	removals *view.Removals
	last     func() *view.Snapshot       // the snapshot drawn last
	settings func() view.Settings        // the settings now
	foot     func() *queuelist.Footer    // the bar under the list, which says "Quitting…"
	doAll    func(a queuelist.AllAction) // the tray's Pause all
	add      func(paths []string)
	saveSize func()

	tray      func(*fyne.Menu) // sets the system tray's menu; nil without a tray
	trayShown func() bool      // whether the tray's icon would really be seen now
	hidden    bool             // the window is closed and Hoist works from the tray
	minimised bool             // Hoist minimised the window to keep uploading
	quitting  bool
	asking    *quitAsk    // the question before quitting, while open
	whenDone  atomic.Bool // the window was closed: quit once nothing moves
}

// useTray gives the window a system tray, where the toolkit has one; the
// window goes there only while its icon is really shown (trayIsShown).
func (e *exit) useTray() {
	if da, ok := e.frame.App.(desktop.App); ok {
		e.tray = da.SetSystemTrayMenu
	}
	e.trayShown = trayIsShown
}

// trayIsShown says whether an icon set in the tray now would be seen.
func trayIsShown() bool { return trayhost.Shown(context.Background()) }

// closing is the window's close button.
func (e *exit) closing() { e.askQuit(true) }

// askQuit quits, asking first while files upload; closingWindow: the window's
// close button, which may keep uploading instead.
func (e *exit) askQuit(closingWindow bool) {
	if e.quitting || e.asking != nil {
		return
	}
	s := e.last() // at most a tenth of a second old; the question follows the next ones
	if s.Totals.Moving == 0 {
		e.quit()
		return
	}
	// Closing the window may keep uploading: in the tray where its icon is
	// really shown, else minimised; either way Hoist quits when they are up.
	background := closingWindow && e.settings().Background
	notices := canNotify()
	// Where no notification can be shown, the tray's icon could not be
	// either (both need the session bus): the window is minimised.
	inTray := background && notices && e.tray != nil && e.trayShown()
	words := func(files int) string {
		if background {
			return view.QuitQuestion(files) + " " + view.BackgroundHint(inTray, notices)
		}
		return view.QuitQuestion(files)
	}
	text := widgets.NewParagraph(words(s.Totals.Moving))
	text.MinWidth = widgets.DialogTextWidth
	var ask *widgets.Question
	ask = widgets.NewQuestion(view.QuitTitle(), text, view.QuitConfirm(), view.QuitDismiss(),
		func(yes bool) {
			e.asking = nil
			switch {
			case yes:
				e.quit()
			case background && ask.Dismissed: // not when Escape closed the question
				e.keepUploading(inTray)
			}
		}, e.frame.Win)
	if background {
		ask.SetDismissText(view.BackgroundDismiss())
	}
	ask.Dismiss.SetIcon(theme.UploadIcon()) // it goes on uploading: no ✕
	e.asking = &quitAsk{ask: ask, text: text, words: words}
	e.frame.Open(ask)
}

// quitAsk is the question before quitting while files upload. It counts
// them from each snapshot, and once none is left to stop it goes, and
// Hoist quits as it was asked to: nothing is lost by quitting now.
type quitAsk struct {
	ask   *widgets.Question
	text  *widgets.Paragraph
	words func(files int) string
}

func (q *quitAsk) Draw(s *view.Snapshot) {
	if n := s.Totals.Moving; n > 0 {
		q.text.SetText(q.words(n))
		return
	}
	q.ask.Answer(true)
}

// Draw follows snapshot s: the question's count, and the quit asked for
// once nothing moves.
func (e *exit) Draw(s *view.Snapshot) {
	if e.asking != nil {
		e.asking.Draw(s)
	}
	if s.Totals.Moving == 0 && e.whenDone.Swap(false) {
		if canNotify() {
			e.quit() // the notification tells how it ended
			return
		}
		// Nothing would tell the user: the window comes back with the
		// result rather than vanishing without a word.
		e.frame.Unsay(view.QuitWhenDoneWords())
		e.comeForward()
		e.frame.Tell(view.ShownInsteadWords())
	}
}

// canNotify says whether a notification can be shown: not where the
// session has no bus (Hoist set its address to none at start).
func canNotify() bool { return os.Getenv(sessionbus.Variable) != sessionbus.None }

// quit pauses every upload, flushes the list and closes the window.
func (e *exit) quit() {
	e.removals.Commit()
	e.saveSize()
	e.quitting = true
	e.foot().SayQuitting()
	f := e.frame
	f.Background(func(context.Context) {
		ctx, cancel := context.WithTimeout(context.Background(), quitWithin)
		defer cancel()
		if err := e.q.Close(ctx); err != nil {
			f.Log.Warn("closing the queue", "err", err)
		}
		f.Later(f.App.Quit)
	})
}

// keepUploading closes the window as far as the desktop allows while the
// uploads go on, and quits when they are done.
func (e *exit) keepUploading(inTray bool) {
	e.whenDone.Store(true)
	e.frame.Tell(view.QuitWhenDoneWords())
	if inTray {
		e.toTray()
		return
	}
	e.minimised = true
	native.Iconify(e.frame.Win)
}

// comeForward shows the window on top, from the tray or the taskbar, and
// keeps Hoist open after the uploads.
func (e *exit) comeForward() {
	e.stayOpen()
	if e.hidden {
		e.hidden = false
		e.frame.Win.Show()
	}
	e.minimised = false
	native.Deiconify(e.frame.Win)
	e.frame.Win.RequestFocus()
}

// stayOpen forgets a quit asked for when the uploads end: the user is back.
func (e *exit) stayOpen() {
	if e.whenDone.Swap(false) {
		e.frame.Unsay(view.QuitWhenDoneWords()) // it is no longer true
	}
}

// handedOver takes what a second Hoist handed over (maybe no files: it
// was started only to show the window) and brings the window forward.
func (e *exit) handedOver(paths []string) {
	e.add(paths)
	e.comeForward()
}

// trayMenu is what the tray offers while the window is closed.
func (e *exit) trayMenu() *fyne.Menu {
	show := fyne.NewMenuItem(view.TrayShow(), e.comeForward)
	pause := fyne.NewMenuItem(view.TrayPauseAll(), func() { e.doAll(queuelist.PauseEvery) })
	quit := fyne.NewMenuItem(view.TrayQuit(), e.quit)
	quit.IsQuit = true
	return fyne.NewMenu(view.Visual(view.Say("ui.app")), show, pause, fyne.NewMenuItemSeparator(), quit)
}

// toTray closes the window and keeps uploading, with the tray to come back.
func (e *exit) toTray() {
	if e.tray == nil {
		return
	}
	e.tray(e.trayMenu())
	e.hidden = true
	e.frame.Win.Hide()
}
