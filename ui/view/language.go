package view

import (
	"embed"
	"sync/atomic"

	"fyne.io/fyne/v2/lang"

	"hoist/ui/widgets"
	"hoist/words"
)

// The window's language: its words, its numbers and its reading direction.
// It is chosen once, before the window is built (Settings says whether a new
// choice applies at once or after a restart); every screen reads it through
// speaking() and rtl().

var Speech atomic.Pointer[words.Lang]

// Speaking is the window's language (English until UseLanguage is called).
func Speaking() *words.Lang {
	if l := Speech.Load(); l != nil {
		return l
	}
	return englishMarking
}

// englishMarking is the window's English before a language is chosen.
var englishMarking = words.English().Marking()

// Rtl reports whether the window reads right to left (Arabic, Persian, Hebrew).
func Rtl() bool { return Speaking().RTL() }

// UseLanguage makes l the window's language, for Hoist's words and for the
// toolkit's own (the file dialog, OK and Cancel, Yes and No, the calendar).
func UseLanguage(l *words.Lang) error {
	Speech.Store(l.Marking()) // every value isolated in its sentence, in every language
	widgets.SetRightToLeft(l.RTL())
	return useToolkitWords(l)
}

// ToolkitWords are the toolkit's own words in Arabic, Persian and Hebrew,
// under the keys the toolkit looks up (and English, for a choice in Settings
// that differs from the system's language).
//
//go:embed toolkit/*.json
var ToolkitWords embed.FS

// useToolkitWords adds the toolkit's words in the four languages. The
// toolkit picks its language from the system; when l differs from it, l's
// words are also registered under the system's language, so the dialogs
// follow the choice made in Settings.
func useToolkitWords(l *words.Lang) error {
	if err := lang.AddTranslationsFS(ToolkitWords, "toolkit"); err != nil {
		return err
	}
	system := lang.SystemLocale()
	if words.New(string(system)).Code() == l.Code() {
		return nil
	}
	data, err := ToolkitWords.ReadFile("toolkit/" + l.Code() + ".json")
	if err != nil {
		return err
	}
	return lang.AddTranslationsForLocale(data, system)
}

// Say is the window's sentence with this key (prefix "ui."), its
// placeholders given as name and value pairs:
//
//	say("ui.removed.one", "File", isolate(name))
//
// Numbers are written in the window's digits.
func Say(key string, nameValues ...any) string {
	var args words.Args
	if len(nameValues) > 1 {
		args = make(words.Args, len(nameValues)/2)
		for i := 0; i+1 < len(nameValues); i += 2 {
			if name, ok := nameValues[i].(string); ok {
				args[name] = nameValues[i+1]
			}
		}
	}
	return Speaking().Say(key, args)
}

// Isolate keeps a file name, an address or Google's own words in their own
// direction inside a sentence of the window's language.
func Isolate(s string) string { return Speaking().Isolate(s) }

// Visual is a short text for the toolkit's own widgets, put in the order
// it is seen (widgets.Visual).
func Visual(s string) string { return widgets.Visual(s) }
