package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"hoist/words"
)

// newFlags is the flag set of the command cmd ("hoist send"), whose help
// and problems are said in l: its usage is head (the usage line and what
// the command does), then every flag but the hidden ones with its help and
// default.
func newFlags(l *words.Lang, cmd string, stderr io.Writer, head func()) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the flag package's own words are English: parseFlags says them
	fs.Usage = func() {
		head()
		printFlags(stderr, l, fs)
	}
	return fs
}

// hiddenFlags are left out of the help text.
var hiddenFlags = map[string]bool{"endpoint": true}

// printFlags lists fs's flags: the flag and what it takes, then its help
// and its default when it has one.
func printFlags(w io.Writer, l *words.Lang, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		if hiddenFlags[f.Name] {
			return
		}
		arg, help := flag.UnquoteUsage(f)
		head := l.Isolate("--" + f.Name)
		if key, ok := flagArgKeys[arg]; ok {
			head += " " + l.Say(key, nil)
		} else if arg != "" {
			head += " " + l.Isolate(arg)
		}
		if d := f.DefValue; d != "" && d != "false" && d != "0" {
			help += " " + l.Say("cli.flagDefault", words.Args{"Value": l.Isolate(d)})
		}
		fmt.Fprintf(w, "  %s\n    \t%s\n", head, help)
	})
}

// flagArgKeys name what a flag of each of the flag package's types takes.
var flagArgKeys = map[string]string{
	"string":   "cli.flagArg.text",
	"int":      "cli.flagArg.number",
	"duration": "cli.flagArg.duration",
	"value":    "cli.flagArg.text",
}

// parseFlags parses args with fs. A problem with a flag is said in l,
// followed by the usage; -h or --help prints the usage. status is -1 to go
// on, else the exit status.
func parseFlags(fs *flag.FlagSet, l *words.Lang, stderr io.Writer, args []string) (status int) {
	usage := fs.Usage
	fs.Usage = func() {} // said below, after the problem
	err := fs.Parse(args)
	fs.Usage = usage
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		usage()
		return exitOK
	}
	fmt.Fprintf(stderr, "%s: %s\n\n", fs.Name(), flagProblem(l, err))
	usage()
	return exitUsage
}

// flagProblem says a parse error of the flag package in l.
func flagProblem(l *words.Lang, err error) string {
	msg := err.Error()
	flagName := func(s string) string { return l.Isolate("--" + strings.TrimLeft(s, "-")) }
	if rest, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return l.Say("cli.flagErr.unknown", words.Args{"Flag": flagName(rest)})
	}
	if rest, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return l.Say("cli.flagErr.needsValue", words.Args{"Flag": flagName(rest)})
	}
	for _, prefix := range []string{"invalid value ", "invalid boolean value "} {
		if rest, ok := strings.CutPrefix(msg, prefix); ok {
			if value, after, ok := cutQuoted(rest); ok {
				name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(after, " for flag "), " for "), ":")
				return l.Say("cli.flagErr.badValue", words.Args{"Flag": flagName(name), "Value": quoted(l, value)})
			}
		}
	}
	if rest, ok := strings.CutPrefix(msg, "bad flag syntax: "); ok {
		return l.Say("cli.flagErr.syntax", words.Args{"Value": quoted(l, rest), "Forms": either(l, "--name", "--name=value")})
	}
	return visible(msg)
}

// cutQuoted takes the Go-quoted string at the start of s.
func cutQuoted(s string) (value, rest string, ok bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	if err != nil {
		return "", s, false
	}
	return v, s[len(q):], true
}
