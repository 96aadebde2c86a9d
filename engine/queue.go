// Package engine is Hoist's upload queue: jobs, their states, a pool of workers
// that upload several files at once, pause/resume/cancel/retry, and progress
// counters that callers sample. It imports nothing from the window.
package engine

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Options configure a Queue. Zero values mean sensible defaults.
type Options struct {
	// Journal keeps jobs across quit, crash and restart; nil keeps them in memory only.
	Journal *journal.Journal
	// Accounts give the HTTP client (carrying the account's authorization)
	// for a destination that needs sign-in, and say what its failures mean.
	// Destinations that need none get a plain client.
	Accounts Accounts
	// SandboxURL is the base URL of the built-in sandbox, for sandbox destinations
	// that name none.
	SandboxURL string

	Method          upload.Method // the upload type new jobs use; "" or Auto chooses by size
	Parallel        int           // uploads at once; default 4
	ChunkSize       int64         // bytes per request of a resumable upload; 0 = whole file; upload.ChunkAuto = sized by the link
	Threshold       int64         // files under this go in one request; default 5 MiB
	BandwidthLimit  int64         // bytes per second across all uploads; 0 = no limit
	AutoResume      bool          // unfinished jobs from the journal start again by themselves
	Idle            bool          // never start an upload: for listing and editing the list
	SessionLifetime time.Duration // older sessions are not resumed; default 7 days
	HistoryFor      time.Duration // finished jobs older than this are forgotten at open; 0 = kept
	StallTimeout    time.Duration // a request making no progress this long is retried; default 60 s
	// MaxWait bounds the time each job waits before trying again, in all,
	// in this run (the command line's --max-wait); 0 = no bound. A job the
	// server asks to wait longer goes back to the list "waiting until" the
	// time it may try again (JobView.RetryAt, JobView.Later), for a later
	// run or the window to carry on then.
	MaxWait time.Duration
	// LeanResults leaves the server's whole answer (Result.Raw) of a job
	// finished in an earlier run in the journal, not in memory, and of an
	// upload an earlier run finished whole all but what the list needs at
	// a glance (see shelved): for the window, which never shows the
	// answers, with a long list of finished uploads.
	LeanResults bool
	// MailboxEmails is the most emails one mailbox file adds to the list
	// (the rest are said, not added); 0 = MaxMailboxEmails.
	MailboxEmails int

	Clock   upload.Clock   // nil = real time
	Backoff upload.Backoff // nil = the protocol's exponential backoff
	Logger  *slog.Logger   // nil = discard
	OnEvent func(Event)    // batch finished, a job needs the user; called without locks held

	// Transport underlies the plain client of destinations that need no sign-in.
	Transport http.RoundTripper
}

// EventKind says what an Event is about.
type EventKind int

const (
	BatchDone      EventKind = iota // nothing is waiting or uploading any more
	NeedsAttention                  // a job stopped and needs the user
	SaveFailed                      // the list of uploads could not be written to disk
)

// Event is something worth telling the user outside the window (a notification).
type Event struct {
	Kind EventKind
	Job  JobID // for NeedsAttention
	// Fact says what happened, in no language: the window words it.
	Fact *fact.Fact
}

// AddResult tells what Add made of the paths it was given.
type AddResult struct {
	IDs      []JobID         // a job per file, refused ones included
	Skipped  []media.Skipped // hidden and system files left out of folders
	Problems []error         // paths that could not become jobs at all
}

// ErrNoJob is returned for a job id the queue does not hold.
var ErrNoJob = errors.New("there is no such upload in the list")

// ErrNotNow is returned when an action does not apply to a job in its state.
var ErrNotNow = errors.New("that cannot be done to this upload right now")

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

// batch counts what happened since the queue was last idle, for the BatchDone event.
type batch struct {
	done, failed int
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
