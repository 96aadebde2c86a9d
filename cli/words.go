package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"hoist/auth"
	"hoist/words"
)

// lang is the language of the command line's human output: the system's
// (LANGUAGE, LC_ALL, LC_MESSAGES, LANG; the user's interface language on
// Windows and macOS), English when Hoist does not speak it. The window's
// choice in Settings lives in the toolkit's preferences, which the command
// line does not read. --json output is in no language: codes, numbers and
// the English sentences it always held.
var lang = sync.OnceValue(func() *words.Lang { return words.FromSystem("") })

// say prints the sentence with this key on its own line.
func say(w io.Writer, l *words.Lang, key string, args words.Args) {
	fmt.Fprintln(w, l.Say(key, args))
}

// name is a file's name (or any text from outside) ready for a sentence:
// escaped for the terminal, and kept in its own direction inside an
// Arabic, Persian or Hebrew sentence.
func name(l *words.Lang, s string) string {
	return l.Isolate(visible(s))
}

// quoted is a value the user typed, quoted, escaped for the terminal and
// kept in its own direction.
func quoted(l *words.Lang, s string) string { return name(l, strconv.Quote(s)) }

// cmdWords is a command to type, kept left to right inside a
// right-to-left sentence.
func cmdWords(l *words.Lang, s string) string {
	return l.Isolate(s)
}

// complain prints a problem with a command, after the command's name.
func complain(w io.Writer, l *words.Lang, cmd, key string, args words.Args) {
	fmt.Fprintf(w, "%s: %s\n", cmd, l.Say(key, args))
}

// usageLine is "Usage: FORM", or "Usage:" before a list of forms.
func usageLine(l *words.Lang, form string) string {
	return strings.TrimSpace(l.Say("cli.usage", words.Args{"Usage": form}))
}

// either is "a, b or c" in the user's language, of values typed as they
// are, each kept left to right inside a right-to-left sentence.
func either(l *words.Lang, values ...string) string { return l.Either(values...) }

// sentence is an error the command line words in the user's language where
// it shows it; its Error is the English sentence.
type sentence struct {
	key  string
	args words.Args
}

func (s *sentence) Error() string { return words.English().Say(s.key, s.args) }

// errWords is err in the user's language: the command line's own
// sentence, or the facts it carries (a file's problem, a destination's
// settings or file, the queue's refusal, a sign-in), else its own text.
func errWords(l *words.Lang, err error) string {
	var s *sentence
	if errors.As(err, &s) {
		return l.Say(s.key, s.args)
	}
	var ls *listSentence
	if errors.As(err, &ls) {
		return l.ListNames(ls.list, ls.where, ls.args)
	}
	if said, ok := l.Error(err); ok {
		return said
	}
	if f, ok := auth.Fact(err); ok {
		return l.Fact(f)
	}
	return err.Error()
}
