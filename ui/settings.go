package ui

import (
	"context"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/fact"
	"hoist/engine/proxy"
	"hoist/engine/upload"
	"hoist/ui/readingcheck"
	"hoist/ui/widgets"
	"hoist/words"
)

// Preference keys.
const (
	prefParallel   = "parallel"
	prefChunkSize  = "chunkSize"
	prefAutoResume = "autoResume"
	prefBandwidth  = "bandwidthLimit"
	prefHistory    = "historyDays"
	prefTheme      = "theme"
	prefSignInWait = "signInMinutes"
	prefBackground = "keepUploadingClosed"
	prefLanguage   = "language"
)

// settings are the user's choices, kept in Fyne's preferences.
type settings struct {
	Parallel    int   // uploads at once
	ChunkSize   int64 // bytes per request of a resumable upload; upload.ChunkAuto: sized by the link
	AutoResume  bool  // unfinished uploads continue when Hoist starts
	Bandwidth   int64 // bytes per second across all uploads; 0 = no limit
	HistoryDays int   // finished uploads are forgotten after this many days; 0 = kept
	Theme       string
	SignInWait  int    // minutes the sign-in waits for the browser to come back
	Background  bool   // closing the window while files upload keeps them uploading, from the system tray
	Language    string // words.SystemSetting, or the code of the language chosen
}

var defaultSettings = settings{
	Parallel:    6,
	ChunkSize:   upload.ChunkAuto,
	AutoResume:  true,
	HistoryDays: 30,
	Theme:       themeSystem,
	SignInWait:  int(auth.DefaultConsentTimeout / time.Minute),
	Background:  true,
	Language:    words.SystemSetting,
}

// The choices the settings offer.
var (
	parallelChoices  = []int{1, 2, 3, 4, 6, 8, 12, 16}
	chunkChoices     = []int64{upload.ChunkAuto, 256 << 10, 1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20}
	bandwidthChoices = []int64{0, 128_000, 512_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000, 25_000_000}
	historyChoices   = []int{1, 7, 30, 90, 365, 0}
	themeChoices     = []string{themeSystem, themeLight, themeDark}
	signInChoices    = []int{2, 5, 10, 15, 30}
	languageChoices  = append([]string{words.SystemSetting}, words.Codes...)
)

func loadSettings(p fyne.Preferences) settings {
	s := settings{
		Parallel:    p.IntWithFallback(prefParallel, defaultSettings.Parallel),
		ChunkSize:   int64(p.IntWithFallback(prefChunkSize, int(defaultSettings.ChunkSize))),
		AutoResume:  p.BoolWithFallback(prefAutoResume, defaultSettings.AutoResume),
		Bandwidth:   int64(p.IntWithFallback(prefBandwidth, int(defaultSettings.Bandwidth))),
		HistoryDays: p.IntWithFallback(prefHistory, defaultSettings.HistoryDays),
		Theme:       p.StringWithFallback(prefTheme, defaultSettings.Theme),
		SignInWait:  p.IntWithFallback(prefSignInWait, defaultSettings.SignInWait),
		Background:  p.BoolWithFallback(prefBackground, defaultSettings.Background),
		Language:    p.StringWithFallback(prefLanguage, defaultSettings.Language),
	}
	// A hand-edited or old preferences file must not break uploads.
	if s.Parallel < 1 || s.Parallel > 64 {
		s.Parallel = defaultSettings.Parallel
	}
	if s.ChunkSize != upload.ChunkAuto && (s.ChunkSize < 256<<10 || s.ChunkSize%(256<<10) != 0) {
		s.ChunkSize = defaultSettings.ChunkSize
	}
	if s.Bandwidth < 0 {
		s.Bandwidth = 0
	}
	if s.HistoryDays < 0 {
		s.HistoryDays = defaultSettings.HistoryDays
	}
	if !slices.Contains(themeChoices, s.Theme) {
		s.Theme = themeSystem
	}
	if s.SignInWait < 1 || s.SignInWait > 120 {
		s.SignInWait = defaultSettings.SignInWait
	}
	if !slices.Contains(languageChoices, s.Language) {
		s.Language = words.SystemSetting
	}
	return s
}

func (s settings) save(p fyne.Preferences) {
	p.SetInt(prefParallel, s.Parallel)
	p.SetInt(prefChunkSize, int(s.ChunkSize))
	p.SetBool(prefAutoResume, s.AutoResume)
	p.SetInt(prefBandwidth, int(s.Bandwidth))
	p.SetInt(prefHistory, s.HistoryDays)
	p.SetString(prefTheme, s.Theme)
	p.SetInt(prefSignInWait, s.SignInWait)
	p.SetBool(prefBackground, s.Background)
	p.SetString(prefLanguage, s.Language)
}

// signInWait is how long a sign-in waits for the browser, for auth.
func (s settings) signInWait() time.Duration {
	return time.Duration(s.SignInWait) * time.Minute
}

func minutesWords(n int) string {
	return speaking().Say("time.minutes", words.Args{"N": n})
}

// historyFor is how long finished uploads are kept, for the queue.
func (s settings) historyFor() time.Duration {
	return time.Duration(s.HistoryDays) * 24 * time.Hour
}

func bandwidthWords(bps int64) string {
	if bps == 0 {
		return say("ui.settings.noLimit")
	}
	return speaking().Speed(float64(bps))
}

func historyWords(days int) string {
	if days == 0 {
		return say("ui.settings.keep")
	}
	return say("ui.settings.days", "N", days)
}

func themeWords(t string) string {
	switch t {
	case themeLight:
		return say("ui.settings.light")
	case themeDark:
		return say("ui.settings.dark")
	}
	return say("ui.settings.systemLook")
}

func chunkWords(n int64) string {
	if n == upload.ChunkAuto {
		return say("ui.settings.autoChunk")
	}
	if n < 1<<20 {
		return say("ui.settings.kib", "N", int(n>>10))
	}
	return say("ui.settings.mib", "N", int(n>>20))
}

// choice builds a Select over values shown with words, starting at current.
func choice[T comparable](values []T, words func(T) string, current T, changed func(T)) *widgets.Select {
	labels := make([]string, len(values))
	for i, v := range values {
		labels[i] = visual(words(v))
	}
	s := widgets.NewSelect(labels, nil)
	if !slices.Contains(values, current) {
		s.SetOptions(append(labels, visual(words(current))))
		values = append(slices.Clone(values), current)
	}
	s.SetSelected(visual(words(current)))
	s.OnChanged = func(label string) {
		for _, v := range values {
			if visual(words(v)) == label {
				changed(v)
				return
			}
		}
	}
	return s
}

// settingsSide keeps the settings: it shows them, saves each change at
// once and passes it on to the queue, the theme and the language.
type settingsSide struct {
	frame   *windowFrame
	q       *engine.Queue // safe from any goroutine
	current settings
	journal string // where the list of uploads is kept
	google  *googleSide
	target  *target
	speak   func(l *words.Lang) // the window in another language
	reload  func()              // the destination bar and the panels, after a reset
	network *proxy.Proxies      // the office's proxy, as the system sets it (nil: none)
}

func (p *settingsSide) currentSettings() settings { return p.current }
func (p *settingsSide) journalPath() string       { return p.journal }

// networkWords say which proxy uploads and sign-ins go through, and where
// its setting came from.
func (p *settingsSide) networkWords() string {
	l := speaking()
	n := p.network
	set := n.Current() // with the script automatic detection found, once it has run
	if set.Origin == proxy.FromNowhere {
		return l.Say("proxy.direct", nil)
	}
	from := l.ProxyOrigin(string(set.Origin))
	var s string
	switch set.Mode {
	case proxy.Manual:
		s = l.Say("proxy.uses", words.Args{"Proxy": l.Isolate(set.Name()), "From": from})
	case proxy.Script:
		s = l.Say("proxy.script", words.Args{"Proxy": l.Isolate(set.PAC), "From": from})
		if set.PAC == "" {
			s = l.Say("proxy.detect", words.Args{"From": from})
		}
	default:
		s = l.Say("proxy.direct", nil)
	}
	for _, problem := range []error{n.Problem, n.PACProblem()} {
		if f, ok := problem.(interface{ Fact() fact.Fact }); ok {
			s = l.Join(s, l.Fact(f.Fact()))
		}
	}
	return s
}

// applySettings saves s and passes it to the queue, off the UI goroutine.
func (p *settingsSide) applySettings(s settings) {
	old := p.current
	p.current = s
	s.save(p.frame.app.Preferences())
	if s.Theme != old.Theme {
		p.frame.app.Settings().SetTheme(newTheme(s.Theme))
	}
	if s.Language != old.Language {
		p.speak(words.FromSystem(s.Language))
	}
	p.frame.background(func(context.Context) {
		if s.Parallel != old.Parallel {
			p.q.SetParallel(s.Parallel)
		}
		if s.ChunkSize != old.ChunkSize {
			p.q.SetChunkSize(s.ChunkSize)
		}
		if s.Bandwidth != old.Bandwidth {
			p.q.SetBandwidthLimit(s.Bandwidth)
		}
	})
}

// settingsPanel is what the settings dialog shows; each change is saved at once.
type settingsPanel struct {
	d       settingsController
	form    *widgets.Form
	content fyne.CanvasObject
}

func newSettingsPanel(d settingsController) *settingsPanel {
	p := &settingsPanel{d: d}
	p.form = p.makeForm()
	reset := widgets.NewButton(visual(say("ui.reset")), p.confirmReset)
	reset.Importance = widget.DangerImportance
	p.content = container.NewVBox(p.form, widget.NewSeparator(), reset)
	return p
}

// makeForm builds the settings as they are now.
func (p *settingsPanel) makeForm() *widgets.Form {
	d := p.d
	s := d.currentSettings()
	change := func(f func(*settings)) {
		next := d.currentSettings()
		f(&next)
		d.applySettings(next)
	}
	parallel := choice(parallelChoices, func(n int) string { return speaking().Int(int64(n)) }, s.Parallel,
		func(n int) { change(func(s *settings) { s.Parallel = n }) })
	chunk := choice(chunkChoices, chunkWords, s.ChunkSize,
		func(n int64) { change(func(s *settings) { s.ChunkSize = n }) })
	bandwidth := choice(bandwidthChoices, bandwidthWords, s.Bandwidth,
		func(n int64) { change(func(s *settings) { s.Bandwidth = n }) })
	history := choice(historyChoices, historyWords, s.HistoryDays,
		func(n int) { change(func(s *settings) { s.HistoryDays = n }) })
	look := choice(themeChoices, themeWords, s.Theme,
		func(t string) { change(func(s *settings) { s.Theme = t }) })
	signIn := choice(signInChoices, minutesWords, s.SignInWait,
		func(n int) { change(func(s *settings) { s.SignInWait = n }) })
	language := choice(languageChoices, languageWords, s.Language,
		func(code string) { change(func(s *settings) { s.Language = code }) })
	resume := readingcheck.New(say("ui.settings.resume"), func(on bool) {
		change(func(s *settings) { s.AutoResume = on })
	})
	resume.SetChecked(s.AutoResume)
	background := readingcheck.New(backgroundSetting(), func(on bool) {
		change(func(s *settings) { s.Background = on })
	})
	background.SetChecked(s.Background)
	where := widget.NewLabel(d.journalPath())
	where.Wrapping = fyne.TextWrapBreak
	where.Selectable = true
	network := widget.NewLabel(visual(d.networkWords()))
	network.Wrapping = fyne.TextWrapWord

	return widgets.NewForm(
		withNote(visual(say("ui.settings.language")), language, newFieldNote(say("ui.settings.languageNote"))),
		withNote(visual(say("ui.settings.parallel")), parallel, newFieldNote(say("ui.settings.parallelNote"))),
		withNote(visual(say("ui.settings.chunk")), chunk, newFieldNote(say("ui.settings.chunkNote"))),
		withNote(visual(say("ui.settings.speed")), bandwidth, newFieldNote(say("ui.settings.speedNote"))),
		&widget.FormItem{Text: visual(say("ui.settings.onStart")), Widget: resume},
		&widget.FormItem{Text: visual(say("ui.settings.onClosing")), Widget: background},
		withNote(visual(say("ui.settings.forget")), history, newFieldNote(say("ui.settings.forgetNote"))),
		&widget.FormItem{Text: visual(say("ui.settings.look")), Widget: look},
		withNote(visual(say("ui.settings.signInWait")), signIn, newFieldNote(say("ui.settings.signInWaitNote"))),
		&widget.FormItem{Text: visual(say("ui.settings.listIn")), Widget: where},
		&widget.FormItem{Text: visual(say("ui.settings.network")), Widget: network},
	)
}

// showSettings opens the settings' panel.
func (p *settingsSide) showSettings() {
	f := p.frame
	dlg := widgets.NewInfoDialog(say("ui.settings"), visual(say("ui.close")), f.scrolled(newSettingsPanel(settingsPanelSide{f, p}).content), f.win)
	dlg.Resize(f.fit(fyne.NewSize(620, 560)))
	f.open(dlg)
}

// confirmReset asks, then stops and forgets every upload, forgets saved
// destinations and restores the default settings.
func (p *settingsPanel) confirmReset() {
	d := p.d
	d.open(widgets.NewSentenceQuestion(say("ui.reset.title"), say("ui.reset.question"),
		func(yes bool) {
			if yes {
				d.reset()
			}
		}, d.window()))
}

// reset stops and forgets every upload, forgets the saved destinations
// (not the organisation's) and restores the default settings.
func (p *settingsSide) reset() {
	f, g := p.frame, p.google
	var names []string
	if g.presets != nil {
		for _, d := range g.presets.List() {
			if !g.managed(d.Name) { // the organisation's stay: only it can remove them
				names = append(names, d.Name)
			}
		}
	}
	p.applySettings(defaultSettings)
	f.app.Preferences().RemoveValue(prefDestination)
	p.target.load(false)
	f.background(func(context.Context) {
		for _, v := range p.q.Briefs() {
			if !v.State.Finished() {
				_ = p.q.Do(v.ID, engine.Cancel)
			}
			if err := p.q.Do(v.ID, engine.Remove); err != nil && err != engine.ErrNoJob {
				f.log.Warn("reset: removing an upload", "job", v.ID, "err", err)
			}
		}
		for _, n := range names {
			if err := g.presets.Delete(n); err != nil {
				f.log.Warn("reset: forgetting a destination", "err", err)
			}
		}
		f.later(func() {
			p.reload()
			f.tell(say("ui.reset.done"))
		})
	})
}

// languageWords names a language choice: the system's, or a language
// written in itself.
func languageWords(code string) string {
	if code == words.SystemSetting {
		return speaking().SystemChoice()
	}
	return words.Names[code]
}
