// Package settings is the settings dialog and the side that keeps the
// user's choices: saved in the toolkit's preferences and passed on to the
// queue, the theme and the language at once.
package settings

import (
	"context"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/fact"
	"hoist/engine/proxy"
	"hoist/engine/upload"
	"hoist/ui/destination"
	"hoist/ui/look"
	"hoist/ui/readingcheck"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

func minutesWords(n int) string {
	return view.Speaking().Say("time.minutes", words.Args{"N": n})
}

func bandwidthWords(bps int64) string {
	if bps == 0 {
		return view.Say("ui.settings.noLimit")
	}
	return view.Speaking().Speed(float64(bps))
}

func historyWords(days int) string {
	if days == 0 {
		return view.Say("ui.settings.keep")
	}
	return view.Say("ui.settings.days", "N", days)
}

func themeWords(t string) string {
	switch t {
	case look.ThemeLight:
		return view.Say("ui.settings.light")
	case look.ThemeDark:
		return view.Say("ui.settings.dark")
	}
	return view.Say("ui.settings.systemLook")
}

func chunkWords(n int64) string {
	if n == upload.ChunkAuto {
		return view.Say("ui.settings.autoChunk")
	}
	if n < 1<<20 {
		return view.Say("ui.settings.kib", "N", int(n>>10))
	}
	return view.Say("ui.settings.mib", "N", int(n>>20))
}

// Choice builds a Select over values shown with words, starting at current.
func Choice[T comparable](values []T, words func(T) string, current T, changed func(T)) *widgets.Select {
	labels := make([]string, len(values))
	for i, v := range values {
		labels[i] = view.Visual(words(v))
	}
	s := widgets.NewSelect(labels, nil)
	if !slices.Contains(values, current) {
		s.SetOptions(append(labels, view.Visual(words(current))))
		values = append(slices.Clone(values), current)
	}
	s.SetSelected(view.Visual(words(current)))
	s.OnChanged = func(label string) {
		for _, v := range values {
			if view.Visual(words(v)) == label {
				changed(v)
				return
			}
		}
	}
	return s
}

// SettingsSide keeps the settings: it shows them, saves each change at
// once and passes it on to the queue, the theme and the language.
type SettingsSide struct {
	Frame   *view.WindowFrame
	Queue   *engine.Queue // safe from any goroutine
	Current view.Settings
	Journal string // where the list of uploads is kept
	Google  *destination.GoogleSide
	Target  *destination.Target
	Speak   func(l *words.Lang) // the window in another language
	Reload  func()              // the destination bar and the panels, after a reset
	Network *proxy.Proxies      // the office's proxy, as the system sets it (nil: none)
}

func (p *SettingsSide) CurrentSettings() view.Settings { return p.Current }
func (p *SettingsSide) JournalPath() string            { return p.Journal }

// NetworkWords say which proxy uploads and sign-ins go through, and where
// its setting came from.
func (p *SettingsSide) NetworkWords() string {
	l := view.Speaking()
	n := p.Network
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

// ApplySettings saves s and passes it to the queue, off the UI goroutine.
func (p *SettingsSide) ApplySettings(s view.Settings) {
	old := p.Current
	p.Current = s
	s.Save(p.Frame.App.Preferences())
	if s.Theme != old.Theme {
		p.Frame.App.Settings().SetTheme(look.NewTheme(s.Theme))
	}
	if s.Language != old.Language {
		p.Speak(words.FromSystem(s.Language))
	}
	p.Frame.Background(func(context.Context) {
		if s.Parallel != old.Parallel {
			p.Queue.SetParallel(s.Parallel)
		}
		if s.ChunkSize != old.ChunkSize {
			p.Queue.SetChunkSize(s.ChunkSize)
		}
		if s.Bandwidth != old.Bandwidth {
			p.Queue.SetBandwidthLimit(s.Bandwidth)
		}
	})
}

// settingsPanel is what the settings dialog shows; each change is saved at once.
type settingsPanel struct {
	Host    settingsController
	Form    *widgets.Form
	Content fyne.CanvasObject
}

func NewSettingsPanel(d settingsController) *settingsPanel {
	p := &settingsPanel{Host: d}
	p.Form = p.makeForm()
	reset := widgets.NewButton(view.Visual(view.Say("ui.reset")), p.confirmReset)
	reset.Importance = widget.DangerImportance
	p.Content = container.NewVBox(p.Form, widget.NewSeparator(), reset)
	return p
}

// makeForm builds the settings as they are now.
func (p *settingsPanel) makeForm() *widgets.Form {
	d := p.Host
	s := d.CurrentSettings()
	change := func(f func(*view.Settings)) {
		next := d.CurrentSettings()
		f(&next)
		d.ApplySettings(next)
	}
	parallel := Choice(view.ParallelChoices, func(n int) string { return view.Speaking().Int(int64(n)) }, s.Parallel,
		func(n int) { change(func(s *view.Settings) { s.Parallel = n }) })
	chunk := Choice(view.ChunkChoices, chunkWords, s.ChunkSize,
		func(n int64) { change(func(s *view.Settings) { s.ChunkSize = n }) })
	bandwidth := Choice(view.BandwidthChoices, bandwidthWords, s.Bandwidth,
		func(n int64) { change(func(s *view.Settings) { s.Bandwidth = n }) })
	history := Choice(view.HistoryChoices, historyWords, s.HistoryDays,
		func(n int) { change(func(s *view.Settings) { s.HistoryDays = n }) })
	look := Choice(view.ThemeChoices, themeWords, s.Theme,
		func(t string) { change(func(s *view.Settings) { s.Theme = t }) })
	signIn := Choice(view.SignInChoices, minutesWords, s.SignInWait,
		func(n int) { change(func(s *view.Settings) { s.SignInWait = n }) })
	language := Choice(view.LanguageChoices, languageWords, s.Language,
		func(code string) { change(func(s *view.Settings) { s.Language = code }) })
	resume := readingcheck.New(view.Say("ui.settings.resume"), func(on bool) {
		change(func(s *view.Settings) { s.AutoResume = on })
	})
	resume.SetChecked(s.AutoResume)
	background := readingcheck.New(view.BackgroundSetting(), func(on bool) {
		change(func(s *view.Settings) { s.Background = on })
	})
	background.SetChecked(s.Background)
	where := widget.NewLabel(d.JournalPath())
	where.Wrapping = fyne.TextWrapBreak
	where.Selectable = true
	network := widget.NewLabel(view.Visual(d.NetworkWords()))
	network.Wrapping = fyne.TextWrapWord

	return widgets.NewForm(
		view.WithNote(view.Visual(view.Say("ui.settings.language")), language, view.NewFieldNote(view.Say("ui.settings.languageNote"))),
		view.WithNote(view.Visual(view.Say("ui.settings.parallel")), parallel, view.NewFieldNote(view.Say("ui.settings.parallelNote"))),
		view.WithNote(view.Visual(view.Say("ui.settings.chunk")), chunk, view.NewFieldNote(view.Say("ui.settings.chunkNote"))),
		view.WithNote(view.Visual(view.Say("ui.settings.speed")), bandwidth, view.NewFieldNote(view.Say("ui.settings.speedNote"))),
		&widget.FormItem{Text: view.Visual(view.Say("ui.settings.onStart")), Widget: resume},
		&widget.FormItem{Text: view.Visual(view.Say("ui.settings.onClosing")), Widget: background},
		view.WithNote(view.Visual(view.Say("ui.settings.forget")), history, view.NewFieldNote(view.Say("ui.settings.forgetNote"))),
		&widget.FormItem{Text: view.Visual(view.Say("ui.settings.look")), Widget: look},
		view.WithNote(view.Visual(view.Say("ui.settings.signInWait")), signIn, view.NewFieldNote(view.Say("ui.settings.signInWaitNote"))),
		&widget.FormItem{Text: view.Visual(view.Say("ui.settings.listIn")), Widget: where},
		&widget.FormItem{Text: view.Visual(view.Say("ui.settings.network")), Widget: network},
	)
}

// ShowSettings opens the settings' panel.
func (p *SettingsSide) ShowSettings() {
	f := p.Frame
	dlg := widgets.NewInfoDialog(view.Say("ui.settings"), view.Visual(view.Say("ui.close")), f.Scrolled(NewSettingsPanel(SettingsPanelSide{f, p}).Content), f.Win)
	dlg.Resize(f.Fit(fyne.NewSize(620, 560)))
	f.Open(dlg)
}

// confirmReset asks, then stops and forgets every upload, forgets saved
// destinations and restores the default settings.
func (p *settingsPanel) confirmReset() {
	d := p.Host
	d.Open(widgets.NewSentenceQuestion(view.Say("ui.reset.title"), view.Say("ui.reset.question"),
		func(yes bool) {
			if yes {
				d.Reset()
			}
		}, d.Window()))
}

// Reset stops and forgets every upload, forgets the saved destinations
// (not the organisation's) and restores the default settings.
func (p *SettingsSide) Reset() {
	f, g := p.Frame, p.Google
	var names []string
	if g.Presets != nil {
		for _, d := range g.Presets.List() {
			if !g.Managed(d.Name) { // the organisation's stay: only it can remove them
				names = append(names, d.Name)
			}
		}
	}
	p.ApplySettings(view.DefaultSettings)
	f.App.Preferences().RemoveValue(destination.PrefDestination)
	p.Target.Load(false)
	f.Background(func(context.Context) {
		for _, v := range p.Queue.Briefs() {
			if !v.State.Finished() {
				_ = p.Queue.Do(v.ID, engine.Cancel)
			}
			if err := p.Queue.Do(v.ID, engine.Remove); err != nil && err != engine.ErrNoJob {
				f.Log.Warn("reset: removing an upload", "job", v.ID, "err", err)
			}
		}
		for _, n := range names {
			if err := g.Presets.Delete(n); err != nil {
				f.Log.Warn("reset: forgetting a destination", "err", err)
			}
		}
		f.Later(func() {
			p.Reload()
			f.Tell(view.Say("ui.reset.done"))
		})
	})
}

// languageWords names a language choice: the system's, or a language
// written in itself.
func languageWords(code string) string {
	if code == words.SystemSetting {
		return view.Speaking().SystemChoice()
	}
	return words.Names[code]
}

// settingsController is what the settings ask of the window.
type settingsController interface {
	view.Frame
	CurrentSettings() view.Settings
	ApplySettings(s view.Settings)
	JournalPath() string
	NetworkWords() string
	Reset()
}

// SettingsPanelSide is what the settings' panel asks of the window.
type SettingsPanelSide struct {
	*view.WindowFrame
	*SettingsSide
}

var _ settingsController = SettingsPanelSide{}
