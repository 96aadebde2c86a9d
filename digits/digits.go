// Package digits reads numbers typed with Persian (۱۲) or Arabic-Indic
// (١٢) digits, as people writing those languages type them. It has no
// words and no dependencies, so form validation in the engine can use it.
package digits

import "strings"

// ASCII returns s with every Persian and Arabic-Indic digit replaced by
// its ASCII digit, the Arabic decimal separator (٫) by "." and the Arabic
// thousands separator (٬) removed. Everything else is kept.
func ASCII(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r >= '٠' && r <= '٩':
			return '0' + (r - '٠')
		case r >= '۰' && r <= '۹':
			return '0' + (r - '۰')
		case r == '٫':
			return '.'
		case r == '٬':
			return -1
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
