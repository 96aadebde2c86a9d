package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"hoist/dirs"
	"hoist/ui/handover"
	"hoist/words"
)

// Quit runs `hoist quit`: the open Hoist window and every hoist command of
// this user pause their uploads, save the list and end, and it waits for
// them. Installers run it before they replace Hoist's programs; with
// --for-update the window opens again when `hoist --after-update` runs.
func Quit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	l := lang()
	fs := newFlags(l, "hoist quit", stderr, func() {
		fmt.Fprintln(stderr, usageLine(l, "hoist quit [--for-update] [--wait DURATION]"))
		fmt.Fprintf(stderr, "%s\n\n", l.Say("cli.quit.about", words.Args{"Send": cmdWords(l, "hoist send")}))
	})
	forUpdate := fs.Bool("for-update", false, l.Say("cli.flag.forUpdate", words.Args{"Cmd": cmdWords(l, "hoist --after-update")}))
	wait := fs.Duration("wait", 60*time.Second, l.Say("cli.flag.quitWait", nil))
	if status := parseFlags(fs, l, stderr, args); status >= 0 {
		return status
	}
	if fs.NArg() > 0 {
		complain(stderr, l, "hoist quit", "cli.unexpected", words.Args{"Value": quoted(l, fs.Arg(0))})
		fmt.Fprintln(stderr)
		fs.Usage()
		return exitUsage
	}
	dir, err := dirs.Config()
	if err != nil {
		fmt.Fprintf(stderr, "hoist quit: %v\n", err)
		return exitFailed
	}
	ctx, cancel := context.WithTimeout(ctx, *wait)
	defer cancel()
	stopped, err := handover.AskToQuit(ctx, dir)
	if stopped.Window && *forUpdate {
		if nerr := handover.NoteReopen(dir); nerr != nil {
			fmt.Fprintf(stderr, "hoist quit: %v\n", nerr)
		}
	}
	switch {
	case errors.Is(err, handover.ErrTooOld):
		complain(stderr, l, "hoist quit", "cli.quit.tooOld", nil)
		return exitFailed
	case errors.Is(err, context.DeadlineExceeded):
		complain(stderr, l, "hoist quit", "cli.quit.stays", words.Args{"Wait": l.Isolate(wait.String())})
		return exitFailed
	case err != nil:
		fmt.Fprintf(stderr, "hoist quit: %v\n", err)
		return exitFailed
	}
	if stopped.Window {
		say(stdout, l, "cli.quit.window", nil)
	}
	if stopped.Commands > 0 {
		say(stdout, l, "cli.quit.commands", words.Args{"N": stopped.Commands})
	}
	if stopped == (handover.Stopped{}) {
		say(stdout, l, "cli.quit.nothing", nil)
	}
	return exitOK
}

// quittable is ctx, cancelled also when `hoist quit` (an installer) asks
// this command to stop; stop ends the listening. A command that cannot
// listen runs as before: only that request does not reach it.
func quittable(ctx context.Context) (_ context.Context, stop func()) {
	dir, err := dirs.Config()
	if err != nil {
		return ctx, func() {}
	}
	c, err := handover.ListenCommand(dir)
	if err != nil {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	c.OnQuit(cancel)
	served := make(chan struct{})
	serveCtx, stopServing := context.WithCancel(context.Background())
	go func() {
		defer close(served)
		_ = c.Serve(serveCtx, func([]string) {})
	}()
	return ctx, func() {
		stopServing()
		<-served
		cancel()
		_ = c.Close()
	}
}

// reopening reports whether `hoist quit --for-update` closed the window for
// the update that has just run, so that `hoist --after-update` opens it again.
func reopening() bool {
	dir, err := dirs.Config()
	return err == nil && handover.TakeReopen(dir)
}
