package view

import (
	"hoist/auth"
	"hoist/engine/upload"
	"hoist/ui/look"
	"hoist/words"
	"slices"
	"time"

	"fyne.io/fyne/v2"
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
	PrefLanguage   = "language"
)

// Settings are the user's choices, kept in Fyne's preferences.
type Settings struct {
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

var DefaultSettings = Settings{
	Parallel:    6,
	ChunkSize:   upload.ChunkAuto,
	AutoResume:  true,
	HistoryDays: 30,
	Theme:       look.ThemeSystem,
	SignInWait:  int(auth.DefaultConsentTimeout / time.Minute),
	Background:  true,
	Language:    words.SystemSetting,
}

func LoadSettings(p fyne.Preferences) Settings {
	s := Settings{
		Parallel:    p.IntWithFallback(prefParallel, DefaultSettings.Parallel),
		ChunkSize:   int64(p.IntWithFallback(prefChunkSize, int(DefaultSettings.ChunkSize))),
		AutoResume:  p.BoolWithFallback(prefAutoResume, DefaultSettings.AutoResume),
		Bandwidth:   int64(p.IntWithFallback(prefBandwidth, int(DefaultSettings.Bandwidth))),
		HistoryDays: p.IntWithFallback(prefHistory, DefaultSettings.HistoryDays),
		Theme:       p.StringWithFallback(prefTheme, DefaultSettings.Theme),
		SignInWait:  p.IntWithFallback(prefSignInWait, DefaultSettings.SignInWait),
		Background:  p.BoolWithFallback(prefBackground, DefaultSettings.Background),
		Language:    p.StringWithFallback(PrefLanguage, DefaultSettings.Language),
	}
	// A hand-edited or old preferences file must not break uploads.
	if s.Parallel < 1 || s.Parallel > 64 {
		s.Parallel = DefaultSettings.Parallel
	}
	if s.ChunkSize != upload.ChunkAuto && (s.ChunkSize < 256<<10 || s.ChunkSize%(256<<10) != 0) {
		s.ChunkSize = DefaultSettings.ChunkSize
	}
	if s.Bandwidth < 0 {
		s.Bandwidth = 0
	}
	if s.HistoryDays < 0 {
		s.HistoryDays = DefaultSettings.HistoryDays
	}
	if !slices.Contains(ThemeChoices, s.Theme) {
		s.Theme = look.ThemeSystem
	}
	if s.SignInWait < 1 || s.SignInWait > 120 {
		s.SignInWait = DefaultSettings.SignInWait
	}
	if !slices.Contains(LanguageChoices, s.Language) {
		s.Language = words.SystemSetting
	}
	return s
}

func (s Settings) Save(p fyne.Preferences) {
	p.SetInt(prefParallel, s.Parallel)
	p.SetInt(prefChunkSize, int(s.ChunkSize))
	p.SetBool(prefAutoResume, s.AutoResume)
	p.SetInt(prefBandwidth, int(s.Bandwidth))
	p.SetInt(prefHistory, s.HistoryDays)
	p.SetString(prefTheme, s.Theme)
	p.SetInt(prefSignInWait, s.SignInWait)
	p.SetBool(prefBackground, s.Background)
	p.SetString(PrefLanguage, s.Language)
}

// WaitForSignIn is how long a sign-in waits for the browser, for auth.
func (s Settings) WaitForSignIn() time.Duration {
	return time.Duration(s.SignInWait) * time.Minute
}

// HistoryFor is how long finished uploads are kept, for the queue.
func (s Settings) HistoryFor() time.Duration {
	return time.Duration(s.HistoryDays) * 24 * time.Hour
}

// The choices the settings offer.
var (
	ParallelChoices  = []int{1, 2, 3, 4, 6, 8, 12, 16}
	ChunkChoices     = []int64{upload.ChunkAuto, 256 << 10, 1 << 20, 4 << 20, 8 << 20, 16 << 20, 32 << 20, 64 << 20}
	BandwidthChoices = []int64{0, 128_000, 512_000, 1_000_000, 2_000_000, 5_000_000, 10_000_000, 25_000_000}
	HistoryChoices   = []int{1, 7, 30, 90, 365, 0}
	ThemeChoices     = []string{look.ThemeSystem, look.ThemeLight, look.ThemeDark}
	SignInChoices    = []int{2, 5, 10, 15, 30}
	LanguageChoices  = append([]string{words.SystemSetting}, words.Codes...)
)
