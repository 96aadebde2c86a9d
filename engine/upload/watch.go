package upload

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// watch cancels one request's context when neither its body nor its answer
// has moved for the stall timeout. Where the system tells how many bytes the
// peer acknowledged (TCP_INFO on Linux), those count as progress too: the
// kernel takes a body's last megabytes at once, and on a slow link the
// server may need minutes to receive them, so bytes handed to the kernel
// alone would call a slow link stalled. It runs on the wall clock: it
// watches the real network, and a fake clock must not make healthy
// requests look stalled.
type watch struct {
	timeout time.Duration
	now     func() time.Time // time.Now; a test steps it to see when the watch declares a stall
	start   time.Time
	last    atomic.Int64 // nanoseconds since start of the last progress
	cancel  context.CancelCauseFunc

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
	acked   func() (uint64, bool) // bytes the peer acknowledged on the connection; nil: unknown
	seen    uint64                // acked's value when last asked
}

// follow starts counting the bytes the peer acknowledges on conn.
func (w *watch) follow(conn net.Conn) {
	probe := ackedBytes(conn)
	if probe == nil {
		return
	}
	n, ok := probe()
	if !ok {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.acked, w.seen = probe, n
	if w.timer != nil && !w.stopped {
		w.timer.Reset(w.every())
	}
}

// every is how often the watch looks. Acknowledgements are seen only when
// it looks, and counted as progress at that moment: looking every tenth of
// the timeout declares a stall within a tenth past the timeout.
func (w *watch) every() time.Duration {
	if w.acked != nil {
		return max(w.timeout/stallChecks, time.Millisecond)
	}
	return w.timeout
}

// stallChecks is how many times per timeout the watch looks at the
// acknowledgements.
const stallChecks = 10

// peerMoved reports whether the peer acknowledged bytes since last asked.
func (w *watch) peerMoved() bool {
	if w.acked == nil {
		return false
	}
	n, ok := w.acked()
	if !ok || n == w.seen {
		return false
	}
	w.seen = n
	return true
}

// startWatch derives the request's context from ctx. A timeout <= 0 means
// no stall detection. The caller must call stop.
func startWatch(ctx context.Context, timeout time.Duration) (context.Context, *watch) {
	rctx, cancel := context.WithCancelCause(ctx)
	w := &watch{timeout: timeout, now: time.Now, start: time.Now(), cancel: cancel}
	if timeout > 0 {
		w.mu.Lock()
		w.timer = time.AfterFunc(timeout, w.fire)
		w.mu.Unlock()
	}
	return rctx, w
}

// touch records progress.
func (w *watch) touch() {
	if w != nil {
		w.last.Store(int64(w.now().Sub(w.start)))
	}
}

func (w *watch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.peerMoved() {
		w.touch()
	}
	idle := w.now().Sub(w.start) - time.Duration(w.last.Load())
	if idle < w.timeout {
		w.timer.Reset(min(w.timeout-idle, w.every()))
		return
	}
	w.stopped = true
	w.cancel(fmt.Errorf("%w: nothing moved for %s", ErrStalled, w.timeout))
}

// stop ends the watch and releases the request's context.
func (w *watch) stop() {
	w.mu.Lock()
	w.stopped = true
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	w.cancel(context.Canceled)
}

// stalled returns the stall error if the watch fired.
func stalled(rctx context.Context) error {
	if cause := context.Cause(rctx); errors.Is(cause, ErrStalled) {
		return cause
	}
	return nil
}
