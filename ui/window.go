package ui

import (
	"context"
	"errors"
	"hoist/ui/destination"
	"hoist/ui/dialogs"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/received"
	"hoist/ui/settings"
	"hoist/ui/view"
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
	App     fyne.App
	Win     fyne.Window
	Queue   *engine.Queue // safe from any goroutine
	Sandbox *received.Sandbox
	Log     *slog.Logger
	Now     func() time.Time

	// The parts.
	Frame    *view.WindowFrame       // dialogs, the message line, background work
	ring     *focusRing              // the ring around the focused control
	sampling *sampling               // reads the queue off the UI goroutine
	shots    *view.Snapshots         // makes every snapshot the window draws
	Removals *view.Removals          // rows taken off the list, while Undo can bring them back
	acts     *actions                // what is done to files
	Target   *destination.Target     // where files added now go
	Google   *destination.GoogleSide // sign-in, saved destinations, Google's lists, the set-up
	Settings *settings.SettingsSide  // the settings
	files    *dialogs.FileDialogs    // the system's file dialogs, or Hoist's own
	exit     *exit                   // closing the window, the tray, quitting
	thumbs   *queuelist.Thumbnails

	sentQuestion *widgets.Question // the last question whether files already uploaded go again

	// The panels, made again when the language changes.
	Bar          *destination.DestBar
	List         *queuelist.QueueList
	empty        fyne.CanvasObject
	foot         *queuelist.Footer
	Selection    *queuelist.SelectionPanel
	SandboxPanel *received.SandboxPanel
	page         *container.Scroll // everything in the window
	fitChecked   fyne.Size         // the window's size when noteFit last looked
	proxyLogin   *proxyLoginDialog // the last question for an office proxy's name and password
}

type deskOptions struct {
	Presets     destination.PresetStore
	Auth        destination.SignIn
	Sandbox     *received.Sandbox
	sandboxMode bool
	Log         *slog.Logger
	Journal     string
	events      chan engine.Event
	Network     *proxy.Proxies // the office's proxy (nil: none)
	asker       *proxyAsker    // the office proxy's question for a name and password, answered here
}

// newDesk builds the window; the queue and stores must be open.
func newDesk(ctx context.Context, a fyne.App, q *engine.Queue, opts deskOptions) *desk {
	d := &desk{App: a, Queue: q, Sandbox: opts.Sandbox, Log: opts.Log, Now: time.Now}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if opts.events == nil {
		opts.events = make(chan engine.Event, 16)
	}
	d.Win = a.NewWindow(view.Say("ui.app"))
	d.Win.SetIcon(look.IconResource)
	now := func() time.Time { return d.Now() }
	f := view.NewWindowFrame(ctx, a, d.Win, d.Log)
	d.Frame = f
	d.thumbs = queuelist.NewThumbnails()
	d.Removals = &view.Removals{
		Forget:  d.Forget,
		After:   func(wait time.Duration, work func()) { time.AfterFunc(wait, func() { f.Later(work) }) },
		Changed: d.redraw,
	}
	d.shots = view.NewSnapshots()
	d.shots.Removed = d.Removals
	d.Target = &destination.Target{Prefs: a.Preferences(), Changed: d.destinationChanged}
	d.Target.Load(opts.sandboxMode)
	d.files = &dialogs.FileDialogs{Frame: f, Log: d.Log}
	d.files.Kinds = func() []filechooser.Filter { return dialogs.KindsFor(d.Target.Dest) }
	if opts.asker != nil {
		opts.asker.set(d.askProxyLogin)
		opts.asker.setNotice(func(err error) { f.Later(func() { f.Tell(view.ErrorWords(err)) }) })
	}
	d.Settings = &settings.SettingsSide{Frame: f, Queue: q, Current: view.LoadSettings(a.Preferences()), Journal: opts.Journal, Target: d.Target, Speak: d.Speak, Network: opts.Network}
	d.Google = &destination.GoogleSide{
		Frame: f, Queue: q, Auth: opts.Auth, Presets: opts.Presets, Sandbox: opts.Sandbox, Target: d.Target, Dialogs: d.files,
		Settings: d.Settings.CurrentSettings, Bar: func() *destination.DestBar { return d.Bar },
	}
	d.Settings.Google = d.Google
	d.Settings.Reload = func() {
		d.Bar.Load()
		d.destinationChanged()
	}
	d.acts = &actions{Frame: f, Queue: q, Log: d.Log, Removals: d.Removals, Now: now, SignIn: func(v engine.JobView) { d.Bar.SignInFor(v) }}
	d.exit = &exit{
		Frame: f, Queue: q, Removals: d.Removals, Add: d.Add,
		Last:     func() *view.Snapshot { return d.shots.Last },
		Settings: d.Settings.CurrentSettings,
		foot:     func() *queuelist.Footer { return d.foot },
		DoAll:    d.acts.DoAll,
		saveSize: func() { placement.SaveSize(a.Preferences(), d.Win.Canvas().Size()) },
	}
	d.ring = newFocusRingLayer(f, func() []*container.Scroll { return []*container.Scroll{d.page, d.Selection.Scroll()} })
	d.sampling = &sampling{
		Queue: q, Frame: f, thumbs: d.thumbs, events: opts.events, ring: d.ring, Now: now,
		draw: func(r view.Reading) {
			s := d.shots.Make(r)
			d.draw(s)
			d.noteFit(s.Reshaped)
		},
		notify: d.notify,
	}
	if d.Sandbox != nil {
		d.sampling.watch = received.NewReceiptsWatch(d.Sandbox, d.Log)
	}
	d.build()
	d.Bar.Load()
	d.destinationChanged()
	d.Win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { d.takeDrop(uris) })
	d.Win.SetCloseIntercept(d.exit.closing)
	d.exit.useTray()
	d.Win.Resize(placement.WindowSize(placement.SavedSize(a.Preferences()), placement.Screen{}))
	d.shortcuts()
	return d
}

func (d *desk) build() {
	f := d.Frame
	d.Bar = destination.NewDestBar(barSide{f, d.Target, d.Google, d.Settings, dialogs.FilesAdder{Dialogs: d.files, Add: d.Add}})
	rows := listSide{d.acts, d.thumbs, d.Removals, d.SelectRows, d.OpenMailbox}
	d.List = queuelist.NewQueueList(rows)
	d.Selection = queuelist.NewSelectionPanel(d.acts)

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

	d.foot = queuelist.NewFooter(footerSide{d.acts, d.Removals})
	f.Message = widgets.NewParagraph("") // names files: "نامه مشتری.eml" reads right
	f.Message.Hide()

	top := container.NewVBox(d.Bar.Content, widget.NewSeparator())
	center := container.NewStack(d.List, d.List.WheelLayer, d.empty)
	var side fyne.CanvasObject = d.Selection.Content
	if d.Sandbox != nil {
		d.SandboxPanel = received.NewSandboxPanel(sandboxSide{f, d.Target})
		split := container.NewVSplit(d.Selection.Content, d.SandboxPanel.Content)
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
	d.Win.SetContent(container.New(&widgets.WidthFirst{}, d.page, d.ring.layer))
	d.draw(d.shots.Last)
}

// rebuild builds the window's content again, in the language spoken now
// (Settings changed it): the open dialogs close, the settings open again in
// the new language, and the list, its selection and the destination stay.
func (d *desk) rebuild() {
	d.Frame.CloseDialogs()
	d.build()
	d.Bar.Load()
	d.destinationChanged()
	last := *d.shots.Last
	last.Reshaped = true // every panel is new: each draws everything
	d.draw(&last)
	d.Settings.ShowSettings()
}

// shortcuts: Ctrl/Cmd+O adds files, Ctrl/Cmd+Q quits through the same
// question as closing the window, Ctrl/Cmd+A selects every row, Delete
// removes the selected rows, Ctrl/Cmd+Z brings them back, Escape closes the
// dialog on top and Enter presses its default button.
func (d *desk) shortcuts() {
	c := d.Win.Canvas()
	add := dialogs.FilesAdder{Dialogs: d.files, Add: d.Add}
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { add.PickFiles() })
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.exit.askQuit(false) })
	c.AddShortcut(&fyne.ShortcutSelectAll{}, func(fyne.Shortcut) { d.List.SelectAll() })
	c.AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) { d.Removals.UndoRemoval() })
	c.SetOnTypedKey(func(e *fyne.KeyEvent) { // the keys no focused control took
		switch e.Name {
		case fyne.KeyEscape:
			d.Frame.CloseTopDialog()
		case fyne.KeyReturn, fyne.KeyEnter:
			d.Frame.PressDefault()
		case fyne.KeyDelete:
			d.List.DeleteSelected()
		}
	})
}

// start begins sampling the queue; it returns at once.
func (d *desk) Start() {
	d.thumbs.Start(d.Frame.Context)
	d.Frame.Background(d.sampling.run)
}

// close stops background work; it is called once the window is gone.
func (d *desk) Close() {
	d.Frame.End()
	d.thumbs.Wait()
}

// draw puts snapshot s on every panel; it runs on the UI goroutine.
func (d *desk) draw(s *view.Snapshot) {
	d.List.Draw(s)
	wasEmpty := d.empty.Visible()
	queuelist.ShowIf(d.empty, len(s.Rows) == 0)
	queuelist.ShowIf(d.List, len(s.Rows) > 0)
	if d.empty.Visible() != wasEmpty && d.page != nil {
		// The empty window's words may be taller than the list needs: the
		// page is laid out again, so the totals are not left below the edge.
		d.page.Refresh()
	}
	d.foot.Draw(s)
	if s.Selection.Len() > 0 || d.Selection.Snap.Selection.Len() > 0 {
		d.Selection.Draw(s)
	}
	if d.SandboxPanel != nil {
		d.SandboxPanel.Draw(s)
	}
	d.exit.Draw(s)
	title := view.Say("ui.app")
	if t := s.Totals; t.Active > 0 && t.Bytes > 0 {
		title = view.Say("ui.title.progress", "Percent", view.Speaking().Percent(float64(int(queuelist.OverallValue(t)*100))/100), "Done", t.Done, "N", t.Files)
	}
	if d.Win.Title() != title {
		d.Win.SetTitle(title)
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
		d.Log.Warn("the window's content is wider than the window: it scrolls sideways", "window", size.Width, "canvas", d.Win.Canvas().Size().Width, "content", need)
	}
}

// redraw draws the last reading again with the user's latest choices: a
// selection, a removal or its Undo shows at once.
func (d *desk) redraw() { d.draw(d.shots.Again(d.Now())) }

// selectRows makes sel the selection.
func (d *desk) SelectRows(sel view.Selection) {
	d.shots.Choose(sel)
	d.redraw()
}

// openMailbox lists a mailbox's emails under its row, or no longer.
func (d *desk) OpenMailbox(id engine.JobID) {
	d.shots.Toggle(id)
	d.redraw()
}

// forget makes the queue forget removed jobs, off the UI goroutine.
func (d *desk) Forget(ids []engine.JobID, done func()) {
	d.Frame.Background(func(context.Context) {
		for _, id := range ids {
			if err := d.Queue.Do(id, engine.Remove); err != nil {
				d.Log.Info("remove refused", "job", id, "err", err)
			}
		}
		d.sampling.resample.Store(true)
		d.Frame.Later(done)
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
		d.Frame.Tell(msg)
	}
	if !canNotify() {
		return // no session bus, so nobody to show it: the window says what matters
	}
	d.App.SendNotification(fyne.NewNotification(title, msg))
}

// add queues paths for the current destination, off the UI goroutine, and
// says what was left out.
func (d *desk) Add(paths []string) {
	if len(paths) == 0 {
		return
	}
	d.exit.stayOpen() // more files: the user is back, Hoist stays open after them
	// One batch's files are listed as people count: doc_2 before doc_10.
	paths = slices.Clone(paths)
	slices.SortStableFunc(paths, media.ComparePaths)
	target := d.Target.Dest
	d.Frame.Background(func(context.Context) {
		res := d.Queue.Add(paths, target) // checks the destination's settings once, then each file
		if len(res.Problems) == 1 && errors.Is(res.Problems[0], dest.ErrInvalid) {
			why := view.ErrorWords(res.Problems[0])
			d.Frame.Later(func() {
				d.Frame.Tell(view.Say("ui.add.finishForm", "Why", why))
				d.Bar.ShowForm(target, true)
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
			d.Frame.Later(func() { d.askAgain(sent, target) })
		}
		if len(res.IDs) == 0 && len(notes) == 0 && len(sent) == 0 {
			notes = append(notes, view.Say("ui.add.nothing")) // empty folders: say so, never nothing
		}
		d.Log.Info("files added", "jobs", len(res.IDs), "skipped", len(res.Skipped), "problems", len(res.Problems))
		if len(notes) > 0 {
			d.Frame.Later(func() { d.Frame.Tell(strings.Join(notes, " ")) })
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
			d.Frame.Background(func(context.Context) {
				res := d.Queue.AddAgain(paths, target)
				d.Log.Info("files sent again", "jobs", len(res.IDs), "problems", len(res.Problems))
				if len(res.Problems) > 0 {
					notes := make([]string, len(res.Problems))
					for i, p := range res.Problems {
						notes[i] = view.ErrorWords(p)
					}
					d.Frame.Later(func() { d.Frame.Tell(strings.Join(notes, " ")) })
				}
			})
		}, d.Frame.Win)
	ask.Dismiss.SetIcon(theme.UploadIcon())
	d.Frame.Open(ask)
	d.sentQuestion = ask
}

// destinationChanged is called when the user picks another destination.
func (d *desk) destinationChanged() {
	d.Frame.Unsay("") // it spoke of the last destination
	if d.SandboxPanel != nil {
		d.SandboxPanel.Refresh()
	}
}

// speak switches the window to l at once: its words, its numbers and its
// reading direction. The window's content is built again in l; the list,
// the selection and the destination stay as they were.
func (d *desk) Speak(l *words.Lang) {
	if l.Tag() == view.Speaking().Tag() {
		return
	}
	if err := view.UseLanguage(l); err != nil {
		d.Log.Warn("the toolkit's own words are missing", "err", err)
	}
	d.rebuild()
}
