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
	"hoist/ui/destination"
	"hoist/ui/dialogs"
	"hoist/ui/look"
	"hoist/ui/placement"
	"hoist/ui/queuelist"
	"hoist/ui/received"
	"hoist/ui/settings"
	"hoist/ui/view"
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
	sandbox *received.Sandbox
	log     *slog.Logger
	now     func() time.Time

	// The parts.
	frame    *view.WindowFrame       // dialogs, the message line, background work
	ring     *focusRing              // the ring around the focused control
	sampling *sampling               // reads the queue off the UI goroutine
	shots    *view.Snapshots         // makes every snapshot the window draws
	removals *view.Removals          // rows taken off the list, while Undo can bring them back
	acts     *actions                // what is done to files
	target   *destination.Target     // where files added now go
	google   *destination.GoogleSide // sign-in, saved destinations, Google's lists, the set-up
	settings *settings.SettingsSide  // the settings
	files    *dialogs.FileDialogs    // the system's file dialogs, or Hoist's own
	exit     *exit                   // closing the window, the tray, quitting
	thumbs   *queuelist.Thumbnails

	sentQuestion *widgets.Question // the last question whether files already uploaded go again

	// The panels, made again when the language changes.
	bar          *destination.DestBar
	list         *queuelist.QueueList
	empty        fyne.CanvasObject
	foot         *queuelist.Footer
	selection    *queuelist.SelectionPanel
	sandboxPanel *received.SandboxPanel
	page         *container.Scroll // everything in the window
	fitChecked   fyne.Size         // the window's size when noteFit last looked
	proxyLogin   *proxyLoginDialog // the last question for an office proxy's name and password
}

type deskOptions struct {
	presets     destination.PresetStore
	auth        destination.SignIn
	sandbox     *received.Sandbox
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
	d.win = a.NewWindow(view.Say("ui.app"))
	d.win.SetIcon(look.IconResource)
	now := func() time.Time { return d.now() }
	f := view.NewWindowFrame(ctx, a, d.win, d.log)
	d.frame = f
	d.thumbs = queuelist.NewThumbnails()
	d.removals = &view.Removals{
		Forget:  d.Forget,
		After:   func(wait time.Duration, work func()) { time.AfterFunc(wait, func() { f.Later(work) }) },
		Changed: d.redraw,
	}
	d.shots = view.NewSnapshots()
	d.shots.Removed = d.removals
	d.target = &destination.Target{Prefs: a.Preferences(), Changed: d.destinationChanged}
	d.target.Load(opts.sandboxMode)
	d.files = &dialogs.FileDialogs{Frame: f, Log: d.log}
	d.files.Kinds = func() []filechooser.Filter { return dialogs.KindsFor(d.target.Dest) }
	if opts.asker != nil {
		opts.asker.set(d.askProxyLogin)
		opts.asker.setNotice(func(err error) { f.Later(func() { f.Tell(view.ErrorWords(err)) }) })
	}
	d.settings = &settings.SettingsSide{Frame: f, Queue: q, Current: view.LoadSettings(a.Preferences()), Journal: opts.journal, Target: d.target, Speak: d.Speak, Network: opts.network}
	d.google = &destination.GoogleSide{
		Frame: f, Queue: q, Auth: opts.auth, Presets: opts.presets, Sandbox: opts.sandbox, Target: d.target, Dialogs: d.files,
		Settings: d.settings.CurrentSettings, Bar: func() *destination.DestBar { return d.bar },
	}
	d.settings.Google = d.google
	d.settings.Reload = func() {
		d.bar.Load()
		d.destinationChanged()
	}
	d.acts = &actions{frame: f, q: q, log: d.log, removals: d.removals, now: now, signIn: func(v engine.JobView) { d.bar.SignInFor(v) }}
	d.exit = &exit{
		frame: f, q: q, removals: d.removals, add: d.Add,
		last:     func() *view.Snapshot { return d.shots.Last },
		settings: d.settings.CurrentSettings,
		foot:     func() *queuelist.Footer { return d.foot },
		doAll:    d.acts.DoAll,
		saveSize: func() { placement.SaveSize(a.Preferences(), d.win.Canvas().Size()) },
	}
	d.ring = newFocusRingLayer(f, func() []*container.Scroll { return []*container.Scroll{d.page, d.selection.Scroll()} })
	d.sampling = &sampling{
		q: q, frame: f, thumbs: d.thumbs, events: opts.events, ring: d.ring, now: now,
		draw: func(r view.Reading) {
			s := d.shots.Make(r)
			d.draw(s)
			d.noteFit(s.Reshaped)
		},
		notify: d.notify,
	}
	if d.sandbox != nil {
		d.sampling.watch = received.NewReceiptsWatch(d.sandbox, d.log)
	}
	d.build()
	d.bar.Load()
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
	d.bar = destination.NewDestBar(barSide{f, d.target, d.google, d.settings, dialogs.FilesAdder{Dialogs: d.files, Add: d.Add}})
	rows := listSide{d.acts, d.thumbs, d.removals, d.SelectRows, d.OpenMailbox}
	d.list = queuelist.NewQueueList(rows)
	d.selection = queuelist.NewSelectionPanel(d.acts)

	icon := widget.NewIcon(look.IconResource)
	bigIcon := container.New(layout.NewGridWrapLayout(fyne.NewSquareSize(96)), icon)
	headline := widget.NewLabelWithStyle(view.Visual(view.Say("ui.empty.headline")), fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	headline.SizeName = theme.SizeNameSubHeadingText
	hint := widgets.NewParagraph(view.Say("ui.empty.hint"))
	hint.SetAlignment(fyne.TextAlignCenter)
	add := dialogs.FilesAdder{Dialogs: d.files, Add: d.Add}
	addBig := widgets.NewIconButton(view.Visual(view.Say("ui.add.files")), theme.ContentAddIcon(), add.PickFiles)
	addFolder := widgets.NewIconButton(view.Visual(view.Say("ui.add.folder")), theme.FolderOpenIcon(), add.PickFolder)
	d.empty = container.NewCenter(container.NewVBox(container.NewCenter(bigIcon), headline, hint, widgets.Flow(fyne.TextAlignCenter, addBig, addFolder)))

	d.foot = queuelist.NewFooter(footerSide{d.acts, d.removals})
	f.Message = widgets.NewParagraph("") // names files: "نامه مشتری.eml" reads right
	f.Message.Hide()

	top := container.NewVBox(d.bar.Content, widget.NewSeparator())
	center := container.NewStack(d.list, d.list.WheelLayer, d.empty)
	var side fyne.CanvasObject = d.selection.Content
	if d.sandbox != nil {
		d.sandboxPanel = received.NewSandboxPanel(sandboxSide{f, d.target})
		split := container.NewVSplit(d.selection.Content, d.sandboxPanel.Content)
		split.Offset = 0.6
		// The two panels scroll together where the window is too low for
		// both (200 % on a small laptop), rather than the whole window, so
		// that the totals and the all-files buttons stay on screen.
		side = container.NewVScroll(split)
	}
	middle := container.NewHSplit(center, side)
	middle.Offset = 0.7
	if view.Rtl() { // the list on the reading side, the selection beyond it
		middle = container.NewHSplit(side, center)
		middle.Offset = 0.3
	}
	// In a scroll, the window can be smaller than its controls: on a small
	// screen or a large scale, everything stays reachable, the status line too.
	// The message line sits above the totals: as it comes and goes the
	// list ends higher or lower, but no row moves under the pointer.
	bottom := container.NewVBox(f.Message, d.foot.Content)
	d.page = container.NewScroll(container.NewBorder(top, bottom, nil, nil, middle))
	d.win.SetContent(container.New(&widgets.WidthFirst{}, d.page, d.ring.layer))
	d.draw(d.shots.Last)
}

// rebuild builds the window's content again, in the language spoken now
// (Settings changed it): the open dialogs close, the settings open again in
// the new language, and the list, its selection and the destination stay.
func (d *desk) rebuild() {
	d.frame.CloseDialogs()
	d.build()
	d.bar.Load()
	d.destinationChanged()
	last := *d.shots.Last
	last.Reshaped = true // every panel is new: each draws everything
	d.draw(&last)
	d.settings.ShowSettings()
}

// shortcuts: Ctrl/Cmd+O adds files, Ctrl/Cmd+Q quits through the same
// question as closing the window, Ctrl/Cmd+A selects every row, Delete
// removes the selected rows, Ctrl/Cmd+Z brings them back, Escape closes the
// dialog on top and Enter presses its default button.
func (d *desk) shortcuts() {
	c := d.win.Canvas()
	add := dialogs.FilesAdder{Dialogs: d.files, Add: d.Add}
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { add.PickFiles() })
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.exit.askQuit(false) })
	c.AddShortcut(&fyne.ShortcutSelectAll{}, func(fyne.Shortcut) { d.list.SelectAll() })
	c.AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { d.removals.UndoRemoval() })
	c.SetOnTypedKey(func(e *fyne.KeyEvent) { // the keys no focused control took
		switch e.Name {
		case fyne.KeyEscape:
			d.frame.CloseTopDialog()
		case fyne.KeyReturn, fyne.KeyEnter:
			d.frame.PressDefault()
		case fyne.KeyDelete:
			d.list.DeleteSelected()
		}
	})
}

// Start begins sampling the queue; it returns at once.
func (d *desk) Start() {
	d.thumbs.Start(d.frame.Context)
	d.frame.Background(d.sampling.run)
}

// Close stops background work; it is called once the window is gone.
func (d *desk) Close() {
	d.frame.End()
	d.thumbs.Wait()
}

// draw puts snapshot s on every panel; it runs on the UI goroutine.
func (d *desk) draw(s *view.Snapshot) {
	d.list.Draw(s)
	wasEmpty := d.empty.Visible()
	queuelist.ShowIf(d.empty, len(s.Rows) == 0)
	queuelist.ShowIf(d.list, len(s.Rows) > 0)
	if d.empty.Visible() != wasEmpty && d.page != nil {
		// The empty window's words may be taller than the list needs: the
		// page is laid out again, so the totals are not left below the edge.
		d.page.Refresh()
	}
	d.foot.Draw(s)
	if s.Selection.Len() > 0 || d.selection.Snap.Selection.Len() > 0 {
		d.selection.Draw(s)
	}
	if d.sandboxPanel != nil {
		d.sandboxPanel.Draw(s)
	}
	d.exit.Draw(s)
	title := view.Say("ui.app")
	if t := s.Totals; t.Active > 0 && t.Bytes > 0 {
		title = view.Say("ui.title.progress", "Percent", view.Speaking().Percent(float64(int(queuelist.OverallValue(t)*100))/100), "Done", t.Done, "N", t.Files)
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
func (d *desk) redraw() { d.draw(d.shots.Again(d.now())) }

// SelectRows makes sel the selection.
func (d *desk) SelectRows(sel view.Selection) {
	d.shots.Choose(sel)
	d.redraw()
}

// OpenMailbox lists a mailbox's emails under its row, or no longer.
func (d *desk) OpenMailbox(id engine.JobID) {
	d.shots.Toggle(id)
	d.redraw()
}

// Forget makes the queue forget removed jobs, off the UI goroutine.
func (d *desk) Forget(ids []engine.JobID, done func()) {
	d.frame.Background(func(context.Context) {
		for _, id := range ids {
			if err := d.q.Do(id, engine.Remove); err != nil {
				d.log.Info("remove refused", "job", id, "err", err)
			}
		}
		d.sampling.resample.Store(true)
		d.frame.Later(done)
	})
}

// notify tells the user outside the window that a batch ended or a file needs them.
func (d *desk) notify(ev engine.Event) {
	title := view.Say("ui.app")
	msg := view.EventWords(ev, d.shots.Last)
	if msg == "" {
		return // a file no longer on the list
	}
	if ev.Kind == engine.NeedsAttention || ev.Kind == engine.SaveFailed {
		title = view.Say("ui.notify.needsYou")
		d.frame.Tell(msg)
	}
	if !canNotify() {
		return // no session bus, so nobody to show it: the window says what matters
	}
	d.app.SendNotification(fyne.NewNotification(title, msg))
}

// Add queues paths for the current destination, off the UI goroutine, and
// says what was left out.
func (d *desk) Add(paths []string) {
	if len(paths) == 0 {
		return
	}
	d.exit.stayOpen() // more files: the user is back, Hoist stays open after them
	// One batch's files are listed as people count: doc_2 before doc_10.
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, media.ComparePaths)
	target := d.target.Dest
	d.frame.Background(func(context.Context) {
		res := d.q.Add(paths, target) // checks the destination's settings once, then each file
		if len(res.Problems) == 1 && errors.Is(res.Problems[0], dest.ErrInvalid) {
			why := view.ErrorWords(res.Problems[0])
			d.frame.Later(func() {
				d.frame.Tell(view.Say("ui.add.finishForm", "Why", why))
				d.bar.ShowForm(target, true)
			})
			return
		}
		var notes []string
		if n := len(res.Skipped); n > 0 {
			names := make([]string, 0, 3)
			for _, s := range res.Skipped[:min(n, 3)] {
				names = append(names, view.Say("ui.add.skippedName", "File", view.Isolate(filepath.Base(s.Path)), "Why", view.SkipWords(s)))
			}
			list := strings.Join(names, view.Say("ui.comma"))
			if n > 3 {
				list = view.Say("ui.add.andMore", "List", list, "N", n-3)
			}
			notes = append(notes, view.Say("ui.add.skipped", "N", n, "List", list))
		}
		var sent []*engine.AlreadySent
		for _, p := range res.Problems {
			var s *engine.AlreadySent
			if errors.As(p, &s) {
				sent = append(sent, s) // the user chooses: skip (the default) or send again
				continue
			}
			notes = append(notes, view.ErrorWords(p))
		}
		if len(sent) > 0 {
			d.frame.Later(func() { d.askAgain(sent, target) })
		}
		if len(res.IDs) == 0 && len(notes) == 0 && len(sent) == 0 {
			notes = append(notes, view.Say("ui.add.nothing")) // empty folders: say so, never nothing
		}
		d.log.Info("files added", "jobs", len(res.IDs), "skipped", len(res.Skipped), "problems", len(res.Problems))
		if len(notes) > 0 {
			d.frame.Later(func() { d.frame.Tell(strings.Join(notes, " ")) })
		}
	})
}

// askAgain asks whether files already uploaded whole to the same place go
// again: Skip, the default (Enter, Escape), leaves them; Send again adds
// them anyway.
func (d *desk) askAgain(sent []*engine.AlreadySent, target dest.Destination) {
	lines := make([]string, 0, 3)
	for _, s := range sent[:min(len(sent), 3)] {
		lines = append(lines, view.ErrorWords(s))
	}
	list := strings.Join(lines, " ")
	if len(sent) > 3 {
		list = view.Say("ui.add.andMore", "List", list, "N", len(sent)-3)
	}
	var ask *widgets.Question
	ask = widgets.NewQuestion(view.Say("ui.add.sentTitle"), widgets.SentenceBox(view.Say("ui.add.sentAsk", "List", list)),
		view.Say("ui.add.skipSent"), view.Say("ui.add.sendAgain"), func(skip bool) {
			if skip || !ask.Dismissed {
				return // skipped, by the button or by closing the question
			}
			paths := make([]string, len(sent))
			for i, s := range sent {
				paths[i] = s.Path
			}
			d.frame.Background(func(context.Context) {
				res := d.q.AddAgain(paths, target)
				d.log.Info("files sent again", "jobs", len(res.IDs), "problems", len(res.Problems))
				if len(res.Problems) > 0 {
					notes := make([]string, len(res.Problems))
					for i, p := range res.Problems {
						notes[i] = view.ErrorWords(p)
					}
					d.frame.Later(func() { d.frame.Tell(strings.Join(notes, " ")) })
				}
			})
		}, d.frame.Win)
	ask.Dismiss.SetIcon(theme.UploadIcon())
	d.frame.Open(ask)
	d.sentQuestion = ask
}

// destinationChanged is called when the user picks another destination.
func (d *desk) destinationChanged() {
	d.frame.Unsay("") // it spoke of the last destination
	if d.sandboxPanel != nil {
		d.sandboxPanel.Refresh()
	}
}

// Speak switches the window to l at once: its words, its numbers and its
// reading direction. The window's content is built again in l; the list,
// the selection and the destination stay as they were.
func (d *desk) Speak(l *words.Lang) {
	if l.Tag() == view.Speaking().Tag() {
		return
	}
	if err := view.UseLanguage(l); err != nil {
		d.log.Warn("the toolkit's own words are missing", "err", err)
	}
	d.rebuild()
}
