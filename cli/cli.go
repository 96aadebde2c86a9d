// Package cli is Hoist's command line: `hoist send`, `hoist sandbox`,
// `hoist queue`, `hoist login`, `hoist logout`, `hoist accounts`. With no
// command (or only files) it opens the window through Env.Window.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/words"
)

// Version is the app's version (engine.Version, set at build time).
var Version = engine.Version

// Exit statuses.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
)

// Env is what the command line needs from the outside world.
type Env struct {
	Stdout, Stderr io.Writer
	// Window opens the desktop window with files queued; nil where there is none.
	Window func(ctx context.Context, files []string, sandbox bool) int
}

// command is a form of a command, with the key of what it does.
type command struct{ form, key string }

// commands are the forms the usage lists.
var commands = []command{
	{"hoist [--sandbox] [FILES...]", "cli.help.window"},
	{"hoist send [flags] PATH...", "cli.help.send"},
	{"hoist send --resume", "cli.help.resume"},
	{"hoist queue", "cli.help.queue"},
	{"hoist queue clear --done", "cli.help.clear"},
	{"hoist queue restart FILE...", "cli.help.restart"},
	{"hoist queue remove FILE...", "cli.help.remove"},
	{"hoist sandbox [flags]", "cli.help.sandbox"},
	{"hoist login [--client-secret FILE]", "cli.help.login"},
	{"hoist logout [ACCOUNT]", "cli.help.logout"},
	{"hoist accounts", "cli.help.accounts"},
	{"hoist destinations list", "cli.help.destList"},
	{"hoist destinations export NAME", "cli.help.destExport"},
	{"hoist destinations import FILE", "cli.help.destImport"},
	{"hoist quit", "cli.help.quit"},
	{"hoist version", "cli.help.version"},
}

// printCommands lists command forms in a column, each with what it does.
func printCommands(w io.Writer, l *words.Lang, list []command) {
	width := 0
	for _, c := range list {
		width = max(width, len(c.form))
	}
	for _, c := range list {
		fmt.Fprintf(w, "  %-*s %s\n", width, c.form, l.Say(c.key, nil))
	}
}

// usage is what `hoist help` prints, in the user's language.
func usage(l *words.Lang) string {
	var b strings.Builder
	b.WriteString(l.Say("cli.about", words.Args{"Version": dest.CM360Version}))
	b.WriteString("\n\n")
	b.WriteString(usageLine(l, ""))
	b.WriteString("\n")
	printCommands(&b, l, commands)
	b.WriteString("\n")
	b.WriteString(l.Say("cli.help.more", words.Args{
		"Send": cmdWords(l, "hoist send --help"), "Queue": cmdWords(l, "hoist queue --help"), "Sandbox": cmdWords(l, "hoist sandbox --help"),
	}))
	b.WriteString("\n")
	return b.String()
}

// Run runs the command line and returns the process's exit status.
func Run(ctx context.Context, args []string, env Env) int {
	if env.Stdout == nil {
		env.Stdout = os.Stdout
	}
	if env.Stderr == nil {
		env.Stderr = os.Stderr
	}
	if len(args) > 0 {
		cmd, rest := args[0], args[1:]
		switch cmd {
		case "send":
			ctx, stop := quittable(ctx)
			defer stop()
			return Send(ctx, rest, env.Stdout, env.Stderr)
		case "sandbox":
			ctx, stop := quittable(ctx)
			defer stop()
			return Sandbox(ctx, rest, env.Stdout, env.Stderr)
		case "queue":
			return Queue(ctx, rest, env.Stdout, env.Stderr)
		case "login":
			ctx, stop := quittable(ctx)
			defer stop()
			return Login(ctx, rest, env.Stdout, env.Stderr)
		case "quit":
			return Quit(ctx, rest, env.Stdout, env.Stderr)
		case "setup-user":
			if runtime.GOOS == "windows" {
				return SetupUser(rest, env.Stderr)
			}
		case "logout":
			return Logout(ctx, rest, env.Stdout, env.Stderr)
		case "accounts":
			return Accounts(ctx, rest, env.Stdout, env.Stderr)
		case "destinations":
			return Destinations(ctx, rest, env.Stdout, env.Stderr)
		case "version", "--version":
			fmt.Fprintf(env.Stdout, "Hoist %s (%s/%s)\n", Version, runtime.GOOS, runtime.GOARCH)
			return exitOK
		case "help", "-h", "--help", "-help":
			fmt.Fprint(env.Stdout, usage(lang()))
			return exitOK
		}
	}
	return window(ctx, args, env)
}

// window opens the desktop window with the files named on the command line.
func window(ctx context.Context, args []string, env Env) int {
	l := lang()
	fs := flag.NewFlagSet("hoist", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sandbox := fs.Bool("sandbox", false, "open in sandbox mode")
	afterUpdate := fs.Bool("after-update", false, "open only if an update closed the window")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(env.Stderr, "hoist: %s\n\n%s", flagProblem(l, err), usage(l))
		return exitUsage
	}
	if *afterUpdate && !reopening() {
		return exitOK // the window was not open before the update
	}
	files := fs.Args()
	for _, f := range files {
		if looksLikeCommand(f) {
			complain(env.Stderr, l, "hoist", "cli.notCommand", words.Args{"Value": quoted(l, f)})
			fmt.Fprintf(env.Stderr, "\n%s", usage(l))
			return exitUsage
		}
	}
	if env.Window == nil {
		complain(env.Stderr, l, "hoist", "cli.noWindow", words.Args{"Send": cmdWords(l, "hoist send")})
		return exitFailed
	}
	abs := make([]string, 0, len(files))
	for _, f := range files {
		if a, err := filepath.Abs(f); err == nil {
			f = a
		}
		abs = append(abs, f)
	}
	return env.Window(ctx, abs, *sandbox)
}

// looksLikeCommand tells a mistyped command ("hoist snd") from a file name.
func looksLikeCommand(arg string) bool {
	if _, err := os.Lstat(arg); err == nil || !errors.Is(err, os.ErrNotExist) {
		return false
	}
	return !strings.ContainsAny(arg, "./\\") && len(arg) < 12
}
