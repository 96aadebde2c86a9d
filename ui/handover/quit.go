package handover

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// Asking Hoist to quit: an installer about to replace Hoist's programs, or an
// administrator's "hoist quit", asks the window and every hoist command of the
// same user to pause their uploads, save the list and end, over the same
// channel a second Hoist hands its files through.

// commandsDir, in the settings folder, holds one folder per hoist command
// that can be asked to quit (named by its process id), each with a channel
// like the window's.
const commandsDir = "commands"

// ErrTooOld means the open Hoist answered but does not know how to quit on
// request (a version before this one): it has to be closed by hand.
var ErrTooOld = errors.New("the open Hoist is an older version that cannot be asked to close")

// OnQuit sets what this process does when asked to pause and quit; it must
// return at once (the asking process waits for this process to end). A claim
// without it refuses such requests.
func (c *Claim) OnQuit(f func()) {
	c.mu.Lock()
	c.onQuit = f
	c.mu.Unlock()
}

// quitRequested answers a request to quit.
func (c *Claim) quitRequested() handReply {
	c.mu.Lock()
	f := c.onQuit
	c.mu.Unlock()
	if f == nil {
		return handReply{Error: "this Hoist cannot be asked to quit"}
	}
	f()
	return handReply{OK: true, Quitting: true, PID: os.Getpid()}
}

// ListenCommand claims a channel in dir (Hoist's settings folder) for this
// hoist command, so that AskToQuit reaches it. Close removes it.
func ListenCommand(dir string) (*Claim, error) {
	return listenCommand(transportFor(runtime.GOOS), dir)
}

func listenCommand(t transport, dir string) (*Claim, error) {
	own := filepath.Join(dir, commandsDir, strconv.Itoa(os.Getpid()))
	c, err := listen(t, own)
	if err != nil {
		return nil, err
	}
	c.removeDir = own
	return c, nil
}

// Stopped is what AskToQuit closed.
type Stopped struct {
	Window   bool // the window was open and has ended
	Commands int  // hoist commands that have ended
}

// AskToQuit asks the window in dir (Hoist's settings folder) and every hoist
// command listening there to pause their uploads and quit, and waits until
// each of their processes has ended or ctx is done. A command that did not
// listen (it could not open its channel) is not reached.
func AskToQuit(ctx context.Context, dir string) (Stopped, error) {
	return askToQuit(ctx, transportFor(runtime.GOOS), dir, processEnded)
}

func askToQuit(ctx context.Context, t transport, dir string, ended func(pid int) bool) (Stopped, error) {
	var s Stopped
	var window []int
	pid, err := askOne(ctx, t, dir)
	switch {
	case errors.Is(err, ErrNotRunning):
	case err != nil:
		return s, err
	default:
		window = append(window, pid)
	}
	var commands []int
	entries, err := os.ReadDir(filepath.Join(dir, commandsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return s, fmt.Errorf("handover: %w", err)
	}
	for _, e := range entries {
		sub := filepath.Join(dir, commandsDir, e.Name())
		pid, err := askOne(ctx, t, sub)
		switch {
		case errors.Is(err, ErrNotRunning):
			removeStale(t, sub)
		case err != nil:
			return s, err
		default:
			commands = append(commands, pid)
		}
	}
	if err := waitEnded(ctx, append(window, commands...), ended); err != nil {
		return s, err
	}
	return Stopped{Window: len(window) > 0, Commands: len(commands)}, nil
}

// Ended reports whether process pid has ended, as AskToQuit waits for it:
// gone, or exited and holding no file open.
func Ended(pid int) bool { return processEnded(pid) }

// askOne asks the process listening in dir to quit and returns its process id.
func askOne(ctx context.Context, t transport, dir string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, handTimeout)
	defer cancel()
	conn, secret, err := t.dial(ctx, dir)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	var reply handReply
	err = json.NewEncoder(conn).Encode(handOff{Secret: secret, Quit: true, Paths: []string{}})
	if err == nil {
		err = json.NewDecoder(io.LimitReader(conn, 1<<16)).Decode(&reply)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return 0, fmt.Errorf("handover: Hoist did not answer the request to quit: %w", ctx.Err())
	case err != nil:
		return 0, fmt.Errorf("handover: asking Hoist to quit: %w", err)
	case !reply.OK:
		return 0, fmt.Errorf("handover: Hoist refused to quit: %s", reply.Error)
	case !reply.Quitting || reply.PID <= 0:
		return 0, ErrTooOld
	}
	return reply.PID, nil
}

// removeStale removes a command's folder that nobody listens in, unless its
// command still holds it (it started a moment ago and is not listening yet).
func removeStale(t transport, dir string) {
	c, err := listen(t, dir)
	if err != nil {
		return
	}
	c.removeDir = dir
	_ = c.Close()
}

// waitEnded waits until every process in pids has ended.
func waitEnded(ctx context.Context, pids []int, ended func(pid int) bool) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for len(pids) > 0 {
		left := pids[:0]
		for _, p := range pids {
			if !ended(p) {
				left = append(left, p)
			}
		}
		pids = left
		if len(pids) == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("handover: Hoist (process %d) did not end in time: %w", pids[0], ctx.Err())
		case <-tick.C:
		}
	}
	return nil
}

// reopenNote is the file, in the settings folder, that says the window was
// closed for an update and opens again after it (NoteReopen, TakeReopen).
const reopenNote = "reopen-after-update"

// reopenWithin is how old a note may be: an update that closed the window
// and then failed must not make it open days later.
const reopenWithin = time.Hour

// NoteReopen notes in dir that the window, closed for an update, opens
// again once the update is done.
func NoteReopen(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, reopenNote), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o600); err != nil {
		return fmt.Errorf("handover: noting that the window opens again after the update: %w", err)
	}
	return nil
}

// TakeReopen reports whether an update closed the window within the last
// hour (NoteReopen), and removes the note.
func TakeReopen(dir string) bool {
	path := filepath.Join(dir, reopenNote)
	info, err := os.Stat(path)
	if err != nil {
		return false
	}
	if os.Remove(path) != nil {
		return false // another Hoist took it
	}
	age := time.Since(info.ModTime())
	return age >= -time.Minute && age < reopenWithin
}

// removeFolder removes a command's folder and the files in it (not with
// os.RemoveAll, whose way of removing files Wine does not support).
func removeFolder(dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
	_ = os.Remove(dir)
}
