package oledrop

import (
	"strconv"
	"strings"
	"unicode"
)

// fileName makes a name a program offered for a virtual file fit to be a
// file's name on Windows: only its last part (a name may carry the folders
// of what was dragged), without the characters Windows refuses or trailing
// dots and spaces, and not one of the names Windows keeps for devices. An
// empty name becomes "item".
func fileName(offered string) string {
	if i := strings.LastIndexAny(offered, `\/`); i >= 0 {
		offered = offered[i+1:]
	}
	name := strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r == 0x7f, strings.ContainsRune(`<>:"/\|?*`, r):
			return '_'
		case unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d:
			// Direction marks and other invisible formatting would make the
			// name read differently than it is spelled; the joiners Persian
			// needs stay.
			return -1
		}
		return r
	}, offered)
	name = strings.TrimRight(strings.TrimSpace(name), ". ")
	if name == "" {
		return "item"
	}
	stem := name
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	switch strings.ToUpper(strings.TrimSpace(stem)) {
	case "CON", "PRN", "AUX", "NUL",
		"COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9",
		"LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9":
		name = "_" + name
	}
	// Windows' paths are limited; a subject can be long. Keep the extension.
	const most = 120
	if r := []rune(name); len(r) > most {
		ext := extension(name)
		keep := most - len([]rune(ext))
		name = strings.TrimRight(string(r[:keep]), ". ") + ext
	}
	return name
}

// extension is a name's extension with its dot ("" when it has none).
func extension(name string) string {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || len([]rune(name[i:])) > 16 {
		return ""
	}
	return name[i:]
}

// names gives each item of one drop a name of its own: two messages with the
// same subject become "Budget.msg" and "Budget (2).msg". Names differing only
// in case are the same name on Windows.
type names map[string]bool

func (n names) take(offered string) string {
	name := fileName(offered)
	ext := extension(name)
	stem := strings.TrimSuffix(name, ext)
	for i := 2; n[strings.ToLower(name)]; i++ {
		name = stem + " (" + strconv.Itoa(i) + ")" + ext
	}
	n[strings.ToLower(name)] = true
	return name
}
