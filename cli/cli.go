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
)

// Version is the app's version, set at build time.
var Version = "1.0.0"

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

const usage = `Hoist uploads files to Google: email files into Gmail, creative assets to
Campaign Manager 360 (API v5), game images to Play Games, or any Google upload URL.
Google has removed Play Games image uploads from its API: set icons in Play Console
(the sandbox still imitates the method).

Usage:
  hoist [--sandbox] [FILES...]       open the window (with these files queued)
  hoist send [flags] PATH...         upload files or folders without a window
  hoist send --resume                continue every unfinished upload (and retry failed ones)
  hoist queue                        list uploads with their state and progress
  hoist queue clear --done           forget finished uploads
  hoist queue restart FILE...        upload these again from the start (a file that changed)
  hoist queue remove FILE...         take these off the list
  hoist sandbox [flags]              run the built-in sandbox server
  hoist login [--client-secret FILE] sign in with Google
  hoist logout [ACCOUNT]             sign out and forget the account's tokens
  hoist accounts                     list signed-in accounts
  hoist version                      print the version

Run "hoist send --help", "hoist queue --help" or "hoist sandbox --help" for their flags.
`

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
			return Send(ctx, rest, env.Stdout, env.Stderr)
		case "sandbox":
			return Sandbox(ctx, rest, env.Stdout, env.Stderr)
		case "queue":
			return Queue(ctx, rest, env.Stdout, env.Stderr)
		case "login":
			return Login(ctx, rest, env.Stdout, env.Stderr)
		case "logout":
			return Logout(ctx, rest, env.Stdout, env.Stderr)
		case "accounts":
			return Accounts(ctx, rest, env.Stdout, env.Stderr)
		case "version", "--version":
			fmt.Fprintf(env.Stdout, "Hoist %s (%s/%s)\n", Version, runtime.GOOS, runtime.GOARCH)
			return exitOK
		case "help", "-h", "--help", "-help":
			fmt.Fprint(env.Stdout, usage)
			return exitOK
		}
	}
	return window(ctx, args, env)
}

// window opens the desktop window with the files named on the command line.
func window(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("hoist", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	sandbox := fs.Bool("sandbox", false, "open in sandbox mode")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(env.Stderr, "hoist: %v\n\n%s", err, usage)
		return exitUsage
	}
	files := fs.Args()
	for _, f := range files {
		if looksLikeCommand(f) {
			fmt.Fprintf(env.Stderr, "hoist: %q is not a command or a file.\n\n%s", f, usage)
			return exitUsage
		}
	}
	if env.Window == nil {
		fmt.Fprintln(env.Stderr, "hoist: this build has no window; use \"hoist send\" to upload files.")
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
