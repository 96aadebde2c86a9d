package ui

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/engine/proxy"
	"hoist/ui/placement"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
	"hoist/words"
)

// desk is the main window: it builds the panels and routes between them,
// drawing each snapshot on every panel. What the panels ask for is done by
// its parts. Its fields are used on the UI goroutine only.
type desk struct {
	app     fyne.App
	win     fyne.Window
	q       *engine.Queue // safe from any goroutine
	sandbox *sandbox
	log     *slog.Logger
	now     func() time.Time

	// The parts.
	frame    *windowFrame  // dialogs, the message line, background work
	ring     *focusRing    // the ring around the focused control
	sampling *sampling     // reads the queue off the UI goroutine
	shots    *snapshots    // makes every snapshot the window draws
	removals *removals     // rows taken off the list, while Undo can bring them back
	acts     *actions      // what is done to files
	target   *target       // where files added now go
	google   *googleSide   // sign-in, saved destinations, Google's lists, the set-up
	settings *settingsSide // the settings
	files    *fileDialogs  // the system's file dialogs, or Hoist's own
	exit     *exit         // closing the window, the tray, quitting
	thumbs   *thumbnails

	sentQuestion *widgets.Question // the last question whether files already uploaded go again

	// The panels, made again when the language changes.
	bar          *destBar
	list         *queueList
	empty        fyne.CanvasObject
	foot         *footer
	selection    *selectionPanel
	sandboxPanel *sandboxPanel
	page         *container.Scroll // everything in the window
	fitChecked   fyne.Size         // the window's size when noteFit last looked
	proxyLogin   *proxyLoginDialog // the last question for an office proxy's name and password
}

type deskOptions struct {
	presets     presetStore
	auth        signIn
	sandbox     *sandbox
	sandboxMode bool
	log         *slog.Logger
	journal     string
	events      chan engine.Event
	network     *proxy.Proxies // the office's proxy (nil: none)
	asker       *proxyAsker    // the office proxy's question for a name and password, answered here
}

// newDesk builds the window; the queue and stores must be open.
func newDesk(ctx context.Context, a fyne.App, q *engine.Queue, opts deskOptions) *desk {
	d := &desk{app: a, q: q, sandbox: opts.sandbox, log: opts.log, now: time.Now}
	if d.log == nil {
		d.log = slog.New(slog.DiscardHandler)
	}
	if opts.events == nil {
		opts.events = make(chan engine.Event, 16)
	}
	d.win = a.NewWindow(say("ui.app"))
	d.win.SetIcon(iconResource)
	now := func() time.Time { return d.now() }
	f := newWindowFrame(ctx, a, d.win, d.log)
	d.frame = f
	d.thumbs = newThumbnails()
	d.removals = &removals{
		forget:  d.forget,
		after:   func(wait time.Duration, work func()) { time.AfterFunc(wait, func() { f.later(work) }) },
		changed: d.redraw,
	}
	d.shots = newSnapshots()
	d.shots.removed = d.removals
	d.target = &target{prefs: a.Preferences(), changed: d.destinationChanged}
	d.target.load(opts.sandboxMode)
	d.files = &fileDialogs{frame: f, log: d.log}
	d.files.kinds = func() []filechooser.Filter { return kindsFor(d.target.dest) }
	if opts.asker != nil {
		opts.asker.set(d.askProxyLogin)
		opts.asker.setNotice(func(err error) { f.later(func() { f.tell(errorWords(err)) }) })
	}
	d.settings = &settingsSide{frame: f, q: q, current: loadSettings(a.Preferences()), journal: opts.journal, target: d.target, speak: d.speak, network: opts.network}
	d.google = &googleSide{
		frame: f, q: q, auth: opts.auth, presets: opts.presets, sandbox: opts.sandbox, target: d.target, dialogs: d.files,
		settings: d.settings.currentSettings, bar: func() *destBar { return d.bar },
	}
	d.settings.google = d.google
	d.settings.reload = func() {
		d.bar.load()
		d.destinationChanged()
	}
	d.acts = &actions{frame: f, q: q, log: d.log, removals: d.removals, now: now, signIn: func(v engine.JobView) { d.bar.signInFor(v) }}
	d.exit = &exit{
		frame: f, q: q, removals: d.removals, add: d.add,
		last:     func() *snapshot { return d.shots.last },
		settings: d.settings.currentSettings,
		foot:     func() *footer { return d.foot },
		doAll:    d.acts.doAll,
		saveSize: func() { placement.SaveSize(a.Preferences(), d.win.Canvas().Size()) },
	}
	d.ring = newFocusRingLayer(f, func() []*container.Scroll { return []*container.Scroll{d.page, d.selection.scroll()} })
	d.sampling = &sampling{
		q: q, frame: f, thumbs: d.thumbs, events: opts.events, ring: d.ring, now: now,
		draw: func(r reading) {
			s := d.shots.make(r)
			d.draw(s)
			d.noteFit(s.reshaped)
		},
		notify: d.notify,
	}
	if d.sandbox != nil {
		d.sampling.watch = newReceiptsWatch(d.sandbox, d.log)
	}
	d.build()
	d.bar.load()
	d.destinationChanged()
	d.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { d.takeDrop(uris) })
	d.win.SetCloseIntercept(d.exit.closing)
	d.exit.useTray()
	d.win.Resize(placement.WindowSize(placement.SavedSize(a.Preferences()), placement.Screen{}))
	d.shortcuts()
	return d
}

func (d *desk) build() {
	f := d.frame
	d.bar = newDestBar(barSide{f, d.target, d.google, d.settings, filesAdder{d.files, d.add}})
	rows := listSide{d.acts, d.thumbs, d.removals, d.selectRows, d.openMailbox}
	d.list = newQueueList(rows)
	d.selection = newSelectionPanel(d.acts)

	icon := widget.NewIcon(iconResource)
	bigIcon := container.New(layout.NewGridWrapLayout(fyne.NewSquareSize(96)), icon)
	headline := widget.NewLabelWithStyle(visual(say("ui.empty.headline")), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	headline.SizeName = theme.SizeNameSubHeadingText
	hint := widgets.NewParagraph(say("ui.empty.hint"))
	hint.SetAlignment(fyne.TextAlignCenter)
	add := filesAdder{d.files, d.add}
	addBig := widgets.NewIconButton(visual(say("ui.add.files")), theme.ContentAddIcon(), add.pickFiles)
	addFolder := widgets.NewIconButton(visual(say("ui.add.folder")), theme.FolderOpenIcon(), add.pickFolder)
	d.empty = container.NewCenter(container.NewVBox(container.NewCenter(bigIcon), headline, hint, widgets.Flow(fyne.TextAlignCenter, addBig, addFolder)))

	d.foot = newFooter(footerSide{d.acts, d.removals})
	f.message = widgets.NewParagraph("") // names files: "نامه مشتری.eml" reads right
	f.message.Hide()

	top := container.NewVBox(d.bar.content, widget.NewSeparator())
	center := container.NewStack(d.list, d.list.wheelLayer, d.empty)
	var side fyne.CanvasObject = d.selection.content
	if d.sandbox != nil {
		d.sandboxPanel = newSandboxPanel(sandboxSide{f, d.target})
		split := container.NewVSplit(d.selection.content, d.sandboxPanel.content)
		split.Offset = 0.6
		// The two panels scroll together where the window is too low for
		// both (200 % on a small laptop), rather than the whole window, so
		// that the totals and the all-files buttons stay on screen.
		side = container.NewVScroll(split)
	}
	middle := container.NewHSplit(center, side)
	middle.Offset = 0.7
	if rtl() { // the list on the reading side, the selection beyond it
		middle = container.NewHSplit(side, center)
		middle.Offset = 0.3
	}
	// In a scroll, the window can be smaller than its controls: on a small
	// screen or a large scale, everything stays reachable, the status line too.
	// The message line sits above the totals: as it comes and goes the
	// list ends higher or lower, but no row moves under the pointer.
	bottom := container.NewVBox(f.message, d.foot.content)
	d.page = container.NewScroll(container.NewBorder(top, bottom, nil, nil, middle))
	d.win.SetContent(container.New(&widgets.WidthFirst{}, d.page, d.ring.layer))
	d.draw(d.shots.last)
}

// rebuild builds the window's content again, in the language spoken now
// (Settings changed it): the open dialogs close, the settings open again in
// the new language, and the list, its selection and the destination stay.
func (d *desk) rebuild() {
	d.frame.closeDialogs()
	d.build()
	d.bar.load()
	d.destinationChanged()
	last := *d.shots.last
	last.reshaped = true // every panel is new: each draws everything
	d.draw(&last)
	d.settings.showSettings()
}

// shortcuts: Ctrl/Cmd+O adds files, Ctrl/Cmd+Q quits through the same
// question as closing the window, Ctrl/Cmd+A selects every row, Delete
// removes the selected rows, Ctrl/Cmd+Z brings them back, Escape closes the
// dialog on top and Enter presses its default button.
func (d *desk) shortcuts() {
	c := d.win.Canvas()
	add := filesAdder{d.files, d.add}
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { add.pickFiles() })
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.exit.askQuit(false) })
	c.AddShortcut(&fyne.ShortcutSelectAll{}, func(fyne.Shortcut) { d.list.selectAll() })
	c.AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { d.removals.undoRemoval() })
	c.SetOnTypedKey(func(e *fyne.KeyEvent) { // the keys no focused control took
		switch e.Name {
		case fyne.KeyEscape:
			d.frame.closeTopDialog()
		case fyne.KeyReturn, fyne.KeyEnter:
			d.frame.pressDefault()
		case fyne.KeyDelete:
			d.list.deleteSelected()
		}
	})
}

// start begins sampling the queue; it returns at once.
func (d *desk) start() {
	d.thumbs.start(d.frame.ctx)
	d.frame.background(d.sampling.run)
}

// close stops background work; it is called once the window is gone.
func (d *desk) close() {
	d.frame.end()
	d.thumbs.wait()
}

// draw puts snapshot s on every panel; it runs on the UI goroutine.
func (d *desk) draw(s *snapshot) {
	d.list.show(s)
	wasEmpty := d.empty.Visible()
	showIf(d.empty, len(s.rows) == 0)
	showIf(d.list, len(s.rows) > 0)
	if d.empty.Visible() != wasEmpty && d.page != nil {
		// The empty window's words may be taller than the list needs: the
		// page is laid out again, so the totals are not left below the edge.
		d.page.Refresh()
	}
	d.foot.show(s)
	if s.selection.len() > 0 || d.selection.snap.selection.len() > 0 {
		d.selection.show(s)
	}
	if d.sandboxPanel != nil {
		d.sandboxPanel.show(s)
	}
	d.exit.show(s)
	title := say("ui.app")
	if t := s.totals; t.Active > 0 && t.Bytes > 0 {
		title = say("ui.title.progress", "Percent", speaking().Percent(float64(int(overallValue(t)*100))/100), "Done", t.Done, "N", t.Files)
	}
	if d.win.Title() != title {
		d.win.SetTitle(title)
	}
}

// noteFit notes in the log when the window's content is wider than the
// window, which then scrolls sideways: at no scale and on no screen should
// it (the real-window test looks for the note). It looks at the sampler's
// readings, when the window's size changed or rows came or went.
func (d *desk) noteFit(reshaped bool) {
	size := d.page.Size()
	if size.Width <= 0 || (size == d.fitChecked && !reshaped) {
		return
	}
	d.fitChecked = size
	if need := d.page.Content.MinSize().Width; need > size.Width+0.5 {
		d.log.Warn("the window's content is wider than the window: it scrolls sideways", "window", size.Width, "canvas", d.win.Canvas().Size().Width, "content", need)
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

// openMailbox lists a mailbox's emails under its row, or no longer.
func (d *desk) openMailbox(id engine.JobID) {
	d.shots.toggle(id)
	d.redraw()
}

// forget makes the queue forget removed jobs, off the UI goroutine.
func (d *desk) forget(ids []engine.JobID, done func()) {
	d.frame.background(func(context.Context) {
		for _, id := range ids {
			if err := d.q.Do(id, engine.Remove); err != nil {
				d.log.Info("remove refused", "job", id, "err", err)
			}
		}
		d.sampling.resample.Store(true)
		d.frame.later(done)
	})
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
		d.frame.tell(msg)
	}
	if !canNotify() {
		return // no session bus, so nobody to show it: the window says what matters
	}
	d.app.SendNotification(fyne.NewNotification(title, msg))
}

// add queues paths for the current destination, off the UI goroutine, and
// says what was left out.
func (d *desk) add(paths []string) {
	if len(paths) == 0 {
		return
	}
	d.exit.stayOpen() // more files: the user is back, Hoist stays open after them
	// One batch's files are listed as people count: doc_2 before doc_10.
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, media.ComparePaths)
	target := d.target.dest
	d.frame.background(func(context.Context) {
		res := d.q.Add(paths, target) // checks the destination's settings once, then each file
		if len(res.Problems) == 1 && errors.Is(res.Problems[0], dest.ErrInvalid) {
			why := errorWords(res.Problems[0])
			d.frame.later(func() {
				d.frame.tell(say("ui.add.finishForm", "Why", why))
				d.bar.showForm(target, true)
			})
			return
		}
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
		var sent []*engine.AlreadySent
		for _, p := range res.Problems {
			var s *engine.AlreadySent
			if errors.As(p, &s) {
				sent = append(sent, s) // the user chooses: skip (the default) or send again
				continue
			}
			notes = append(notes, errorWords(p))
		}
		if len(sent) > 0 {
			d.frame.later(func() { d.askAgain(sent, target) })
		}
		if len(res.IDs) == 0 && len(notes) == 0 && len(sent) == 0 {
			notes = append(notes, say("ui.add.nothing")) // empty folders: say so, never nothing
		}
		d.log.Info("files added", "jobs", len(res.IDs), "skipped", len(res.Skipped), "problems", len(res.Problems))
		if len(notes) > 0 {
			d.frame.later(func() { d.frame.tell(strings.Join(notes, " ")) })
		}
	})
}

// askAgain asks whether files already uploaded whole to the same place go
// again: Skip, the default (Enter, Escape), leaves them; Send again adds
// them anyway.
func (d *desk) askAgain(sent []*engine.AlreadySent, target dest.Destination) {
	lines := make([]string, 0, 3)
	for _, s := range sent[:min(len(sent), 3)] {
		lines = append(lines, errorWords(s))
	}
	list := strings.Join(lines, " ")
	if len(sent) > 3 {
		list = say("ui.add.andMore", "List", list, "N", len(sent)-3)
	}
	var ask *widgets.Question
	ask = widgets.NewQuestion(say("ui.add.sentTitle"), widgets.SentenceBox(say("ui.add.sentAsk", "List", list)),
		say("ui.add.skipSent"), say("ui.add.sendAgain"), func(skip bool) {
			if skip || !ask.Dismissed {
				return // skipped, by the button or by closing the question
			}
			paths := make([]string, len(sent))
			for i, s := range sent {
				paths[i] = s.Path
			}
			d.frame.background(func(context.Context) {
				res := d.q.AddAgain(paths, target)
				d.log.Info("files sent again", "jobs", len(res.IDs), "problems", len(res.Problems))
				if len(res.Problems) > 0 {
					notes := make([]string, len(res.Problems))
					for i, p := range res.Problems {
						notes[i] = errorWords(p)
					}
					d.frame.later(func() { d.frame.tell(strings.Join(notes, " ")) })
				}
			})
		}, d.frame.win)
	ask.Dismiss.SetIcon(theme.UploadIcon())
	d.frame.open(ask)
	d.sentQuestion = ask
}

// destinationChanged is called when the user picks another destination.
func (d *desk) destinationChanged() {
	d.frame.unsay("") // it spoke of the last destination
	if d.sandboxPanel != nil {
		d.sandboxPanel.refresh()
	}
}

// speak switches the window to l at once: its words, its numbers and its
// reading direction. The window's content is built again in l; the list,
// the selection and the destination stay as they were.
func (d *desk) speak(l *words.Lang) {
	if l.Tag() == speaking().Tag() {
		return
	}
	if err := UseLanguage(l); err != nil {
		d.log.Warn("the toolkit's own words are missing", "err", err)
	}
	d.rebuild()
}
