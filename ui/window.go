package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
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

	settings                                        settings
	bar                                             *destBar
	addButton, settingsButton                       *widget.Button
	list                                            *queueList
	thumbs                                          *thumbnails
	empty                                           fyne.CanvasObject
	overall                                         *widget.ProgressBar
	summary                                         *widget.Label
	pauseAll, resumeAll, retryFailed, clearFinished *widget.Button
	sandboxPanel                                    *sandboxPanel
	message                                         *widget.Label // the latest thing worth saying
	lastSummary                                     engine.Summary

	events   chan engine.Event // from the queue, drained by the sampler
	pending  atomic.Bool       // a sample is on its way to the UI goroutine
	work     sync.WaitGroup    // background goroutines started by the window
	quitting bool

	inboxMu sync.Mutex
	inbox   []func() // to run on the UI goroutine at the next sample

	// Owned by whoever calls collect: the sampling goroutine, or a test.
	sampler  sampler
	retrying bool
	ticks    int
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
	d.win = a.NewWindow("Hoist")
	d.win.SetIcon(iconResource)
	d.build()
	d.bar.load(opts.sandboxMode)
	d.destinationChanged()
	d.win.SetOnDropped(d.dropped)
	d.win.SetCloseIntercept(d.closing)
	d.win.Resize(fyne.NewSize(960, 640))
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
	d.addButton = widget.NewButtonWithIcon("Add files…", theme.ContentAddIcon(), d.pickFiles)
	d.addButton.Importance = widget.HighImportance
	d.settingsButton = widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), d.showSettings)
	d.bar = newDestBar(d)
	d.thumbs = newThumbnails()
	d.list = newQueueList(rowActions{
		do: func(v engine.JobView, a engine.Action) {
			if a == engine.SignIn {
				d.bar.signInFor(v) // the engine's part follows the browser's
				return
			}
			d.act(a, v)
		},
		result:  d.showResult,
		details: d.showDetails,
		thumbnail: func(v engine.JobView) (image.Image, bool) {
			return d.thumbs.get(v)
		},
	}, func() time.Time { return d.now() })
	d.list.onDelete = func(v engine.JobView) { d.act(engine.Remove, v) }

	icon := widget.NewIcon(iconResource)
	bigIcon := container.New(layout.NewGridWrapLayout(fyne.NewSquareSize(96)), icon)
	headline := widget.NewLabelWithStyle("Drop images or email files here", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	headline.SizeName = theme.SizeNameSubHeadingText
	hint := widget.NewLabelWithStyle("Or press “Add files…” (Ctrl+O). Folders work too: Hoist takes the files inside them.", fyne.TextAlignCenter, fyne.TextStyle{})
	hint.Wrapping = fyne.TextWrapWord
	addBig := widget.NewButtonWithIcon("Add files…", theme.ContentAddIcon(), d.pickFiles)
	addFolder := widget.NewButtonWithIcon("Add a folder…", theme.FolderOpenIcon(), d.pickFolder)
	d.empty = container.NewCenter(container.NewVBox(container.NewCenter(bigIcon), headline, hint, container.NewCenter(container.NewHBox(addBig, addFolder))))

	d.overall = widget.NewProgressBar()
	d.summary = widget.NewLabel("No files yet.")
	d.summary.Wrapping = fyne.TextWrapWord // "— 2 need attention" at its end must show
	d.pauseAll = widget.NewButtonWithIcon("Pause all", theme.MediaPauseIcon(), func() { d.actAll(d.q.PauseAll) })
	d.resumeAll = widget.NewButtonWithIcon("Resume all", theme.MediaPlayIcon(), func() { d.actAll(d.q.ResumeAll) })
	d.retryFailed = widget.NewButtonWithIcon("Retry failed", theme.ViewRefreshIcon(), func() { d.actAll(d.q.RetryFailed) })
	d.clearFinished = widget.NewButtonWithIcon("Clear finished", theme.ContentClearIcon(), func() { d.actAll(d.q.ClearFinished) })
	d.message = widget.NewLabel("")
	d.message.Wrapping = fyne.TextWrapWord
	d.message.Hide()

	top := container.NewVBox(
		d.bar.content,
		d.message,
		widget.NewSeparator(),
	)
	controls := container.NewHBox(d.pauseAll, d.resumeAll, d.retryFailed, d.clearFinished)
	bottom := container.NewVBox(
		widget.NewSeparator(),
		container.NewBorder(nil, nil, nil, controls, d.overall),
		d.summary,
	)
	center := container.NewStack(d.list, d.empty)
	var middle fyne.CanvasObject = center
	if d.sandbox != nil {
		d.sandboxPanel = newSandboxPanel(d)
		split := container.NewHSplit(center, d.sandboxPanel.content)
		split.Offset = 0.72
		middle = split
	}
	d.win.SetContent(container.NewBorder(top, bottom, nil, nil, middle))
	d.showSummary(engine.Summary{ETA: -1})
}

// shortcuts: Ctrl/Cmd+O adds files; Delete removes the selected row.
func (d *desk) shortcuts() {
	c := d.win.Canvas()
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) { d.pickFiles() })
	c.SetOnTypedKey(func(e *fyne.KeyEvent) {
		if e.Name == fyne.KeyDelete {
			d.list.deleteSelected()
		}
	})
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
// the queue's changed rows, thumbnails made, the queue's events, results of
// background work and what the sandbox received. It returns what to run on
// the UI goroutine, or nil when nothing changed. One goroutine at a time.
func (d *desk) collect() func() {
	var shows []func()

	d.inboxMu.Lock()
	shows = append(shows, d.inbox...)
	d.inbox = d.inbox[:0]
	d.inboxMu.Unlock()

	for drained := false; !drained; {
		select {
		case ev := <-d.events:
			shows = append(shows, func() { d.notify(ev) })
		default:
			drained = true
		}
	}

	sum := d.q.Summary()
	ready := d.thumbs.takeReady()
	if d.sampler.needed(sum, d.retrying) || len(ready) > 0 {
		views := d.q.Jobs()
		d.retrying = anyRetrying(views)
		u := d.sampler.diff(views, sum)
		if len(ready) > 0 && !u.reshaped {
			for i, v := range views {
				if _, ok := ready[v.ID]; ok {
					u.changed = append(u.changed, i)
				}
			}
		}
		shows = append(shows, func() { d.apply(u) })
	}

	if d.sandboxPanel != nil && d.ticks%5 == 0 {
		if show := d.sandboxPanel.collect(); show != nil {
			shows = append(shows, show)
		}
	}
	d.ticks++

	if len(shows) == 0 {
		return nil
	}
	return func() {
		for _, f := range shows {
			f()
		}
	}
}

// apply shows a sample; it runs on the UI goroutine.
func (d *desk) apply(u update) {
	d.list.apply(u)
	if len(u.views) == 0 {
		d.empty.Show()
		d.list.Hide()
	} else {
		d.empty.Hide()
		d.list.Show()
	}
	d.showSummary(u.summary)
}

func (d *desk) showSummary(s engine.Summary) {
	d.lastSummary = s
	d.summary.SetText(summaryWords(s))
	value := 0.0
	if s.Bytes > 0 {
		value = float64(s.BytesDone) / float64(s.Bytes)
	}
	if d.overall.Value != value {
		d.overall.SetValue(value)
	}
	title := "Hoist"
	if s.Active > 0 && s.Bytes > 0 {
		title = fmt.Sprintf("Hoist — %d%% (%d of %d files)", int(value*100), s.Done, s.Files)
	}
	d.win.SetTitle(title)
	enable(d.pauseAll, moving(d.list.views) > 0)
	enable(d.resumeAll, s.Paused > 0)
	enable(d.retryFailed, s.Failed > 0)
	enable(d.clearFinished, s.Done > 0 || s.Failed > 0)
}

func enable(b *widget.Button, on bool) {
	if on && b.Disabled() {
		b.Enable()
	} else if !on && !b.Disabled() {
		b.Disable()
	}
}

// act does a job action off the UI goroutine; a refusal is said in words.
func (d *desk) act(a engine.Action, v engine.JobView) {
	d.background(func(context.Context) {
		err := d.q.Do(v.ID, a)
		if err == nil || errors.Is(err, engine.ErrNoJob) {
			return
		}
		d.log.Info("action refused", "action", a, "job", v.ID, "err", err)
		d.later(func() { d.tell(fmt.Sprintf("Could not %s %s: %v", actionWords[a], v.Name, err)) })
	})
}

// signedIn lets the uploads of account that waited for its sign-in go on.
func (d *desk) signedIn(account string) {
	for _, v := range d.q.Jobs() {
		if v.NeedsSignIn && v.Account == account {
			d.act(engine.SignIn, v)
		}
	}
}

// actionWords say an action after "Could not".
var actionWords = map[engine.Action]string{
	engine.Pause: "pause", engine.Resume: "resume", engine.SignIn: "go on with", engine.Retry: "retry",
	engine.Restart: "start over", engine.Cancel: "cancel", engine.Remove: "remove",
}

func (d *desk) actAll(f func()) {
	d.background(func(context.Context) { f() })
}

// tell shows a sentence at the top of the window until the next one.
func (d *desk) tell(msg string) {
	d.message.SetText(sentence(msg))
	d.message.Show()
}

// notify tells the user outside the window that a batch ended or a file needs them.
func (d *desk) notify(ev engine.Event) {
	title := "Hoist"
	if ev.Kind == engine.NeedsAttention || ev.Kind == engine.SaveFailed {
		title = "Hoist needs you"
		d.tell(ev.Message)
	}
	d.app.SendNotification(fyne.NewNotification(title, ev.Message))
}

// add queues paths for the current destination, off the UI goroutine, and
// says what was left out.
func (d *desk) add(paths []string) {
	if len(paths) == 0 {
		return
	}
	target := d.bar.current
	if err := target.Validate(); err != nil {
		d.tell("Before adding files, finish the destination's settings: " + err.Error())
		d.bar.showForm(target, true)
		return
	}
	d.background(func(context.Context) {
		res := d.q.Add(paths, target)
		var notes []string
		if n := len(res.Skipped); n > 0 {
			names := make([]string, 0, 3)
			for _, s := range res.Skipped[:min(n, 3)] {
				names = append(names, filepath.Base(s.Path)+" ("+s.Why+")")
			}
			more := ""
			if n > 3 {
				more = fmt.Sprintf(" and %d more", n-3)
			}
			notes = append(notes, fmt.Sprintf("Left out %d hidden or system %s: %s%s.", n, plural(n, "file", "files"), strings.Join(names, ", "), more))
		}
		for _, p := range res.Problems {
			notes = append(notes, p.Error())
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
func (d *desk) dropped(_ fyne.Position, uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	d.add(paths)
}

// pickFiles opens the file dialog; files and folders are both accepted.
func (d *desk) pickFiles() {
	open := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		d.add([]string{path})
	}, d.win)
	open.Resize(fyne.NewSize(800, 560))
	open.Show()
}

// pickFolder opens the folder dialog; the folder's files are added.
func (d *desk) pickFolder() {
	open := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			return
		}
		d.add([]string{u.Path()})
	}, d.win)
	open.Resize(fyne.NewSize(800, 560))
	open.Show()
}

// destinationChanged is called when the user picks another destination.
func (d *desk) destinationChanged() {
	if d.sandboxPanel != nil {
		d.sandboxPanel.refresh()
	}
}

// showResult shows what the server made of a finished file, with a copy button
// and, where there is a link, a way to open it.
func (d *desk) showResult(v engine.JobView) {
	r := v.Result
	if r == nil {
		dialog.ShowInformation(v.Name, "The file was uploaded. The server sent no details.", d.win)
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
		copyButton := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
			d.app.Clipboard().SetContent(value)
			d.tell(label + " copied.")
		})
		rows.Add(widget.NewLabel(label))
		rows.Add(container.NewBorder(nil, nil, nil, copyButton, shown))
	}
	if r.Summary != "" {
		l := widget.NewLabel(r.Summary)
		l.Wrapping = fyne.TextWrapWord
		rows.Add(l)
	}
	field(idLabel(v), r.ID)
	field("Conversation ID", r.ThreadID)
	field("Asset name", r.Name)
	field("Link", r.URL)
	if u, err := url.Parse(r.URL); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		rows.Add(widget.NewButtonWithIcon("Open in the browser", theme.ComputerIcon(), func() {
			if err := d.app.OpenURL(u); err != nil {
				d.tell("Hoist could not open the browser: " + err.Error())
			}
		}))
	}
	dlg := dialog.NewCustom(v.Name, "Close", rows, d.win)
	dlg.Resize(fyne.NewSize(520, 0))
	dlg.Show()
}

func idLabel(v engine.JobView) string {
	if s := dest.Kind(v.DestKind).Info().IDLabel; s != "" {
		return s
	}
	return "ID"
}

// showDetails shows a row's whole state, which the row may have cut short.
func (d *desk) showDetails(v engine.JobView) {
	text := stateWords(v, d.now())
	if g := googleWords(v); g != "" {
		text += "\n\n" + g
	}
	if p := progressWords(v); p != "" {
		text += "\n\n" + p
	}
	text += "\n\nFile: " + v.Path + "\nSize: " + media.FormatSize(v.Size) + "\nTo: " + v.Destination
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	dlg := dialog.NewCustom(v.Name, "Close", l, d.win)
	dlg.Resize(fyne.NewSize(520, 0))
	dlg.Show()
}

// closing asks before quitting while files are uploading; on yes it pauses
// everything, saves the list and quits within two seconds.
func (d *desk) closing() {
	if d.quitting {
		return
	}
	files := moving(d.q.Jobs()) // a quick copy under the queue's lock; no waiting on uploads
	if files == 0 {
		d.quit()
		return
	}
	dialog.ShowConfirm("Pause uploads and quit?",
		fmt.Sprintf("%d %s still uploading or waiting. Hoist will pause %s now and carry on from where %s stopped when you open it again.",
			files, plural(files, "file is", "files are"), plural(files, "it", "them"), plural(files, "it", "they")),
		func(yes bool) {
			if yes {
				d.quit()
			}
		}, d.win)
}

// quit pauses every upload, flushes the list and closes the window.
func (d *desk) quit() {
	d.quitting = true
	d.summary.SetText("Pausing uploads and saving the list…")
	d.background(func(context.Context) {
		ctx, cancel := context.WithTimeout(context.Background(), quitWithin)
		defer cancel()
		if err := d.q.Close(ctx); err != nil {
			d.log.Warn("closing the queue", "err", err)
		}
		d.later(d.app.Quit)
	})
}
