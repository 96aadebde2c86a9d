package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// SocketName is the socket, in Hoist's settings folder, through which a
// second Hoist hands the files it was given to the window already open.
const SocketName = "hoist.sock"

// ErrNotRunning means no Hoist window is listening for files.
var ErrNotRunning = errors.New("no Hoist window is open to take the files")

const (
	handTimeout   = 10 * time.Second // a hand-off that takes longer than this is abandoned
	maxHandOff    = 8 << 20          // bytes of paths in one hand-off
	maxSocketPath = 103              // the shortest limit among supported systems, less its NUL
)

// handOff is what a second Hoist sends: the files it was given (possibly none,
// which asks the window to come forward).
type handOff struct {
	Paths []string `json:"paths"`
}

type handReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Instance is this process's claim to be the Hoist window that others hand
// their files to. Close releases it.
type Instance struct {
	ln   net.Listener
	lock *fileLock

	mu     sync.Mutex
	closed bool
}

// Listen claims the window for this process in dir (usually DefaultDir()):
// it returns ErrInUse when another Hoist already holds it, in which case the
// caller hands its files over with Hand. A socket left by a crashed Hoist is
// replaced.
func Listen(dir string) (*Instance, error) {
	if err := prepareDir(dir); err != nil {
		return nil, err
	}
	sock, err := socketPath(dir)
	if err != nil {
		return nil, err
	}
	lock, err := acquireLock(sock+lockSuffix, 0)
	if errors.Is(err, errLocked) {
		return nil, ErrInUse
	}
	if err != nil {
		return nil, fmt.Errorf("journal: claiming the Hoist window: %w", err)
	}
	// Holding the lock, any socket file here is a crashed Hoist's.
	if err := os.Remove(sock); err != nil && !errors.Is(err, fs.ErrNotExist) {
		_ = lock.release()
		return nil, fmt.Errorf("journal: removing an old socket: %w", err)
	}
	ln, err := net.Listen("unix", sock)
	if err != nil {
		_ = lock.release()
		return nil, fmt.Errorf("journal: listening for other Hoist windows: %w", err)
	}
	if err := os.Chmod(sock, fileMode); err != nil {
		_ = ln.Close()
		_ = lock.release()
		return nil, fmt.Errorf("journal: protecting the socket: %w", err)
	}
	return &Instance{ln: ln, lock: lock}, nil
}

// Serve takes hand-offs until ctx is done or the Instance is closed, and
// then returns nil. receive gets each hand-off's absolute paths (none means
// "come to the front"); it is called on Serve's goroutine, one hand-off at a
// time, and should return quickly: the other Hoist waits for it.
func (in *Instance) Serve(ctx context.Context, receive func(paths []string)) error {
	stop := context.AfterFunc(ctx, func() { _ = in.ln.Close() })
	defer stop()
	for {
		conn, err := in.ln.Accept()
		if err != nil {
			if ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return nil
			}
			return fmt.Errorf("journal: listening for other Hoist windows: %w", err)
		}
		serveHandOff(conn, receive)
	}
}

// serveHandOff reads one hand-off, passes it on and answers.
func serveHandOff(conn net.Conn, receive func(paths []string)) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(handTimeout))
	var req handOff
	reply := handReply{OK: true}
	if err := json.NewDecoder(io.LimitReader(conn, maxHandOff)).Decode(&req); err != nil {
		reply = handReply{Error: "the hand-off could not be read"}
	} else {
		for _, p := range req.Paths {
			if !filepath.IsAbs(p) {
				reply = handReply{Error: "the hand-off holds a path that is not absolute"}
				break
			}
		}
	}
	if reply.OK {
		receive(req.Paths)
	}
	_ = json.NewEncoder(conn).Encode(reply)
}

// Close stops listening and releases the window for another Hoist.
func (in *Instance) Close() error {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return nil
	}
	in.closed = true
	err := in.ln.Close()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	if lerr := in.lock.release(); err == nil {
		err = lerr
	}
	return err
}

// Hand gives paths (made absolute here, since the other process has its own
// working folder) to the Hoist window listening in dir, and returns once that
// window has taken them. It returns ErrNotRunning when no window listens.
func Hand(ctx context.Context, dir string, paths []string) error {
	abs := make([]string, 0, len(paths))
	for _, p := range paths {
		a, err := filepath.Abs(p)
		if err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		abs = append(abs, a)
	}
	sock, err := socketPath(dir)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, handTimeout)
	defer cancel()
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", sock)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isRefused(err) {
			return ErrNotRunning
		}
		return fmt.Errorf("journal: reaching the Hoist window: %w", err)
	}
	defer conn.Close()
	// ctx ending (cancelled, or its deadline) unblocks the reads and writes
	// below; by then ctx.Err says why.
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()

	var reply handReply
	err = json.NewEncoder(conn).Encode(handOff{Paths: abs})
	if err == nil {
		err = json.NewDecoder(io.LimitReader(conn, 1<<16)).Decode(&reply)
	}
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("journal: the Hoist window did not answer: %w", ctx.Err())
		}
		return fmt.Errorf("journal: handing files to the Hoist window: %w", err)
	}
	if !reply.OK {
		return fmt.Errorf("journal: the Hoist window refused the files: %s", reply.Error)
	}
	return nil
}

func socketPath(dir string) (string, error) {
	abs, err := filepath.Abs(filepath.Join(dir, SocketName))
	if err != nil {
		return "", fmt.Errorf("journal: %w", err)
	}
	if len(abs) > maxSocketPath {
		return "", fmt.Errorf("journal: the settings folder %s has too long a path for Hoist windows to reach each other", dir)
	}
	return abs, nil
}
