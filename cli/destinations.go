package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"hoist/dirs"
	"io"
	"os"
	"path/filepath"
	"strings"

	"hoist/engine/dest"
)

// openLibrary is every destination the command line can use by name: the
// organisation's (from the system-wide folder) and the user's saved ones.
// Problems with the organisation's file are said on stderr; the rest is used.
func openLibrary(stderr io.Writer) (*dest.Library, error) {
	managed, problems := dest.LoadManaged(dirs.System())
	for _, p := range problems {
		fmt.Fprintf(stderr, "hoist: %s\n", p)
	}
	saved, err := dest.OpenPresets(dest.DefaultPresetsPath())
	if err != nil {
		return &dest.Library{Managed: managed}, err
	}
	return &dest.Library{Saved: saved, Managed: managed}, nil
}

const destinationsUsage = `Usage:
  hoist destinations list            the saved destinations and those from your organisation
  hoist destinations export NAME [--out FILE]
                                     write a saved destination to a file to share (no account or secret in it)
  hoist destinations import FILE     save a destination someone exported
`

// Destinations runs "hoist destinations list|export|import".
func Destinations(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, destinationsUsage)
		return exitUsage
	}
	switch args[0] {
	case "list":
		return listDestinations(args[1:], stdout, stderr)
	case "export":
		return exportDestination(args[1:], stdout, stderr)
	case "import":
		return importDestination(args[1:], stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, destinationsUsage)
		return exitOK
	}
	fmt.Fprintf(stderr, "hoist destinations: %q is not list, export or import.\n\n%s", args[0], destinationsUsage)
	return exitUsage
}

func listDestinations(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "hoist destinations list: unexpected %q\n\n%s", args[0], destinationsUsage)
		return exitUsage
	}
	lib, err := openLibrary(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations: %s\n", capitalised(err))
	}
	list := lib.List()
	if len(list) == 0 {
		fmt.Fprintln(stdout, "No saved destinations. Save one in the window, or import one: hoist destinations import FILE")
		return exitOK
	}
	for _, d := range list {
		from := "saved"
		if lib.IsManaged(d.Name) {
			from = "from your organisation (read-only)"
		}
		fmt.Fprintf(stdout, "%s \u2014 %s, %s\n", d.Name, d.Kind.Info().Label, from)
		if s := settingsWords(d); s != "" {
			fmt.Fprintf(stdout, "    %s\n", s)
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

func exportDestination(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("hoist destinations export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the file to write; - for standard output; default NAME"+dest.ShareExtension)
	name, rest := splitName(args)
	if err := fs.Parse(rest); err != nil {
		return exitUsage
	}
	if name == "" && fs.NArg() > 0 {
		name, rest = splitName(fs.Args())
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "hoist destinations export: unexpected %q\n", rest[0])
			return exitUsage
		}
	}
	if name == "" {
		fmt.Fprintf(stderr, "hoist destinations export: say which destination, e.g. hoist destinations export \"Banners for ACME\"\n")
		return exitUsage
	}
	lib, err := openLibrary(stderr)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations: %s\n", capitalised(err))
		return exitFailed
	}
	d, ok := lib.Get(name)
	if !ok {
		fmt.Fprintf(stderr, "hoist destinations export: there is no saved destination called %q. \"hoist destinations list\" shows them.\n", name)
		return exitFailed
	}
	data, err := dest.Export(d)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations export: %s\n", capitalised(err))
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
		fmt.Fprintf(stderr, "hoist destinations export: %s already exists; choose another file with --out.\n", path)
		return exitFailed
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		fmt.Fprintf(stderr, "hoist destinations export: the file %s could not be written (%v).\n", path, errors.Unwrap(err))
		return exitFailed
	}
	fmt.Fprintf(stdout, "Exported %s to %s. It holds no account, password or token: whoever imports it signs in as themselves.\n", d.Name, path)
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

func importDestination(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintf(stderr, "hoist destinations import: give one file, e.g. hoist destinations import Banners%s\n", dest.ShareExtension)
		return exitUsage
	}
	path := args[0]
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations import: %s could not be read. Check the name and folder of the file.\n", path)
		return exitFailed
	}
	d, err := dest.Import(data)
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations import: %s: %s\n", filepath.Base(path), capitalised(err))
		return exitFailed
	}
	lib, err := openLibrary(stderr)
	if err == nil {
		err = lib.Add(d)
	}
	if err != nil {
		fmt.Fprintf(stderr, "hoist destinations import: %s\n", capitalised(err))
		return exitFailed
	}
	fmt.Fprintf(stdout, "Imported %s (%s). Send files to it with: hoist send --to %q FILES\n", d.Name, d.Kind.Info().Label, d.Name)
	return exitOK
}

// capitalised is err's message with a capital and a full stop.
func capitalised(err error) string {
	s := strings.TrimSpace(err.Error())
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
