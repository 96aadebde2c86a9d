package cli

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// visible makes text safe to print on a terminal: control characters
// (escape, newline, the C1 set…) and bytes that are not UTF-8 are shown
// as escapes like \x1b and \n, so a file's name can neither break a line
// nor change the terminal's title or colours.
func visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	writeEscaped(&b, s, func(b *strings.Builder, r rune) bool {
		if !unicode.IsControl(r) || r >= 0x100 {
			return false
		}
		fmt.Fprintf(b, `\x%02x`, r)
		return true
	})
	return b.String()
}

// writeEscaped writes s to b with each byte that is not UTF-8 as \xHH, a
// line break, carriage return or tab as \n, \r or \t, and any other rune
// as escape writes it; where escape returns false, the rune stands as it is.
func writeEscaped(b *strings.Builder, s string, escape func(b *strings.Builder, r rune) bool) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		default:
			if !escape(b, r) {
				b.WriteString(s[i : i+size])
			}
		}
		i += size
	}
}

func needsEscape(s string) bool {
	return !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0
}
