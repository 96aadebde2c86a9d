// Package locale settles the process's language before the window toolkit
// reads it. Imported for its side effect by the main package, it must not
// import Fyne: its init has to run before Fyne's packages initialise.
//
// Debian and many containers run with LANG=C.UTF-8. The toolkit takes "C"
// from it for a language name, cannot parse that, and logs an error on
// every start, even for commands that never open a window. A C or POSIX
// locale means "no particular language", which is English for Hoist's
// words: saying so in LANGUAGE (the list of preferred languages, read first
// by gettext-style lookups) keeps the toolkit quiet and changes nothing else.
package locale

import (
	"os"
	"strings"
)

func init() {
	if lang, ok := Preferred(os.Getenv); ok {
		os.Setenv("LANGUAGE", lang)
	}
}

// Preferred returns the LANGUAGE to set when the locale in the environment
// is C or POSIX with a character set (C.UTF-8), and LANGUAGE is not set.
func Preferred(getenv func(string) string) (string, bool) {
	if getenv("LANGUAGE") != "" {
		return "", false
	}
	var locale string
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if locale = getenv(name); locale != "" {
			break
		}
	}
	base, _, charset := strings.Cut(locale, ".")
	if charset && (base == "C" || base == "POSIX") {
		return "en", true
	}
	return "", false
}
