// Package words makes every sentence Hoist shows, in the user's language:
// English, Arabic, Persian or Hebrew. The window and the command line share
// it; it never imports the window toolkit, so the command line stays small.
//
// The catalogue is one JSON file per language in catalogue/ (go-i18n's
// format, which translators know: a key, and either a text or its plural
// forms zero/one/two/few/many/other as CLDR names them). Placeholders are
// Go template fields ({{.File}}); a placeholder named N is the count that
// chooses the plural form. Numbers passed to Say are written in the
// language's own digits and separators.
package words

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed catalogue/*.json
var catalogue embed.FS

// Codes are the languages Hoist speaks, English first (the fallback).
var Codes = []string{"en", "ar", "fa", "he"}

var (
	bundleOnce sync.Once
	bundle     *i18n.Bundle
	bundleErr  error
	// counted are the keys with plural forms: only those take a count.
	counted = map[string]bool{}
	// keys are every key of the catalogue.
	keys = map[string]bool{}
)

func loadBundle() (*i18n.Bundle, error) {
	bundleOnce.Do(func() {
		b := i18n.NewBundle(language.English)
		b.RegisterUnmarshalFunc("json", json.Unmarshal)
		for _, code := range Codes {
			f, err := b.LoadMessageFileFS(catalogue, "catalogue/"+code+".json")
			if err != nil {
				bundleErr = fmt.Errorf("words: catalogue for %s: %w", code, err)
				return
			}
			for _, m := range f.Messages {
				keys[m.ID] = true
				if m.Zero != "" || m.One != "" || m.Two != "" || m.Few != "" || m.Many != "" {
					counted[m.ID] = true
				}
			}
		}
		bundle = b
	})
	return bundle, bundleErr
}

// Lang makes sentences and numbers in one language. It is safe for
// concurrent use.
type Lang struct {
	tag     language.Tag // as the user's system named it, with the numbering system settled
	code    string       // one of Codes
	loc     *i18n.Localizer
	printer *message.Printer
	zero    rune // the digit zero of the language's numbering system
	marks   bool // isolate values in every language, not only right to left
}

// Marking is l isolating every value it puts in a sentence (Isolate), in
// English too: for the window and its notifications, where a Hebrew file
// name inside an English sentence would otherwise take the digits and
// punctuation beside it into its own run. The command line keeps l, whose
// English sentences carry no marks that a terminal might show.
func (l *Lang) Marking() *Lang {
	c := *l
	c.marks = true
	return &c
}

// English is the language of tests and of --json's neighbours.
func English() *Lang { return New("en") }

// New returns the language named by name: a POSIX locale ("fa_IR.UTF-8"),
// a BCP 47 tag ("ar-EG") or a code ("he"). A language Hoist does not speak
// gives English.
func New(name string) *Lang {
	tag, ok := parse(name)
	if !ok {
		tag = language.English
	}
	code := supported(tag)
	if code == "" {
		code, tag = "en", language.English
	}
	return newLang(code, tag)
}

func newLang(code string, tag language.Tag) *Lang {
	b, err := loadBundle()
	if err != nil {
		panic(err) // the catalogue is embedded: a broken one never ships (see the tests)
	}
	tag = withNumbers(tag)
	return &Lang{
		tag:     tag,
		code:    code,
		loc:     i18n.NewLocalizer(b, code),
		printer: message.NewPrinter(tag),
		zero:    zeroDigit(tag),
	}
}

// parse reads a POSIX locale or a BCP 47 tag.
func parse(name string) (language.Tag, bool) {
	name = strings.TrimSpace(name)
	if i := strings.IndexAny(name, ".@"); i >= 0 {
		name = name[:i]
	}
	if name == "" || name == "C" || name == "POSIX" {
		return language.Und, false
	}
	tag, err := language.Parse(strings.ReplaceAll(name, "_", "-"))
	if err != nil {
		return language.Und, false
	}
	return tag, true
}

// supported is the code of Codes that tag speaks, or "".
func supported(tag language.Tag) string {
	base, _ := tag.Base()
	switch b := base.String(); b {
	case "iw":
		return "he"
	case "en", "ar", "fa", "he":
		return b
	}
	return ""
}

// Code is the language's code: en, ar, fa or he.
func (l *Lang) Code() string { return l.code }

// Tag is the full language tag, e.g. ar-EG-u-nu-arab.
func (l *Lang) Tag() language.Tag { return l.tag }

// RTL reports whether the language is written right to left.
func (l *Lang) RTL() bool { return IsRTL(l.code) }

// IsRTL reports whether the language with this code is written right to left.
func IsRTL(code string) bool {
	switch code {
	case "ar", "fa", "he":
		return true
	}
	return false
}

// Args are the values of a sentence's placeholders. A value named N is the
// count that chooses the plural form. Integers and floats are written in the
// language's digits; other values as they are.
type Args map[string]any

// Say is the sentence with this key, or the key itself when the catalogue
// has no such sentence (the tests make sure that never ships).
func (l *Lang) Say(key string, args Args) string {
	cfg := &i18n.LocalizeConfig{MessageID: key}
	if len(args) > 0 {
		data := make(map[string]any, len(args))
		for k, v := range args {
			data[k] = l.value(v)
		}
		cfg.TemplateData = data
		if n, ok := args["N"]; ok && counted[key] {
			cfg.PluralCount = pluralCount(n)
		}
	}
	s, err := l.loc.Localize(cfg)
	if err != nil {
		return key
	}
	return s
}

// value writes numbers in the language's digits.
func (l *Lang) value(v any) any {
	switch n := v.(type) {
	case int:
		return l.Int(int64(n))
	case int64:
		return l.Int(n)
	case float64:
		return l.Decimal(n, 1)
	}
	return v
}

// pluralCount is what go-i18n takes to choose a form: integers as they are,
// other numbers as text.
func pluralCount(v any) any {
	switch n := v.(type) {
	case int, int64:
		return n
	case float64:
		return fmt.Sprint(n)
	}
	return v
}

// Names are the languages offered in Settings, each written in itself.
var Names = map[string]string{"en": "English", "ar": "العربية", "fa": "فارسی", "he": "עברית"}

// SystemChoice is the Settings choice that follows the system's language.
func (l *Lang) SystemChoice() string { return l.Say("lang.system", nil) }
