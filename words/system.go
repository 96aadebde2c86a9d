package words

import (
	"runtime"
	"strings"
)

// Setting names the language chosen in Settings (or with --lang); "" and
// "system" follow the system.
const SystemSetting = "system"

// Choose is the language to speak: the one chosen in Settings when it is
// one Hoist speaks, else the first of the system's preferred languages Hoist
// speaks, else English.
func Choose(setting string, system []string) *Lang {
	if setting != "" && setting != SystemSetting {
		if tag, ok := parse(setting); ok && supported(tag) != "" {
			return New(setting)
		}
	}
	for _, name := range system {
		if tag, ok := parse(name); ok && supported(tag) != "" {
			return New(name)
		}
	}
	return English()
}

// FromSystem is Choose with this computer's preferred languages.
func FromSystem(setting string) *Lang {
	return Choose(setting, Preferred())
}

// Preferred lists this computer's preferred languages, best first: the
// user's interface languages on Windows and macOS, the locale's variables on
// Linux and other systems.
func Preferred() []string {
	return preferred(runtime.GOOS, systemSources())
}

// sources are where each system keeps its languages; a platform's file
// fills in its own (the tests fill in all of them).
type sources struct {
	getenv  func(string) string
	apple   func() string   // the output of `defaults read -g AppleLanguages`
	windows func() []string // GetUserPreferredUILanguages
}

// preferred is the list of languages for the system named goos.
func preferred(goos string, src sources) []string {
	switch goos {
	case "windows":
		if src.windows != nil {
			if list := src.windows(); len(list) > 0 {
				return list
			}
		}
	case "darwin":
		// A window opened from the Finder has no LANG: the user's choice in
		// System Settings is AppleLanguages.
		if src.apple != nil {
			if list := parseAppleLanguages(src.apple()); len(list) > 0 {
				return list
			}
		}
	}
	return fromEnv(src.getenv)
}

// fromEnv reads the locale's variables as gettext does: LANGUAGE (a list
// separated by colons) unless the locale is C or POSIX, then LC_ALL,
// LC_MESSAGES and LANG, the first one set.
func fromEnv(getenv func(string) string) []string {
	if getenv == nil {
		return nil
	}
	var locale string
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(name); locale != "" {
			break
		}
	}
	var list []string
	if _, ok := parse(locale); ok || locale == "" {
		for _, l := range strings.Split(getenv("LANGUAGE"), ":") {
			if l = strings.TrimSpace(l); l != "" {
				list = append(list, l)
			}
		}
	}
	if locale != "" {
		list = append(list, locale)
	}
	return list
}

// parseAppleLanguages reads the list `defaults read -g AppleLanguages`
// prints: ( "fa-IR", "en-US" ).
func parseAppleLanguages(out string) []string {
	var list []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.Trim(strings.TrimSpace(line), `(),"`)
		if line != "" {
			list = append(list, line)
		}
	}
	return list
}
