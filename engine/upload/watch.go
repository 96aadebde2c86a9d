package upload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// watch cancels one request's context when neither its body nor its answer
// has moved for the stall timeout. It runs on the wall clock: it watches the
// real network, and a fake clock must not make healthy requests look stalled.
type watch struct {
	timeout time.Duration
	start   time.Time
	last    atomic.Int64 // nanoseconds since start of the last progress
	cancel  context.CancelCauseFunc

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// startWatch derives the request's context from ctx. A timeout <= 0 means
// no stall detection. The caller must call stop.
func startWatch(ctx context.Context, timeout time.Duration) (context.Context, *watch) {
	rctx, cancel := context.WithCancelCause(ctx)
	w := &watch{timeout: timeout, start: time.Now(), cancel: cancel}
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
		w.last.Store(int64(time.Since(w.start)))
	}
}

func (w *watch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	idle := time.Since(w.start) - time.Duration(w.last.Load())
	if idle < w.timeout {
		w.timer.Reset(w.timeout - idle)
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
