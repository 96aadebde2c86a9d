// Package handover lets a second Hoist hand the files it was given to the
// Hoist window already open, so one window holds every upload. The window
// claims its settings folder (Listen) and serves hand-overs; a later Hoist
// finds the claim taken and hands its files over (Hand).
//
// Each system gets the channel it has: a Unix socket (0600, in the private
// settings folder) on Unix; on Windows a loopback TCP port guarded by a
// random secret kept, with the port, in a 0600 file of the settings folder.
// Loopback TCP works on every Windows and under Wine, where Unix sockets do
// not; it needs no extra library, and the same code is tested on Linux.
//
// It imports no Fyne, so the command line could use it too.
package handover

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"hoist/engine/journal"
)

// ErrInUse means another Hoist window holds the claim: hand the files to it.
var ErrInUse = journal.ErrInUse

// ErrNotRunning means no Hoist window is listening for files.
var ErrNotRunning = errors.New("no Hoist window is open to take the files")

const (
	lockName    = "window.lock"      // held by the window for as long as it runs
	handTimeout = 10 * time.Second   // a hand-over that takes longer is abandoned
	maxHandOff  = 8 << 20            // bytes of paths in one hand-over
	dirMode     = os.FileMode(0o700) // the settings folder is private
)

// handOff is what a second Hoist sends: the files it was given (possibly none,
// which asks the window to come forward), and the secret the channel asks for.
// Quit asks instead to pause every upload and quit (quit.go).
type handOff struct {
	Secret string   `json:"secret,omitempty"`
	Paths  []string `json:"paths"`
	Quit   bool     `json:"quit,omitempty"`
}

type handReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Quitting and PID answer a request to quit: the process that is ending.
	Quitting bool `json:"quitting,omitempty"`
	PID      int  `json:"pid,omitempty"`
}

// transport is one system's channel between Hoist processes sharing dir.
type transport interface {
	// listen opens the channel in dir, which this process has claimed, and
	// returns the secret a hand-over must carry ("" when the channel itself
	// admits only the user).
	listen(dir string) (ln net.Listener, secret string, err error)
	// dial reaches the window listening in dir: ErrNotRunning when none does.
	dial(ctx context.Context, dir string) (conn net.Conn, secret string, err error)
	// name says what the channel is, for messages.
	name() string
}

// transportFor is the channel Hoist uses on goos (a runtime.GOOS value).
func transportFor(goos string) transport {
	if goos == "windows" {
		return loopback{}
	}
	return unixSocket{}
}

// Claim is this process's claim to be the Hoist window that others hand their
// files to. Close releases it.
type Claim struct {
	ln     net.Listener
	secret string
	lock   *journal.Lock

	mu        sync.Mutex
	closed    bool
	onQuit    func() // OnQuit
	removeDir string // a command's own folder, removed by Close
}

// Listen claims the window for this process in dir (Hoist's settings
// folder): ErrInUse when another Hoist already holds it, in which case the
// caller hands its files over with Hand. Any other error means the channel
// could not be opened; the caller can still run, alone.
func Listen(dir string) (*Claim, error) {
	return listen(transportFor(runtime.GOOS), dir)
}

func listen(t transport, dir string) (*Claim, error) {
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("handover: making the settings folder: %w", err)
	}
	lock, err := journal.LockFile(filepath.Join(dir, lockName))
	if errors.Is(err, journal.ErrInUse) {
		return nil, ErrInUse
	}
	if err != nil {
		return nil, fmt.Errorf("handover: claiming the Hoist window: %w", err)
	}
	// Holding the lock, whatever another Hoist left here is stale.
	ln, secret, err := t.listen(dir)
	if err != nil {
		_ = lock.Release()
		return nil, fmt.Errorf("handover: opening the %s for other Hoist windows: %w", t.name(), err)
	}
	return &Claim{ln: ln, secret: secret, lock: lock}, nil
}

// Serve takes hand-overs until ctx is done or the Claim is closed, and then
// returns nil. receive gets each hand-over's absolute paths (none means "come
// to the front"); it is called on Serve's goroutine, one hand-over at a time,
// and should return quickly: the other Hoist waits for it.
func (c *Claim) Serve(ctx context.Context, receive func(paths []string)) error {
	stop := context.AfterFunc(ctx, func() { _ = c.ln.Close() })
	defer stop()
	for {
		conn, err := c.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("handover: listening for other Hoist windows: %w", err)
		}
		c.serveOne(conn, receive)
	}
}

// serveOne reads one hand-over, passes it on and answers.
func (c *Claim) serveOne(conn net.Conn, receive func(paths []string)) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(handTimeout))
	var req handOff
	reply := handReply{OK: true}
	if err := json.NewDecoder(io.LimitReader(conn, maxHandOff)).Decode(&req); err != nil {
		reply = handReply{Error: "the hand-over could not be read"}
	} else if subtle.ConstantTimeCompare([]byte(req.Secret), []byte(c.secret)) != 1 {
		reply = handReply{Error: "the hand-over did not carry this window's secret"}
	} else {
		for _, p := range req.Paths {
			if !filepath.IsAbs(p) {
				reply = handReply{Error: "the hand-over holds a path that is not absolute"}
				break
			}
		}
	}
	if reply.OK && req.Quit {
		reply = c.quitRequested()
	} else if reply.OK {
		if req.Paths == nil {
			req.Paths = []string{}
		}
		receive(req.Paths)
	}
	_ = json.NewEncoder(conn).Encode(reply)
}

// Close stops listening and releases the window for another Hoist.
func (c *Claim) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil
	}
	c.closed = true
	err := c.ln.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	if lerr := c.lock.Release(); err == nil {
		err = lerr
	}
	if c.removeDir != "" {
		removeFolder(c.removeDir)
	}
	return err
}

// Hand gives paths (made absolute here, since the other process has its own
// working folder) to the Hoist window listening in dir, and returns once that
// window has taken them. It returns ErrNotRunning when no window listens.
func Hand(ctx context.Context, dir string, paths []string) error {
	return hand(ctx, transportFor(runtime.GOOS), dir, paths)
}

func hand(ctx context.Context, t transport, dir string, paths []string) error {
	abs := make([]string, 0, len(paths))
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("handover: %w", err)
		}
		abs = append(abs, a)
	}
	ctx, cancel := context.WithTimeout(ctx, handTimeout)
	defer cancel()
	conn, secret, err := t.dial(ctx, dir)
	if err != nil {
		return err
	}
	defer conn.Close()
	// ctx ending (cancelled, or its deadline) unblocks the reads and writes
	// below; by then ctx.Err says why.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	var reply handReply
	err = json.NewEncoder(conn).Encode(handOff{Secret: secret, Paths: abs})
	if err == nil {
		err = json.NewDecoder(io.LimitReader(conn, 1<<16)).Decode(&reply)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("handover: the Hoist window did not answer: %w", ctx.Err())
		}
		return fmt.Errorf("handover: handing files to the Hoist window: %w", err)
	}
	if !reply.OK {
		return fmt.Errorf("handover: the Hoist window refused the files: %s", reply.Error)
	}
	return nil
}
