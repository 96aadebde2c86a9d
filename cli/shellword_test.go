package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// Names a suggested command may carry: spaces, quotes, a shell's own
// marks, a line break, a byte that is not UTF-8, right-to-left letters.
var awkwardNames = []string{
	"plain.png", "a b.png", "it's.png", `say "hi".png`, "$HOME.png", "`date`.png",
	"a\nb.png", "tab\there.png", "r\xe9sum\xe9.png", "back\\slash.png", "-starts-with-dash.png",
	"تقرير مالي.pdf", "דוח.pdf", "100%.png", "a&b;c|d.png", "*.png", "’curly’.png", "",
}

// TestShellWordsReadBack: each suggested name, quoted for a POSIX shell,
// is read back by bash, and by dash where it needs no $'…', as itself.
func TestShellWordsReadBack(t *testing.T) {
	for _, sh := range []string{"bash", "dash"} {
		path, err := exec.LookPath(sh)
		if err != nil {
			t.Fatalf("%s is needed to check the quoting (Debian: %s)", sh, sh)
		}
		for _, name := range awkwardNames {
			word := quoteFor(posixShell, name)
			if sh == "dash" && strings.HasPrefix(word, "$'") {
				continue
			}
			out, err := exec.Command(path, "-c", "printf '%s' "+word).Output()
			if err != nil || string(out) != name {
				t.Errorf("%s reads %s back as %q (%v), want %q", sh, word, out, err, name)
			}
		}
	}
}

// TestShellWordsForWindows: PowerShell's single quotes with its quotes
// doubled, and the Command Prompt's double quotes.
func TestShellWordsForWindows(t *testing.T) {
	for _, tc := range []struct {
		sh         shell
		name, want string
	}{
		{powerShell, "plain.png", "plain.png"},
		{powerShell, "a b.png", "'a b.png'"},
		{powerShell, "it's.png", "'it''s.png'"},
		{powerShell, "’curly’.png", "'’’curly’’.png'"},
		{powerShell, "$HOME.png", "'$HOME.png'"},
		{powerShell, "`date`.png", "'`date`.png'"},
		{powerShell, "تقرير مالي.pdf", "'تقرير مالي.pdf'"},
		{cmdShell, "a b.png", `"a b.png"`},
		{cmdShell, "a&b.png", `"a&b.png"`},
		{cmdShell, "50%off%.png", `"50"^%"off"^%".png"`}, // not the value of a variable named off
		{cmdShell, "%PATH%", `""^%"PATH"^%""`},
		{cmdShell, "plain.png", "plain.png"},
		{posixShell, "a\nb.png", `$'a\nb.png'`},
		{posixShell, "r\xe9sum\xe9.png", `$'r\xe9sum\xe9.png'`},
		{posixShell, "a\u0085b\x1b.png", `$'a\u0085b\x1b.png'`},
	} {
		if got := quoteFor(tc.sh, tc.name); got != tc.want {
			t.Errorf("quoteFor(%d, %q) = %s, want %s", tc.sh, tc.name, got, tc.want)
		}
	}
}
