package cli

import (
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"
)

// shell is a command line the user types into, as it reads a typed word.
type shell int

const (
	posixShell shell = iota // sh, bash, zsh, ksh: macOS and Linux
	powerShell              // Windows PowerShell and PowerShell 7
	cmdShell                // Windows' Command Prompt
)

// argWord is s as one argument of a command the user can paste into the
// command line they use, quoted when it has to be.
func argWord(s string) string {
	sh := posixShell
	if runtime.GOOS == "windows" {
		sh = windowsShell()
	}
	return quoteFor(sh, s)
}

// quoteFor is s as sh reads it back as one word.
func quoteFor(sh shell, s string) string {
	if s != "" && plainWord(s) {
		return s
	}
	switch sh {
	case powerShell:
		// Single quotes take everything as it is; a quote of any of
		// PowerShell's four kinds is doubled to stand for itself.
		var b strings.Builder
		b.WriteByte('\'')
		for _, r := range s {
			b.WriteRune(r)
			if strings.ContainsRune("'‘’‚‛", r) {
				b.WriteRune(r)
			}
		}
		b.WriteByte('\'')
		return b.String()
	case cmdShell:
		// A Windows name holds no double quote. The Command Prompt expands
		// %NAME% even inside quotes, so each % stands outside them, where a
		// caret keeps it as it is: "50"^%"off"^%".png" reads 50%off%.png.
		return `"` + strings.ReplaceAll(s, "%", `"^%"`) + `"`
	}
	if !needsEscape(s) {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	// A line break, a control character or a byte that is not UTF-8: the
	// $'…' quoting of bash, zsh, ksh and POSIX.1-2024 names each.
	var b strings.Builder
	b.WriteString("$'")
	writeEscaped(&b, s, func(b *strings.Builder, r rune) bool {
		switch {
		case r == '\\' || r == '\'':
			b.WriteString(`\` + string(r))
		case unicode.IsControl(r) && r < 0x80:
			fmt.Fprintf(b, `\x%02x`, r)
		case unicode.IsControl(r):
			fmt.Fprintf(b, `\u%04x`, r) // \x would be a byte, not the character
		default:
			return false
		}
		return true
	})
	b.WriteByte('\'')
	return b.String()
}

// plainWord reports whether every shell reads s as it is: letters, digits
// and a few marks that none of them gives a meaning, not first a dash.
func plainWord(s string) bool {
	if strings.HasPrefix(s, "-") || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) && !strings.ContainsRune("._/+-:,=", r) {
			return false
		}
	}
	return true
}
