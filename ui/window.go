package ui

import (
	"context"
	"errors"
	"image"
	"log/slog"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/media"
)

// sampleEvery is how often the window looks at the queue's counters.
const sampleEvery = 100 * time.Millisecond

// quitWithin is how long quitting may take to pause uploads and save the list.
const quitWithin = 2 * time.Second

// desk is the main window and everything on it. Its fields are used on the
// UI goroutine only, except those said otherwise.
type desk struct {
	ctx     context.Context // ends when the window closes; for background work
	stop    context.CancelFunc
	app     fyne.App
	win     fyne.Window
	q       *engine.Queue // safe from any goroutine
	presets presetStore
	auth    signIn
	sandbox *sandbox
	log     *slog.Logger
	now     func() time.Time
	journal string // where the list of uploads is kept, for the settings

	settings      settings
	dest          dest.Destination // where files added now go
	bar           *destBar
	list          *queueList
	thumbs        *thumbnails
	empty         fyne.CanvasObject
	foot          *footer
	sandboxPanel  *sandboxPanel
	setup         *setupPanel    // the guided Google set-up, while open
	message       *bidiParagraph // the latest thing worth saying
	selection     *selectionPanel
	shots         *snapshots          // makes every snapshot the window draws
	removals      *removals           // rows taken off the list, while Undo can bring them back
	asking        *quitAsk            // the question before quitting, while open
	frame         *container.Scroll   // everything in the window
	ring          *canvas.Rectangle   // around the focused control
	rings         *fyne.Container     // the layer the ring is drawn on, over everything
	ringFor       fyne.Focusable      // what the ring was last put around
	dialogRing    *canvas.Rectangle   // the ring in the dialog on top, once one was focused
	ringBox       *fyne.Container     // the dialog it is drawn in
	chooser       *chooser            // Hoist's own file dialog, last opened
	dialogScrolls []*container.Scroll // dialogs' scrolls, which follow the focus

	events   chan engine.Event // from the queue, drained by the sampler
	pending  atomic.Bool       // a sample is on its way to the UI goroutine
	resample atomic.Bool       // the list must be sampled again though the queue did not change
	ringOn   atomic.Bool       // the focus ring is on screen
	work     sync.WaitGroup    // background goroutines started by the window
	quitting bool
	dialogs  []hideable       // open dialogs, the top one last
	choose   chooseFunc       // the system's file dialog; nil: the desktop's portal
	tray     func(*fyne.Menu) // sets the system tray's menu; nil without a tray
	hidden   bool             // the window is closed and Hoist works from the tray
	// trayShown says whether the tray's icon would really be seen now
	trayShown    func() bool
	minimised    bool        // Hoist minimised the window to keep uploading
	quitWhenDone atomic.Bool // the window was closed: quit once nothing moves

	inboxMu sync.Mutex
	inbox   []func() // to run on the UI goroutine at the next sample

	// Owned by whoever calls collect: the sampling goroutine, or a test.
	sampler   sampler
	watch     *receiptsWatch // nil without a sandbox
	retrying  bool
	focusSeen fyne.Focusable // the focused control at the last sample
}

// newDesk builds the window; the queue and stores must be open.
func newDesk(ctx context.Context, a fyne.App, q *engine.Queue, opts deskOptions) *desk {
	ctx, stop := context.WithCancel(ctx)
	d := &desk{
		ctx: ctx, stop: stop, app: a, q: q,
		presets: opts.presets, auth: opts.auth, sandbox: opts.sandbox, log: opts.log,
		journal: opts.journal, events: opts.events, now: time.Now,
	}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if d.events == nil {
		d.events = make(chan engine.Event, 16)
	}
	d.settings = loadSettings(a.Preferences())
	d.removals = &removals{
		forget:  d.forget,
		after:   func(wait time.Duration, f func()) { time.AfterFunc(wait, func() { d.later(f) }) },
		changed: d.redraw,
	}
	d.shots = newSnapshots()
	d.shots.removed = d.removals
	if d.sandbox != nil {
		d.watch = newReceiptsWatch(d.sandbox, d.log)
	}
	d.win = a.NewWindow(say("ui.app"))
	d.win.SetIcon(iconResource)
	d.loadDestination(opts.sandboxMode)
	d.build()
	d.bar.load()
	d.destinationChanged()
	d.win.SetOnDropped(d.dropped)
	d.win.SetCloseIntercept(d.closing)
	d.useTray()
	d.win.Resize(windowSize(d.savedSize(), screen{}))
	d.shortcuts()
	return d
}

type deskOptions struct {
	presets     presetStore
	auth        signIn
	sandbox     *sandbox
	sandboxMode bool
	log         *slog.Logger
	journal     string
	events      chan engine.Event
}

func (d *desk) build() {
	d.bar = newDestBar(d)
	d.thumbs = newThumbnails()
	d.list = newQueueList(d)
	d.selection = newSelectionPanel(d)

	icon := widget.NewIcon(iconResource)
	bigIcon := container.New(layout.NewGridWrapLayout(fyne.NewSquareSize(96)), icon)
	headline := widget.NewLabelWithStyle(visual(say("ui.empty.headline")), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	headline.SizeName = theme.SizeNameSubHeadingText
	hint := newBidiParagraph(say("ui.empty.hint"))
	hint.SetAlignment(fyne.TextAlignCenter)
	addBig := newIconButton(visual(say("ui.add.files")), theme.ContentAddIcon(), d.pickFiles)
	addFolder := newIconButton(visual(say("ui.add.folder")), theme.FolderOpenIcon(), d.pickFolder)
	d.empty = container.NewCenter(container.NewVBox(container.NewCenter(bigIcon), headline, hint, container.NewCenter(row(addBig, addFolder))))

	d.foot = newFooter(d)
	d.message = newBidiParagraph("") // names files: "نامه مشتری.eml" reads right
	d.message.Hide()

	top := container.NewVBox(
		d.bar.content,
		d.message,
		widget.NewSeparator(),
	)
	center := container.NewStack(d.list, d.empty)
	var side fyne.CanvasObject = d.selection.content
	if d.sandbox != nil {
		d.sandboxPanel = newSandboxPanel(d)
		split := container.NewVSplit(d.selection.content, d.sandboxPanel.content)
		split.Offset = 0.6
		side = split
	}
	middle := container.NewHSplit(center, side)
	middle.Offset = 0.7
	if rtl() { // the list on the reading side, the selection beyond it
		middle = container.NewHSplit(side, center)
		middle.Offset = 0.3
	}
	// In a scroll, the window can be smaller than its controls: on a small
	// screen or a large scale, everything stays reachable, the status line too.
	d.frame = container.NewScroll(container.NewBorder(top, d.foot.content, nil, nil, middle))
	d.ring = newFocusRing()
	d.rings = container.NewWithoutLayout(d.ring)
	d.win.SetContent(container.NewStack(d.frame, d.rings))
	d.draw(d.shots.last)
}

// rebuild builds the window's content again, in the language spoken now
// (Settings changed it): the open dialogs close, the settings open again in
// the new language, and the list, its selection and the destination stay.
func (d *desk) rebuild() {
	thumbs := d.thumbs
	for n := len(d.dialogs); n > 0 && d.closeTopDialog(); n-- {
	}
	d.build()
	d.thumbs = thumbs // still making the pictures asked for
	d.bar.load()
	d.destinationChanged()
	last := *d.shots.last
	last.reshaped = true // every panel is new: each draws everything
	d.draw(&last)
	d.showSettings()
}

// shortcuts: Ctrl/Cmd+O adds files, Ctrl/Cmd+Q quits through the same
// question as closing the window, Ctrl/Cmd+A selects every row, Delete
// removes the selected rows, Ctrl/Cmd+Z brings them back and Escape closes
// the dialog on top.
func (d *desk) shortcuts() {
	c := d.win.Canvas()
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.pickFiles() })
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.askQuit(false) })
	c.AddShortcut(&fyne.ShortcutSelectAll{}, func(fyne.Shortcut) { d.list.selectAll() })
	c.AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { d.removals.undo() })
	c.SetOnTypedKey(d.typedKey)
}

// typedKey handles the keys no focused control took.
func (d *desk) typedKey(e *fyne.KeyEvent) {
	switch e.Name {
	case fyne.KeyEscape:
		d.closeTopDialog()
	case fyne.KeyReturn, fyne.KeyEnter:
		d.pressDefault()
	case fyne.KeyDelete:
		d.list.deleteSelected()
	}
}

// hideable is a dialog of any kind.
type hideable interface {
	Show()
	Hide()
	SetOnClosed(func())
}

// open shows a dialog and keeps it on the stack that Escape closes from the top.
func (d *desk) open(dlg hideable) {
	d.dialogs = append(d.dialogs, dlg)
	dlg.SetOnClosed(func() {
		if i := slices.Index(d.dialogs, dlg); i >= 0 {
			d.dialogs = slices.Delete(d.dialogs, i, i+1)
		}
	})
	dlg.Show()
	readingTitle(d.win.Canvas())
}

// pressDefault presses the default button of the dialog on top (its yes,
// its OK or Close): Enter does, where no button has the focus.
func (d *desk) pressDefault() {
	if len(d.dialogs) == 0 {
		return
	}
	if p, ok := d.dialogs[len(d.dialogs)-1].(interface{ pressDefault() }); ok {
		p.pressDefault()
	}
}

// closeTopDialog closes the dialog on top, as its Cancel or Close would.
func (d *desk) closeTopDialog() bool {
	if len(d.dialogs) == 0 {
		return false
	}
	d.dialogs[len(d.dialogs)-1].Hide()
	return true
}

// fit shrinks a dialog's size to the window, so that none is larger than it.
func (d *desk) fit(s fyne.Size) fyne.Size {
	w := d.win.Canvas().Size()
	if w.Width > 0 {
		s.Width = min(s.Width, w.Width-16)
	}
	if w.Height > 0 {
		s.Height = min(s.Height, w.Height-16)
	}
	return s
}

// start begins sampling the queue; it returns at once.
func (d *desk) start() {
	d.thumbs.start(d.ctx)
	d.work.Add(1)
	go func() {
		defer d.work.Done()
		d.sample(d.ctx)
	}()
}

// close stops background work; it is called once the window is gone.
func (d *desk) close() {
	d.stop()
	d.work.Wait()
	d.thumbs.wait()
}

// background runs f off the UI goroutine; the window waits for it on close.
func (d *desk) background(f func(ctx context.Context)) {
	d.work.Add(1)
	go func() {
		defer d.work.Done()
		f(d.ctx)
	}()
}

// later runs f on the UI goroutine at the next sample. Background work hands
// its results to the window this way, never by touching widgets itself.
func (d *desk) later(f func()) {
	d.inboxMu.Lock()
	d.inbox = append(d.inbox, f)
	d.inboxMu.Unlock()
}

// sample looks at the queue about ten times a second and hands what changed
// to the UI goroutine. It never waits for the UI: while a sample is on its
// way, the next tick is skipped.
func (d *desk) sample(ctx context.Context) {
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if d.pending.Load() {
			continue
		}
		if show := d.collect(); show != nil {
			d.pending.Store(true)
			fyne.Do(func() {
				defer d.pending.Store(false)
				show()
			})
		}
	}
}

// refreshNow samples and shows at once, on the calling goroutine, which must
// be the UI goroutine (tests drive the window this way).
func (d *desk) refreshNow() {
	if show := d.collect(); show != nil {
		show()
	}
}

// collect gathers, off the UI goroutine, everything new since the last call:
// the queue's jobs when they may have changed, thumbnails made, the queue's
// events, results of background work and what the sandbox received. It
// returns what to run on the UI goroutine, or nil when nothing changed. One
// goroutine at a time.
func (d *desk) collect() func() {
	var shows []func()

	d.inboxMu.Lock()
	shows = append(shows, d.inbox...)
	d.inbox = d.inbox[:0]
	d.inboxMu.Unlock()

	var events []engine.Event
	for drained := false; !drained; {
		select {
		case ev := <-d.events:
			events = append(events, ev)
		default:
			drained = true
		}
	}
	// The jobs are read after the events, so the snapshot shows what they tell.
	r := reading{ready: d.thumbs.takeReady(), now: d.now()}
	if d.sampler.needed(d.q.Summary(), d.retrying) || d.resample.Swap(false) || len(r.ready) > 0 {
		r.jobs = d.q.Jobs()
		d.retrying = anyRetrying(r.jobs)
	}
	if d.watch != nil {
		r.receipts = d.watch.read()
	}
	if r.jobs != nil || r.receipts != nil {
		shows = append(shows, func() { d.draw(d.shots.make(r)) })
	}

	if len(events) > 0 { // told after the snapshot that shows them
		shows = append(shows, func() {
			for _, ev := range events {
				d.notify(ev)
			}
		})
	}

	if f := d.win.Canvas().Focused(); f != d.focusSeen || d.ringOn.Load() {
		d.focusSeen = f
		shows = append(shows, d.showFocus) // the focus moved, or the ringed control may have
	}

	if len(shows) == 0 {
		return nil
	}
	return func() {
		for _, f := range shows {
			f()
		}
	}
}

// draw puts snapshot s on every panel; it runs on the UI goroutine.
func (d *desk) draw(s *snapshot) {
	d.list.show(s)
	showIf(d.empty, len(s.rows) == 0)
	showIf(d.list, len(s.rows) > 0)
	d.foot.show(s)
	if s.selection.len() > 0 || d.selection.snap.selection.len() > 0 {
		d.selection.show(s)
	}
	if d.sandboxPanel != nil {
		d.sandboxPanel.show(s)
	}
	if d.asking != nil {
		d.asking.show(s)
	}
	d.quitIfDone(s)
	title := say("ui.app")
	if t := s.totals; t.Active > 0 && t.Bytes > 0 {
		title = say("ui.title.progress", "Percent", speaking().Percent(float64(int(overallValue(t)*100))/100), "Done", t.Done, "N", t.Files)
	}
	if d.win.Title() != title {
		d.win.SetTitle(title)
	}
}

// redraw draws the last reading again with the user's latest choices: a
// selection, a removal or its Undo shows at once.
func (d *desk) redraw() { d.draw(d.shots.again(d.now())) }

// selectRows makes sel the selection.
func (d *desk) selectRows(sel selection) {
	d.shots.choose(sel)
	d.redraw()
}

// removeRows takes rows off the list at once, with an Undo.
func (d *desk) removeRows(views []engine.JobView) { d.removals.remove(views) }

// undoRemoval brings the last removed rows back.
func (d *desk) undoRemoval() { d.removals.undo() }

// forget makes the queue forget removed jobs, off the UI goroutine.
func (d *desk) forget(ids []engine.JobID, done func()) {
	d.background(func(context.Context) {
		for _, id := range ids {
			if err := d.q.Remove(id); err != nil {
				d.log.Info("remove refused", "job", id, "err", err)
			}
		}
		d.resample.Store(true)
		d.later(done)
	})
}

// doAll does a to every file that allows it, off the UI goroutine.
func (d *desk) doAll(a allAction) {
	f := map[allAction]func(){pauseEvery: d.q.PauseAll, resumeEvery: d.q.ResumeAll, retryFailed: d.q.RetryFailed, clearFinished: d.q.ClearFinished}[a]
	d.background(func(context.Context) { f() })
}

// do takes one of the actions the engine allows a job: signing in goes
// through the browser first, removing comes with an Undo.
func (d *desk) do(v engine.JobView, a engine.Action) {
	switch a {
	case engine.SignIn:
		d.bar.signInFor(v) // the engine's part follows the browser's
	case engine.Remove:
		d.removeRows([]engine.JobView{v})
	default:
		d.act(a, v)
	}
}

// thumbnail gives a picture's thumbnail; done is false while it is being made.
func (d *desk) thumbnail(v engine.JobView) (image.Image, bool) { return d.thumbs.get(v) }

// act does a job action off the UI goroutine; a refusal is said in words.
func (d *desk) act(a engine.Action, v engine.JobView) {
	d.background(func(context.Context) {
		err := d.q.Do(v.ID, a)
		if err == nil || errors.Is(err, engine.ErrNoJob) {
			return
		}
		d.log.Info("action refused", "action", a, "job", v.ID, "err", err)
		d.later(func() {
			d.tell(say("ui.action.refused", "Action", speaking().Action(string(a)), "File", isolate(v.Name), "Why", errorWords(err)))
		})
	})
}

// tell shows a sentence at the top of the window until the next one.
func (d *desk) tell(msg string) {
	d.message.SetText(sentence(msg))
	d.message.Show()
}

// notify tells the user outside the window that a batch ended or a file needs them.
func (d *desk) notify(ev engine.Event) {
	title := say("ui.app")
	msg := eventWords(ev, d.shots.last)
	if msg == "" {
		return // a file no longer on the list
	}
	if ev.Kind == engine.NeedsAttention || ev.Kind == engine.SaveFailed {
		title = say("ui.notify.needsYou")
		d.tell(msg)
	}
	d.app.SendNotification(fyne.NewNotification(title, msg))
}

// add queues paths for the current destination, off the UI goroutine, and
// says what was left out.
func (d *desk) add(paths []string) {
	if len(paths) == 0 {
		return
	}
	d.stayOpen() // more files: the user is back, Hoist stays open after them
	// One batch's files are listed as people count: doc_2 before doc_10.
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, media.ComparePaths)
	target := d.dest
	if err := target.Validate(); err != nil {
		d.tell(say("ui.add.finishForm", "Why", errorWords(err)))
		d.bar.showForm(target, true)
		return
	}
	d.background(func(context.Context) {
		res := d.q.Add(paths, target)
		var notes []string
		if n := len(res.Skipped); n > 0 {
			names := make([]string, 0, 3)
			for _, s := range res.Skipped[:min(n, 3)] {
				names = append(names, say("ui.add.skippedName", "File", isolate(filepath.Base(s.Path)), "Why", skipWords(s)))
			}
			list := strings.Join(names, say("ui.comma"))
			if n > 3 {
				list = say("ui.add.andMore", "List", list, "N", n-3)
			}
			notes = append(notes, say("ui.add.skipped", "N", n, "List", list))
		}
		for _, p := range res.Problems {
			notes = append(notes, errorWords(p))
		}
		if len(res.IDs) == 0 && len(notes) == 0 {
			notes = append(notes, say("ui.add.nothing")) // empty folders: say so, never nothing
		}
		d.log.Info("files added", "jobs", len(res.IDs), "skipped", len(res.Skipped), "problems", len(res.Problems))
		if len(notes) > 0 {
			d.later(func() { d.tell(strings.Join(notes, " ")) })
		}
	})
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// dropped takes files and folders dropped anywhere on the window.
func (d *desk) dropped(_ fyne.Position, uris []fyne.URI) { d.takeDrop(uris) }

// destinationChanged is called when the user picks another destination.
func (d *desk) destinationChanged() {
	d.message.Hide() // it spoke of the last destination
	d.message.SetText("")
	if d.sandboxPanel != nil {
		d.sandboxPanel.refresh()
	}
}

// showResult shows what the server made of a finished file, with a copy button
// and, where there is a link, a way to open it.
func (d *desk) showResult(v engine.JobView) {
	r := v.Result
	if r == nil {
		d.open(newSentenceDialog(v.Name, say("ui.result.none"), d.win))
		return
	}
	rows := container.NewVBox()
	field := func(label, value string) {
		if value == "" {
			return
		}
		shown := widget.NewLabel(value) // readable and selectable, where a disabled entry would grey it out
		shown.Selectable = true
		shown.Truncation = fyne.TextTruncateEllipsis
		copyButton := newIconButton(visual(say("ui.copy")), theme.ContentCopyIcon(), func() {
			d.app.Clipboard().SetContent(value)
			d.tell(say("ui.copied", "What", label))
		})
		rows.Add(newBidiLabel(label))
		rows.Add(border(nil, nil, nil, copyButton, shown))
	}
	if resultWords(r) != "" {
		rows.Add(newBidiParagraph(resultWords(r)))
	}
	field(idLabel(v), r.ID)
	field(say("ui.result.thread"), r.ThreadID)
	field(say("ui.result.name"), r.Name)
	field(say("ui.result.link"), r.URL)
	if u, err := url.Parse(r.URL); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		rows.Add(newIconButton(visual(say("ui.browser.open")), theme.ComputerIcon(), func() {
			if err := d.app.OpenURL(u); err != nil {
				d.tell(say("ui.browser.failed", "Why", errorWords(err)))
			}
		}))
	}
	dlg := newInfoDialog(v.Name, visual(say("ui.close")), rows, d.win)
	dlg.Resize(d.fit(fyne.NewSize(520, 0)))
	d.open(dlg)
}

// idLabel is what the result's id is called at the job's destination.
func idLabel(v engine.JobView) string { return speaking().IDLabel(dest.Kind(v.DestKind)) }

// showDetails shows a row's whole state, which the row may have cut short.
func (d *desk) showDetails(v engine.JobView) {
	text := stateWords(v, d.now())
	if g := googleWords(v); g != "" {
		text += "\n\n" + g
	}
	if p := progressWords(v); p != "" {
		text += "\n\n" + p
		if c := confirmedWords(v); c != "" {
			text += "\n" + c
		}
	}
	text += "\n\n" + say("ui.field.file", "File", isolate(v.Path)) + "\n" + say("ui.field.size", "Size", speaking().Size(v.Size)) + "\n" + say("ui.field.to", "To", destWords(v))
	l := newBidiParagraph(text)
	dlg := newInfoDialog(v.Name, visual(say("ui.close")), l, d.win)
	dlg.Resize(d.fit(fyne.NewSize(520, 0)))
	d.open(dlg)
}

// closing asks before quitting while files are uploading; on yes it pauses
// everything, saves the list and quits within two seconds. Closing the
// window (not Ctrl+Q) with the tray at hand and the setting on offers to
// keep uploading from the tray instead.
func (d *desk) closing() { d.askQuit(true) }

func (d *desk) askQuit(closingWindow bool) {
	if d.quitting || d.asking != nil {
		return
	}
	s := d.shots.last // at most a tenth of a second old; the question follows the next ones
	if s.totals.Moving == 0 {
		d.quit()
		return
	}
	// Closing the window may keep uploading: in the tray where its icon is
	// really shown, else minimised; either way Hoist quits when they are up.
	background := closingWindow && d.settings.Background
	inTray := background && d.tray != nil && d.trayShown()
	words := func(files int) string {
		if background {
			return quitQuestion(files) + " " + backgroundHint(inTray)
		}
		return quitQuestion(files)
	}
	text := newBidiParagraph(words(s.totals.Moving))
	text.minWidth = dialogTextWidth
	var ask *question
	ask = newQuestion(quitTitle(), text, quitConfirm(), quitDismiss(),
		func(yes bool) {
			d.asking = nil
			switch {
			case yes:
				d.quit()
			case background && ask.dismissed: // not when Escape closed the question
				d.keepUploading(inTray)
			}
		}, d.win)
	if background {
		ask.SetDismissText(backgroundDismiss())
	}
	ask.dismiss.SetIcon(theme.UploadIcon()) // it goes on uploading: no ✕
	d.asking = &quitAsk{ask: ask, text: text, words: words}
	d.open(ask)
}

// quitAsk is the question before quitting while files upload. It counts
// them from each snapshot, and once none is left to stop it goes, and
// Hoist quits as it was asked to: nothing is lost by quitting now.
type quitAsk struct {
	ask   *question
	text  *bidiParagraph
	words func(files int) string
}

func (q *quitAsk) show(s *snapshot) {
	if n := s.totals.Moving; n > 0 {
		q.text.SetText(q.words(n))
		return
	}
	q.ask.answer(true)
}

// quit pauses every upload, flushes the list and closes the window.
func (d *desk) quit() {
	d.removals.commit()
	d.saveSize()
	d.quitting = true
	d.foot.sayQuitting()
	d.background(func(context.Context) {
		ctx, cancel := context.WithTimeout(context.Background(), quitWithin)
		defer cancel()
		if err := d.q.Close(ctx); err != nil {
			d.log.Warn("closing the queue", "err", err)
		}
		d.later(d.app.Quit)
	})
}
