package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// start starts the run loop, and the reading of the emails an older Hoist
// listed without their headers; stopAll ends them.
func (r *runner) start(ctx context.Context) {
	loopCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	r.stop = stop
	r.loopWG.Add(1)
	go func() {
		defer r.loopWG.Done()
		r.schedule(loopCtx)
	}()
	if len(r.unread) > 0 {
		r.loopWG.Add(1)
		go func() {
			defer r.loopWG.Done()
			r.readEmails(loopCtx)
		}()
	}
	r.poke()
}

// stopAll stops every running upload and the run loop, and waits (at most
// until ctx is done) for the workers to end.
func (r *runner) stopAll(ctx context.Context) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return errAlreadyClosed
	}
	r.closed = true
	for _, jb := range r.jobs {
		if jb.peek().cancel != nil {
			jb.peek().cancel(errClosing)
		}
	}
	r.mu.Unlock()
	r.stop()
	done := make(chan struct{})
	go func() {
		r.jobWG.Wait()
		r.loopWG.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("uploads did not stop in time: %w", ctx.Err())
	}
}

// setParallel changes how many uploads run at once.
func (r *runner) setParallel(n int) {
	if n < 1 {
		n = 1
	}
	r.mu.Lock()
	r.parallel = n
	r.mu.Unlock()
	r.poke()
}

// saveRetryEvery spaces the tries to write the list again after a write
// failed (a full disk, say), while no upload starts.
var saveRetryEvery = 5 * time.Second

// errAlreadyClosed is stopAll's answer to a second Close.
var errAlreadyClosed = errors.New("closed already")

// schedule starts waiting jobs, in queue order, while there is room, and
// none while the list cannot be written.
func (r *runner) schedule(ctx context.Context) {
	var retry <-chan time.Time
	for {
		r.mu.Lock()
		unsaved := r.saveErr != nil
		if unsaved && retry == nil {
			retry = time.After(saveRetryEvery)
		}
		if !r.closed && !r.opts.Idle && !unsaved {
			for _, id := range r.order {
				if r.running >= r.parallel {
					break
				}
				jb, ok := r.jobs[id]
				if !ok || jb.state != Waiting || jb.peek().cancel != nil || jb.held || !r.dueLocked(jb) {
					continue
				}
				r.startLocked(ctx, jb)
			}
		}
		due := r.nextDueLocked()
		r.mu.Unlock()
		var later <-chan time.Time
		var timer *time.Timer
		if !due.IsZero() {
			timer = time.NewTimer(max(due.Sub(r.opts.Clock.Now()), 0))
			later = timer.C
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-later:
		case <-r.kick:
		case <-retry:
			retry = nil
			r.retrySave()
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// dueLocked reports whether a waiting job may start now: the server asked
// it to wait until retryAt, and this run waits for it no longer than
// Options.MaxWait (else it is left for a later run); list.mu must be held.
func (r *runner) dueLocked(jb *job) bool {
	if jb.peek().later {
		return false
	}
	now := r.opts.Clock.Now()
	if jb.peek().retryAt.IsZero() || !jb.peek().retryAt.After(now) {
		return true
	}
	if wait := jb.peek().retryAt.Sub(now); !jb.peek().counted && r.opts.MaxWait > 0 {
		if jb.peek().waited+wait > r.opts.MaxWait {
			jb.live().later = true // past what this run waits: said, and left for later
			r.bump(jb)
			r.notifyLocked()
			return false
		}
		jb.live().waited += wait
		jb.live().counted = true
	}
	return false
}

// nextDueLocked is when the next waiting job's time comes; zero for none;
// list.mu must be held.
func (r *runner) nextDueLocked() time.Time {
	var next time.Time
	now := r.opts.Clock.Now()
	for _, jb := range r.jobs {
		if jb.state == Waiting && !jb.peek().later && jb.peek().retryAt.After(now) && (next.IsZero() || jb.peek().retryAt.Before(next)) {
			next = jb.peek().retryAt
		}
	}
	return next
}

// startLocked launches jb's worker; list.mu must be held.
func (r *runner) startLocked(ctx context.Context, jb *job) {
	runCtx, cancel := context.WithCancelCause(ctx)
	jb.live().cancel = cancel
	jb.live().retryAt = time.Time{}
	r.running++
	if jb.peek().session.URI != "" {
		r.moveLocked(jb, stepCheck)
	} else {
		r.moveLocked(jb, stepStart)
	}
	jb.sayLocked(nil, nil)
	r.bump(jb)
	r.notifyLocked()
	r.jobWG.Add(1)
	go func() {
		defer r.jobWG.Done()
		r.run(runCtx, jb)
	}()
}

// retrySave writes every job's record again after a write failed; once it
// is written, the jobs held back start.
func (r *runner) retrySave() {
	r.mu.Lock()
	if r.saveErr == nil || r.writer == nil || r.writerClosed {
		r.mu.Unlock()
		return
	}
	jobs := make([]*job, 0, len(r.jobs))
	for _, id := range r.order {
		if jb, ok := r.jobs[id]; ok { // a shelved one is in the journal already
			jobs = append(jobs, jb)
		}
	}
	failed := new(error)
	written := r.persistJobsChecked(jobs, failed)
	r.mu.Unlock()
	<-written
	if *failed != nil {
		return // saveFailed keeps the queue waiting; the next try comes later
	}
	r.mu.Lock()
	r.saveErr = nil
	for _, jb := range jobs {
		jb.held = false
	}
	r.notifyLocked()
	r.mu.Unlock()
	r.poke()
}
