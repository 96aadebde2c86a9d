// Package engine is Hoist's upload queue: jobs, their states, a pool of workers
// that upload several files at once, pause/resume/cancel/retry, and progress
// counters that callers sample. It imports nothing from the window.
package engine

import (
	"context"
	"errors"
	"hoist/engine/dest"
	"log/slog"
	"time"

	"hoist/engine/fact"
	"hoist/engine/upload"
)

// Queue holds the jobs and runs them. All methods are safe for concurrent use
// and none of them blocks on the network. It is the public face of four
// parts that share one list: what the user asks (actions), what is shown
// (views, whose Jobs, Briefs, Job and Summary are the Queue's own), the run
// loop and its workers (runner), and the list itself with its journal
// (list).
type Queue struct {
	*views
	list    *list
	run     *runner
	actions *actions
}

// Open loads the journal's jobs (unfinished ones come back paused unless
// AutoResume is set) and starts the scheduler. Close stops it.
func Open(ctx context.Context, opts Options) (*Queue, error) {
	if opts.Parallel <= 0 {
		opts.Parallel = 4
	}
	if opts.Threshold <= 0 {
		opts.Threshold = upload.DefaultThreshold
	}
	if opts.SessionLifetime <= 0 {
		opts.SessionLifetime = 7 * 24 * time.Hour
	}
	if opts.Clock == nil {
		opts.Clock = upload.RealClock{}
	}
	if opts.Transport == nil {
		opts.Transport = DefaultTransport()
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &list{
		opts:    opts,
		log:     log,
		jobs:    make(map[JobID]*job),
		chunk:   opts.ChunkSize,
		changed: make(chan struct{}),
		kick:    make(chan struct{}, 1),
	}
	run := &runner{
		list:     l,
		limiter:  newBandwidth(opts.BandwidthLimit),
		pace:     pacer{clock: opts.Clock},
		parallel: opts.Parallel,
	}
	q := &Queue{views: &views{l}, list: l, run: run, actions: &actions{list: l, run: run}}
	// A view of the list another Hoist holds is read, never written.
	var sent map[JobID]time.Time
	if opts.Journal != nil && !opts.Journal.View() {
		l.writer = newRecordWriter(opts.Journal, log, l.saveFailed)
		l.sending, sent = openSendingLog(opts.Journal.Path())
	}
	if err := l.load(ctx); err != nil {
		if l.writer != nil {
			_ = l.writer.close(ctx)
		}
		return nil, err
	}
	if err := l.sending.start(l.noteSent(sent)); err != nil {
		log.Warn("uploads in one request are noted in the list instead", "err", err)
	}
	run.start(ctx)
	return q, nil
}

// Notices are facts to tell the user once after Open, e.g. that
// uploads in the list moved to a current API version; each call returns
// them only once.
func (q *Queue) Notices() []fact.Fact {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	out := q.list.notices
	q.list.notices = nil
	return out
}

// Close pauses every running upload, waits (at most until ctx is done) for the
// workers to stop and the journal to be written, and stops the scheduler.
// Paused jobs keep their sessions and come back on the next Open.
func (q *Queue) Close(ctx context.Context) error {
	if err := q.run.stopAll(ctx); err != nil {
		if errors.Is(err, errAlreadyClosed) {
			return nil
		}
		return err
	}
	return q.list.closeJournal(ctx)
}

// Wait blocks until nothing is waiting or uploading, or ctx is done.
func (q *Queue) Wait(ctx context.Context) error {
	for {
		q.list.mu.Lock()
		busy := false
		for _, jb := range q.list.jobs {
			if jb.state.Moving() {
				busy = true
				break
			}
		}
		ch := q.list.changed
		q.list.mu.Unlock()
		if !busy {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Changed returns a channel closed at the next change of any job.
func (q *Queue) Changed() <-chan struct{} {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	return q.list.changed
}

// SetParallel changes how many uploads run at once.
func (q *Queue) SetParallel(n int) { q.run.setParallel(n) }

// SetChunkSize changes the chunk size of uploads that start from now on.
func (q *Queue) SetChunkSize(n int64) {
	q.list.mu.Lock()
	q.list.chunk = n
	q.list.mu.Unlock()
}

// SetBandwidthLimit caps the bytes per second of all uploads together; 0 lifts the cap.
func (q *Queue) SetBandwidthLimit(bytesPerSecond int64) {
	q.run.limiter.set(bytesPerSecond)
}

// SaveProblem is why the list of uploads could not be written, as long as
// it cannot: no upload starts meanwhile. nil when the last write succeeded.
func (q *Queue) SaveProblem() error {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	return q.list.saveErr
}

// Flush waits until every record handed to the journal so far is written,
// and returns SaveProblem.
func (q *Queue) Flush() error {
	q.list.mu.Lock()
	if q.list.writer == nil || q.list.writerClosed {
		err := q.list.saveErr
		q.list.mu.Unlock()
		return err
	}
	written := q.list.writer.send(recordOp{}, true)
	q.list.mu.Unlock()
	<-written
	return q.SaveProblem()
}

// Add queues files and folders for d. Folders become their files; hidden and
// system files are skipped and reported. A file that breaks one of d's rules
// becomes a Refused row that says which rule; the rest of the batch goes on.
// Each job is in the journal before Add returns, so before any byte is sent.
// A file whose bytes already went whole to the same place is left out, and
// said (*AlreadySent): AddAgain sends it again.
func (q *Queue) Add(paths []string, d dest.Destination) AddResult {
	return q.actions.add(paths, d, false)
}

// Do does a to job id, as the table in lifecycle.go allows: an action the
// job's state does not allow is refused with a *NotAllowedError and changes
// nothing. A job that holds an upload slot stops within a second and then
// takes the state the table gives; the others take it at once. Retry of a
// refused file and Restart look at the file again, without holding the
// queue's lock; a file that now breaks a rule stays (or becomes) Refused.
// Pause stops a job's bytes within a second and keeps its session, so
// Resume continues from where the server stands; Resume first asks the
// server where the upload stands. Cancel stops a job for good. Retry queues
// a failed, canceled or refused job again (a kept session is resumed, a
// refused file checked again first). Restart uploads the file again from
// byte 0 as it is now, under a new session. Remove takes a job off the list
// (stopping it first) and out of the journal.
func (q *Queue) Do(id JobID, a Action) error { return q.actions.do(id, a) }

// PauseAll pauses every waiting or running job.
func (q *Queue) PauseAll() { q.actions.doAll(Pause) }

// ResumeAll resumes every paused job.
func (q *Queue) ResumeAll() { q.actions.doAll(Resume, Paused) }

// RetryFailed retries every failed job.
func (q *Queue) RetryFailed() { q.actions.doAll(Retry, Failed) }

// ClearFinished forgets done, canceled and refused jobs (history included).
func (q *Queue) ClearFinished() { q.actions.clearFinished() }

// AddAgain is Add for files the user chose to send again, though the same
// bytes went to the same place before (AlreadySent).
func (q *Queue) AddAgain(paths []string, d dest.Destination) AddResult {
	return q.actions.add(paths, d, true)
}

// ResumeSignedIn sends on every job that waits for a sign-in of account
// (or names no account), once the user has signed in. It returns the jobs
// it resumed.
func (q *Queue) ResumeSignedIn(account string) []JobID { return q.actions.resumeSignedIn(account) }
