package engine

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// start starts the run loop, and the reading of the emails an older Hoist
// listed without their headers; stopAll ends them.
func (q *runner) start(ctx context.Context) {
	loopCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	q.stop = stop
	q.loopWG.Add(1)
	go func() {
		defer q.loopWG.Done()
		q.schedule(loopCtx)
	}()
	if len(q.unread) > 0 {
		q.loopWG.Add(1)
		go func() {
			defer q.loopWG.Done()
			q.readEmails(loopCtx)
		}()
	}
	q.poke()
}

// stopAll stops every running upload and the run loop, and waits (at most
// until ctx is done) for the workers to end.
func (q *runner) stopAll(ctx context.Context) error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return errAlreadyClosed
	}
	q.closed = true
	for _, jb := range q.jobs {
		if jb.peek().cancel != nil {
			jb.peek().cancel(errClosing)
		}
	}
	q.mu.Unlock()
	q.stop()
	done := make(chan struct{})
	go func() {
		q.jobWG.Wait()
		q.loopWG.Wait()
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
func (q *runner) setParallel(n int) {
	if n < 1 {
		n = 1
	}
	q.mu.Lock()
	q.parallel = n
	q.mu.Unlock()
	q.poke()
}

// saveRetryEvery spaces the tries to write the list again after a write
// failed (a full disk, say), while no upload starts.
var saveRetryEvery = 5 * time.Second

// errAlreadyClosed is stopAll's answer to a second Close.
var errAlreadyClosed = errors.New("closed already")

// schedule starts waiting jobs, in queue order, while there is room, and
// none while the list cannot be written.
func (q *runner) schedule(ctx context.Context) {
	var retry <-chan time.Time
	for {
		q.mu.Lock()
		unsaved := q.saveErr != nil
		if unsaved && retry == nil {
			retry = time.After(saveRetryEvery)
		}
		if !q.closed && !q.opts.Idle && !unsaved {
			for _, id := range q.order {
				if q.running >= q.parallel {
					break
				}
				jb, ok := q.jobs[id]
				if !ok || jb.state != Waiting || jb.peek().cancel != nil || jb.held || !q.dueLocked(jb) {
					continue
				}
				q.startLocked(ctx, jb)
			}
		}
		due := q.nextDueLocked()
		q.mu.Unlock()
		var later <-chan time.Time
		var timer *time.Timer
		if !due.IsZero() {
			timer = time.NewTimer(max(due.Sub(q.opts.Clock.Now()), 0))
			later = timer.C
		}
		select {
		case <-ctx.Done():
			if timer != nil {
				timer.Stop()
			}
			return
		case <-later:
		case <-q.kick:
		case <-retry:
			retry = nil
			q.retrySave()
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// dueLocked reports whether a waiting job may start now: the server asked
// it to wait until retryAt, and this run waits for it no longer than
// Options.MaxWait (else it is left for a later run); q.mu must be held.
func (q *runner) dueLocked(jb *job) bool {
	if jb.peek().later {
		return false
	}
	now := q.opts.Clock.Now()
	if jb.peek().retryAt.IsZero() || !jb.peek().retryAt.After(now) {
		return true
	}
	if wait := jb.peek().retryAt.Sub(now); !jb.peek().counted && q.opts.MaxWait > 0 {
		if jb.peek().waited+wait > q.opts.MaxWait {
			jb.live().later = true // past what this run waits: said, and left for later
			q.bump(jb)
			q.notifyLocked()
			return false
		}
		jb.live().waited += wait
		jb.live().counted = true
	}
	return false
}

// nextDueLocked is when the next waiting job's time comes; zero for none;
// q.mu must be held.
func (q *runner) nextDueLocked() time.Time {
	var next time.Time
	now := q.opts.Clock.Now()
	for _, jb := range q.jobs {
		if jb.state == Waiting && !jb.peek().later && jb.peek().retryAt.After(now) && (next.IsZero() || jb.peek().retryAt.Before(next)) {
			next = jb.peek().retryAt
		}
	}
	return next
}

// startLocked launches jb's worker; q.mu must be held.
func (q *runner) startLocked(ctx context.Context, jb *job) {
	runCtx, cancel := context.WithCancelCause(ctx)
	jb.live().cancel = cancel
	jb.live().retryAt = time.Time{}
	q.running++
	if jb.peek().session.URI != "" {
		q.moveLocked(jb, stepCheck)
	} else {
		q.moveLocked(jb, stepStart)
	}
	jb.sayLocked(nil, nil)
	q.bump(jb)
	q.notifyLocked()
	q.jobWG.Add(1)
	go func() {
		defer q.jobWG.Done()
		q.run(runCtx, jb)
	}()
}

// retrySave writes every job's record again after a write failed; once it
// is written, the jobs held back start.
func (q *runner) retrySave() {
	q.mu.Lock()
	if q.saveErr == nil || q.writer == nil || q.writerClosed {
		q.mu.Unlock()
		return
	}
	jobs := make([]*job, 0, len(q.jobs))
	for _, id := range q.order {
		if jb, ok := q.jobs[id]; ok { // a shelved one is in the journal already
			jobs = append(jobs, jb)
		}
	}
	failed := new(error)
	written := q.persistJobsChecked(jobs, failed)
	q.mu.Unlock()
	<-written
	if *failed != nil {
		return // saveFailed keeps the queue waiting; the next try comes later
	}
	q.mu.Lock()
	q.saveErr = nil
	for _, jb := range jobs {
		jb.held = false
	}
	q.notifyLocked()
	q.mu.Unlock()
	q.poke()
}
