package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"hoist/dirs"
	"hoist/engine/dest"
	"hoist/words"
)

// openLibrary is every destination the command line can use by name: the
// organisation's (from the system-wide folder) and the user's saved ones.
// Problems with the organisation's file are said on stderr; the rest is used.
func openLibrary(l *words.Lang, stderr io.Writer) (*dest.Library, error) {
	managed, problems := dest.LoadManaged(dirs.System())
	for _, p := range problems {
		fmt.Fprintf(stderr, "hoist: %s\n", visible(errWords(l, p)))
	}
	saved, err := dest.OpenPresets(dest.DefaultPresetsPath())
	if err != nil {
		return &dest.Library{Managed: managed}, err
	}
	return &dest.Library{Saved: saved, Managed: managed}, nil
}

// destinationsCommands are the forms of "hoist destinations".
var destinationsCommands = []command{
	{"hoist destinations list", "cli.help.destList"},
	{"hoist destinations export NAME [--out FILE]", "cli.help.destExport"},
	{"hoist destinations import FILE", "cli.help.destImport"},
}

// destinationsUsage prints the forms of "hoist destinations" to w.
func destinationsUsage(w io.Writer, l *words.Lang) {
	fmt.Fprintln(w, usageLine(l, ""))
	printCommands(w, l, destinationsCommands)
}

// Destinations runs "hoist destinations list|export|import".
func Destinations(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	if len(args) == 0 {
		destinationsUsage(stderr, l)
		return exitUsage
	}
	switch args[0] {
	case "list":
		return listDestinations(l, args[1:], stdout, stderr)
	case "export":
		return exportDestination(l, args[1:], stdout, stderr)
	case "import":
		return importDestination(l, args[1:], stdout, stderr)
	case "help", "-h", "--help":
		destinationsUsage(stdout, l)
		return exitOK
	}
	complain(stderr, l, "hoist destinations", "cli.dest.notCommand", words.Args{"Value": quoted(l, args[0]), "Choices": either(l, "list", "export", "import")})
	fmt.Fprintln(stderr)
	destinationsUsage(stderr, l)
	return exitUsage
}

func listDestinations(l *words.Lang, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		complain(stderr, l, "hoist destinations list", "cli.unexpected", words.Args{"Value": quoted(l, args[0])})
		fmt.Fprintln(stderr)
		destinationsUsage(stderr, l)
		return exitUsage
	}
	lib, err := openLibrary(l, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations: %s\n", capitalised(errWords(l, err)))
	}
	list := lib.List()
	if len(list) == 0 {
		say(stdout, l, "cli.dest.none", words.Args{"Cmd": cmdWords(l, "hoist destinations import FILE")})
		return exitOK
	}
	for _, d := range list {
		from := l.Say("cli.dest.saved", nil)
		if lib.IsManaged(d.Name) {
			from = l.Say("cli.dest.managed", nil)
		}
		say(stdout, l, "cli.dest.line", words.Args{"Name": name(l, d.Name), "Kind": l.KindName(d.Kind), "From": from})
		if s := settingsWords(d); s != "" {
			fmt.Fprintf(stdout, "    %s\n", l.Isolate(visible(s)))
		}
	}
	return exitOK
}

// settingsWords lists a destination's settings as "key=value" pairs, in the kind's order.
func settingsWords(d dest.Destination) string {
	var parts []string
	for _, f := range d.Kind.Info().Fields {
		if v := strings.TrimSpace(d.Params[f.Key]); v != "" {
			parts = append(parts, f.Key+"="+v)
		}
	}
	if d.Account != "" {
		parts = append(parts, "account="+d.Account)
	}
	return strings.Join(parts, " ")
}

func exportDestination(l *words.Lang, args []string, stdout, stderr io.Writer) int {
	const cmd = "hoist destinations export"
	fs := newFlags(l, cmd, stderr, func() { destinationsUsage(stderr, l) })
	out := fs.String("out", "", l.Say("cli.flag.out", words.Args{"Dash": l.Isolate("-"), "File": l.Isolate("NAME" + dest.ShareExtension)}))
	target, rest := splitName(args)
	if status := parseFlags(fs, l, stderr, rest); status >= 0 {
		return status
	}
	if target == "" && fs.NArg() > 0 {
		target, rest = splitName(fs.Args())
		if len(rest) > 0 {
			complain(stderr, l, cmd, "cli.unexpected", words.Args{"Value": quoted(l, rest[0])})
			return exitUsage
		}
	}
	if target == "" {
		complain(stderr, l, cmd, "cli.dest.whichExport", words.Args{"Cmd": cmdWords(l, `hoist destinations export "Banners for ACME"`)})
		return exitUsage
	}
	lib, err := openLibrary(l, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations: %s\n", capitalised(errWords(l, err)))
		return exitFailed
	}
	d, ok := lib.Get(target)
	if !ok {
		complain(stderr, l, cmd, "cli.dest.noSuch", words.Args{"Name": quoted(l, target), "Cmd": cmdWords(l, "hoist destinations list")})
		return exitFailed
	}
	data, err := dest.Export(d)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, capitalised(errWords(l, err)))
		return exitFailed
	}
	if *out == "-" {
		_, _ = stdout.Write(data)
		return exitOK
	}
	path := *out
	if path == "" {
		path = fileSafe(d.Name) + dest.ShareExtension
	}
	if _, err := os.Stat(path); err == nil {
		complain(stderr, l, cmd, "cli.dest.exists", words.Args{"File": name(l, path), "Flag": l.Isolate("--out")})
		return exitFailed
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		complain(stderr, l, cmd, "cli.dest.cannotWrite", words.Args{"File": name(l, path), "Why": l.Isolate(fmt.Sprint(errors.Unwrap(err)))})
		return exitFailed
	}
	say(stdout, l, "cli.dest.exported", words.Args{"Name": name(l, d.Name), "File": name(l, path)})
	return exitOK
}

// splitName takes the first argument that is not a flag as the name.
func splitName(args []string) (string, []string) {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0], args[1:]
	}
	return "", args
}

// fileSafe makes a destination's name usable as a file name.
func fileSafe(name string) string {
	return strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ' {
			return '-'
		}
		return r
	}, name)
}

func importDestination(l *words.Lang, args []string, stdout, stderr io.Writer) int {
	const cmd = "hoist destinations import"
	if len(args) != 1 {
		complain(stderr, l, cmd, "cli.dest.giveOne", words.Args{"Cmd": cmdWords(l, "hoist destinations import Banners"+dest.ShareExtension)})
		return exitUsage
	}
	path := args[0]
	data, err := os.ReadFile(path)
	if err != nil {
		complain(stderr, l, cmd, "cli.dest.unreadable", words.Args{"File": name(l, path)})
		return exitFailed
	}
	d, err := dest.Import(data)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s: %s\n", cmd, name(l, filepath.Base(path)), capitalised(errWords(l, err)))
		return exitFailed
	}
	lib, err := openLibrary(l, stderr)
	if err == nil {
		err = lib.Add(d)
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s: %s\n", cmd, capitalised(errWords(l, err)))
		return exitFailed
	}
	say(stdout, l, "cli.dest.imported", words.Args{"Name": name(l, d.Name), "Kind": l.KindName(d.Kind),
		"Cmd": cmdWords(l, "hoist send --to "+strconv.Quote(d.Name)+" FILES")})
	return exitOK
}

// capitalised is a sentence with a capital (in scripts that have them)
// and a full stop.
func capitalised(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = words.CapitalFirst(s)
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
