// Hoist uploads files to Google's APIs: a desktop window by default, and a
// command line (`hoist send`, `hoist sandbox`, …) for work without one.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"hoist/cli"
	"hoist/internal/sessionbus"
	"hoist/ui"
	_ "hoist/ui/locale" // before Fyne reads the language
)

func main() {
	// Before anything talks to the desktop: find its D-Bus, never start one.
	sessionbus.Settle()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{
		Stdout: os.Stdout,
		Stderr: os.Stderr,
		Window: func(ctx context.Context, files []string, sandbox bool) int {
			return ui.Run(ctx, ui.Config{Files: files, Sandbox: sandbox})
		},
	})
	stop()
	os.Exit(code)
}
