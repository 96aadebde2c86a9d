// Package ui is Hoist's desktop window: drop files, choose where they go,
// watch them upload, pause, resume, retry. It is the only package that
// imports Fyne; the uploading itself is the engine's.
package ui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"

	"hoist/auth"
	"hoist/dirs"
	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/proxy"
	"hoist/ui/destination"
	"hoist/ui/display"
	"hoist/ui/handover"
	"hoist/ui/look"
	"hoist/ui/placement"
	"hoist/ui/received"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

// AppID is the application's identifier (preferences, notifications, desktop file).
const AppID = "app.hoist.desktop"

// Config is how the window is opened.
type Config struct {
	// Files are queued as soon as the window opens (from the command line or
	// the file manager).
	Files []string
	// Sandbox opens the window with the built-in sandbox as the destination.
	Sandbox bool
	// Logger receives the window's and the engine's log; nil means text on
	// standard error at level Info.
	Logger *slog.Logger
	// Dir holds the upload list, saved destinations and Google sign-in
	// settings; "" means Hoist's folders on this system (dirs).
	Dir string
	// SandboxDir keeps the built-in sandbox's files; "" means Hoist's data
	// folder.
	SandboxDir string
	// Stderr receives what cannot be shown in a window; nil means os.Stderr.
	Stderr io.Writer
}

// windowLogger is the log of the window and everything under it: the given
// one, or text on stderr, with every secret (tokens, session addresses)
// scrubbed whatever the caller passed.
func windowLogger(given *slog.Logger, stderr io.Writer) *slog.Logger {
	if given == nil {
		given = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	return slog.New(auth.RedactingHandler(given.Handler()))
}

// Run opens the window and returns the process's exit status when it closes.
// When another Hoist window is open, the files are handed to it instead.
func Run(ctx context.Context, cfg Config) int {
	limitMemory(os.Getenv)
	stderr := cfg.Stderr
	if stderr == nil {
		stderr = os.Stderr
	}
	log := windowLogger(cfg.Logger, stderr)
	where, err := sessionFolders(cfg)
	if err != nil {
		fmt.Fprintf(stderr, "hoist: %v\n", err)
		return 1
	}

	claim, other, alone := claimWindow(handover.Listen, where.Config)
	if other {
		return handOver(ctx, where.Config, cfg.Files, stderr)
	}
	if alone != nil {
		// Without the hand-over this window still works; only files opened
		// while it runs start another Hoist, which then says Hoist is running.
		log.Warn("other Hoist windows cannot hand files to this one", "err", alone)
	} else {
		defer claim.Close()
	}
	if !display.Found(os.Getenv) {
		// Said in the system's language: the Settings' choice lives with the toolkit, which cannot start.
		fmt.Fprintf(stderr, "hoist: %s\n", words.FromSystem("").Say("ui.noDesktop", words.Args{"Command": "hoist send"}))
		return 1
	}
	a := app.NewWithID(AppID)
	a.SetIcon(look.IconResource)
	// The window speaks the language chosen in Settings, else the system's.
	if err := view.UseLanguage(words.FromSystem(view.LoadSettings(a.Preferences()).Language)); err != nil {
		log.Warn("the toolkit's own words are missing", "err", err)
	}

	s, err := openSession(ctx, cfg, where, log)
	if err != nil {
		return failWindow(a, view.Say("ui.failed.start"), err)
	}
	defer s.Close(log)

	a.Settings().SetTheme(look.NewTheme(view.LoadSettings(a.Preferences()).Theme))
	d := newDesk(ctx, a, s.queue, deskOptions{
		presets: s.presets, auth: s.auth, sandbox: s.sandbox, sandboxMode: cfg.Sandbox,
		log: log, journal: s.journal.Path(), events: s.events, network: s.network, asker: &s.asker,
	})
	tellStartupNews(d, s, alone != nil)
	placement.Place(d.win, a.Preferences(), placement.PrimaryScreen(os.Getenv))
	d.Start()
	d.Add(cfg.Files)

	stopServing := serveHandOvers(ctx, d, claim, log)
	// An interrupt from the terminal quits as the window's close button would, without asking.
	stopOnSignal := context.AfterFunc(ctx, func() { fyne.Do(d.exit.quit) })

	started := time.Now()
	a.Lifecycle().SetOnStarted(func() {
		d.takeMailDrags(where.Dropped) // the window is shown: it has its handle
		d.frame.Background(s.tidy(log))
		d.frame.Background(func(context.Context) {
			if err := tidyDropped(where.Dropped, started, s.queue.Jobs); err != nil {
				log.Warn("could not remove the copies of dragged items already uploaded", "err", err)
			}
		})
	})
	d.win.ShowAndRun()

	stopOnSignal()
	stopServing()
	d.Close()
	return 0
}

// tellStartupNews says what the window learned while opening the session:
// damaged or set-aside uploads, a missing hand-over, moved destinations.
func tellStartupNews(d *desk, s *session, alone bool) {
	d.google.StartupProblems(s.problems) // said first: a damaged upload list is the more urgent news
	if backup, why := s.journal.Recovered(); backup != "" {
		// why is a plain sentence that names the backup: the whole list may
		// have been set aside, or only some damaged uploads left out.
		d.frame.Tell(view.ErrorWords(why))
	}
	if alone {
		d.frame.Tell(aloneNote())
	}
	if n := s.notices(); len(n) > 0 {
		d.frame.Tell(strings.Join(n, " ")) // said once: e.g. destinations moved to a current API version
	}
}

// serveHandOvers lets other Hoist windows hand their files and quit
// requests to this one until the returned stop is called; stop waits for
// the serving goroutine to end.
func serveHandOvers(ctx context.Context, d *desk, claim *handover.Claim, log *slog.Logger) (stop func()) {
	if claim != nil {
		d.exit.answerQuitRequests(claim)
	}
	serveCtx, stopServing := context.WithCancel(ctx)
	served := make(chan struct{})
	go func() {
		defer close(served)
		if claim == nil {
			return
		}
		err := claim.Serve(serveCtx, func(paths []string) {
			d.frame.Later(func() { d.exit.handedOver(paths) })
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			log.Warn("other Hoist windows cannot hand files over", "err", err)
		}
	}()
	return func() {
		stopServing()
		<-served
	}
}

// windowMemoryLimit is the window's soft limit for the Go runtime's memory.
// Without one the runtime lets the heap grow to twice what is alive before
// it collects, so reading a long upload list, or sending thousands of files,
// leaves a peak of garbage twice the list's size; with it the runtime
// collects sooner as the limit nears (at some CPU while the list is read).
// The window of an empty list holds about half of it.
const windowMemoryLimit = 96 << 20

// windowGCPercent is how much the window's heap may grow past what is alive
// before the runtime collects: half of it (the runtime's default is all of
// it). The window allocates little once it is up, so this costs CPU only
// while much is allocated, and keeps the garbage of building the window and
// reading the list from doubling what is resident.
const windowGCPercent = 50

// limitMemory sets windowMemoryLimit and windowGCPercent, unless the user
// set GOMEMLIMIT or GOGC.
func limitMemory(getenv func(string) string) {
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(windowMemoryLimit)
	}
	if getenv("GOGC") == "" {
		debug.SetGCPercent(windowGCPercent)
	}
}

// aloneNote tells the user that this window cannot take files from another
// Hoist (the hand-over failed to start), so it runs on its own.
func aloneNote() string { return view.Say("ui.alone") }

// folders are where one window's files live.
type folders struct {
	Config  string // settings, saved destinations, sign-in, the hand-over
	Journal string // the upload list
	Sandbox string // the built-in sandbox's received files
	Dropped string // copies of what mail programs dragged onto the window, until uploaded
	// OwnSandbox is this user's own sandbox address; "" is
	// emulator.UserAddr(). Tests give one of their own, so that they never
	// depend on no Hoist of the same user holding the user's port.
	OwnSandbox string
}

// sessionFolders are cfg's folders: all in cfg.Dir when it is given,
// otherwise this system's (dirs).
func sessionFolders(cfg Config) (folders, error) {
	f := folders{Config: cfg.Dir, Journal: cfg.Dir, Sandbox: cfg.SandboxDir}
	if cfg.Dir != "" {
		f.Dropped = filepath.Join(cfg.Dir, droppedFolder)
	}
	if f.Config != "" && f.Sandbox != "" {
		return f, nil
	}
	sys, err := dirs.Current()
	if err != nil {
		return folders{}, err
	}
	if f.Config == "" {
		f.Config, f.Journal = sys.Config, sys.Journal
	}
	if f.Sandbox == "" {
		f.Sandbox = filepath.Join(sys.Data, "sandbox")
	}
	if f.Dropped == "" {
		f.Dropped = filepath.Join(sys.Data, droppedFolder)
	}
	return f, nil
}

// claimWindow makes this process the window other Hoists hand their files
// to, with listen (handover.Listen). other: another window holds the claim,
// so the files go to it. alone: the hand-over could not start (no socket,
// no port), which never stops the window: it runs on its own.
func claimWindow(listen func(dir string) (*handover.Claim, error), dir string) (c *handover.Claim, other bool, alone error) {
	c, err := listen(dir)
	switch {
	case errors.Is(err, handover.ErrInUse):
		return nil, true, nil
	case err != nil:
		return nil, false, err
	}
	return c, false, nil
}

// handOver gives the files to the Hoist window already open.
func handOver(ctx context.Context, dir string, files []string, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := handover.Hand(ctx, dir, files); err != nil {
		fmt.Fprintln(stderr, view.Say("ui.handOverFailed"))
		return 1
	}
	if len(files) > 0 {
		fmt.Fprintln(stderr, view.Say("ui.handedOver", "N", len(files)))
	}
	return 0
}

// failWindow shows why Hoist could not start, in a small window, and returns 1.
func failWindow(a fyne.App, what string, err error) int {
	w := a.NewWindow(view.Say("ui.app"))
	msg := widgets.NewParagraph(what + "\n\n" + view.ErrorWords(err))
	w.SetContent(container.NewBorder(nil, container.NewCenter(widgets.NewButton(view.Visual(view.Say("ui.close")), a.Quit)), nil, nil, msg))
	w.Resize(fyne.NewSize(480, 220))
	w.ShowAndRun()
	return 1
}

// notices are the sentences the saved destinations and the queue have to
// say once at start.
func (s *session) notices() []string {
	var out []string
	if p, ok := s.presets.(interface{ Notice() *fact.Fact }); ok && p.Notice() != nil {
		out = append(out, view.Speaking().Fact(*p.Notice()))
	}
	for _, f := range s.queue.Notices() {
		out = append(out, view.Speaking().Fact(f))
	}
	return out
}

// session is what the window works with, opened before it shows.
type session struct {
	journal *journal.Journal
	queue   *engine.Queue
	sandbox *received.Sandbox
	presets destination.PresetStore
	auth    *auth.Service
	events  chan engine.Event
	// problems with the organisation's folder, said when the window opens
	problems []error
	withdraw func()         // takes back the sandbox's announced address
	network  *proxy.Proxies // the office's proxy, as the system sets it
	asker    proxyAsker     // asks for its name and password, once the window is open
}

func openSession(ctx context.Context, cfg Config, f folders, log *slog.Logger) (*session, error) {
	s := &session{events: make(chan engine.Event, 16)}
	var err error
	// What the last run freed in the list is scrubbed once the window is up (see Run).
	s.journal, err = journal.Open(filepath.Join(f.Journal, journal.FileName), journal.Options{TidyLater: true})
	if err != nil {
		return nil, err
	}
	s.sandbox, err = received.StartSandbox(ctx, f.Sandbox, received.SandboxAddr(os.Getenv, f.OwnSandbox), log.With("part", "sandbox"))
	if err != nil {
		s.Close(log)
		return nil, fmt.Errorf("the built-in sandbox could not start: %w", err)
	}
	// The same user's `hoist send --to sandbox` finds it wherever it listens.
	if s.withdraw, err = emulator.Announce(f.Config, s.sandbox.Url); err != nil {
		log.Warn("the command line will not find the window's sandbox", "err", err)
	}
	system := dirs.System()
	s.presets, s.problems, err = destination.OpenLibrary(f.Config, system)
	if err != nil {
		log.Warn("saved destinations cannot be read", "err", err)
	}
	// Uploads, the sign-in and the pickers' lists go through the office's
	// proxy, as the system sets it; the sandbox never does.
	s.network = proxy.Find(ctx, proxy.Finder{SystemDir: system})
	s.network.Logins = auth.ProxyLogins{}
	s.network.Ask = s.asker.Ask
	netLog := log.With("part", "network")
	s.network.Notice = func(err error) {
		netLog.Warn("the proxy script cannot be used; connecting directly", "err", err)
		s.asker.Notice(err)
	}
	if s.network.Problem != nil {
		netLog.Warn("the proxy setting cannot be used; connecting directly", "err", s.network.Problem)
		s.problems = append(s.problems, s.network.Problem) // said when the window opens
	}
	netLog.Info("office network", "proxy", s.network.Setting.String())
	signIn := http.DefaultTransport.(*http.Transport).Clone()
	tuned := engine.DefaultTransport()
	if err := engine.AlsoTrust(tuned, proxy.OrganisationCertificates(system)); err != nil {
		netLog.Warn("the organisation's certificates cannot be read", "err", err)
	}
	_ = engine.AlsoTrust(signIn, proxy.OrganisationCertificates(system))
	s.auth = &auth.Service{ConfigDir: f.Config, SystemDir: system, Logger: log.With("part", "auth"),
		HTTPClient: &http.Client{Timeout: time.Minute, Transport: s.network.Apply(signIn)}}

	set := view.LoadSettings(fyne.CurrentApp().Preferences())
	// Uploads to Google and to the sandbox share one tuned transport.
	transport := s.network.Apply(tuned)
	s.queue, err = engine.Open(ctx, engine.Options{
		Transport:      transport,
		Journal:        s.journal,
		Accounts:       uploadsVia(s.auth, transport),
		SandboxURL:     s.sandbox.Url,
		Parallel:       set.Parallel,
		ChunkSize:      set.ChunkSize,
		BandwidthLimit: set.Bandwidth,
		AutoResume:     set.AutoResume,
		HistoryFor:     set.HistoryFor(),
		LeanResults:    true, // the window never shows the servers' whole answers
		Logger:         log.With("part", "queue"),
		OnEvent: func(ev engine.Event) {
			select {
			case s.events <- ev:
			default: // the window is busy; the list shows the same news
			}
		},
	})
	if err != nil {
		s.Close(log)
		return nil, err
	}
	return s, nil
}

// tidyAfter is how long after the window starts the upload list is tidied:
// its first frames come first.
const tidyAfter = time.Second

// tidyGCPercent is the collector's target while the list is tidied.
const tidyGCPercent = 10

// tidy scrubs from the upload list's file what the last run freed in it (a
// long list is copied into a new file), soon after the window is up.
func (s *session) tidy(log *slog.Logger) func(ctx context.Context) {
	return func(ctx context.Context) {
		select {
		case <-ctx.Done():
			return
		case <-time.After(tidyAfter):
		}
		// The copy's garbage collected as it goes, not let grow by half of
		// all that is alive: the tidy-up was the window's peak of memory.
		if os.Getenv("GOGC") == "" {
			defer debug.SetGCPercent(debug.SetGCPercent(tidyGCPercent))
		}
		if err := s.journal.Tidy(); err != nil {
			log.Warn("could not tidy the list of uploads", "err", err)
		}
	}
}

// uploadsVia is how the window's queue signs in, the same adapter as the
// command line's: the service's accounts, their clients sending through base.
func uploadsVia(svc *auth.Service, base http.RoundTripper) engine.Accounts {
	return auth.Uploads{Service: svc, Base: base}
}

func (s *session) Close(log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), quitWithin)
	defer cancel()
	if s.queue != nil {
		if err := s.queue.Close(ctx); err != nil {
			log.Warn("closing the queue", "err", err)
		}
	}
	if s.withdraw != nil {
		s.withdraw()
	}
	if s.sandbox != nil {
		if err := s.sandbox.Close(); err != nil {
			log.Warn("stopping the sandbox", "err", err)
		}
	}
	if s.journal != nil {
		if err := s.journal.Close(); err != nil {
			log.Warn("closing the upload list", "err", err)
		}
	}
}
