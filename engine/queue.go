// Package engine is Hoist's upload queue: jobs, their states, a pool of workers
// that upload several files at once, pause/resume/cancel/retry, and progress
// counters that callers sample. It imports nothing from the window.
package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"hoist/engine/dest"
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
// and none of them blocks on the network.
type Queue struct {
	opts    Options
	log     *slog.Logger
	limiter *bandwidth
	pace    pacer     // Google's per-user quota, spent as uploads start
	labels  labelBook // the labels of the mailboxes emails went to, by name

	mu   sync.Mutex
	jobs map[JobID]*job
	// shelf holds the uploads of earlier runs left in the journal (see
	// shelved); a job is in jobs or in shelf, never in both.
	shelf    map[JobID]shelved
	order    []JobID
	running  int
	parallel int
	chunk    int64
	seq      int64
	batch    batch
	changed  chan struct{} // closed and replaced at every change
	version  uint64
	// changes counts every job's visible changes (Queue.bump), so that an
	// unchanged list of finished jobs is summed up once, not at every tick.
	changes atomic.Uint64
	summary struct { // the last Summary of a list where nothing moves
		valid            bool
		changes, version uint64
		files            int
		s                Summary
	}
	closed  bool
	notices []fact.Fact // said once: see Notices
	// unread are email jobs an older Hoist listed without their headers:
	// readEmails reads them after Open, not while the list opens.
	unread []*job

	writer       *recordWriter // nil without a journal
	sending      *sendingLog   // notes of one-request uploads in doubt; nil without a journal
	writerClosed bool          // under mu: the writer takes nothing more
	// saveErr, under mu, is why the last write to the journal failed, until
	// one succeeds: while it is set no upload starts (see retrySave).
	saveErr error

	kick   chan struct{}
	stop   context.CancelFunc
	loopWG sync.WaitGroup
	jobWG  sync.WaitGroup
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
	q := &Queue{
		opts:     opts,
		log:      log,
		limiter:  newBandwidth(opts.BandwidthLimit),
		pace:     pacer{clock: opts.Clock},
		jobs:     make(map[JobID]*job),
		parallel: opts.Parallel,
		chunk:    opts.ChunkSize,
		changed:  make(chan struct{}),
		kick:     make(chan struct{}, 1),
	}
	// A view of the list another Hoist holds is read, never written.
	var sent map[JobID]time.Time
	if opts.Journal != nil && !opts.Journal.View() {
		q.writer = newRecordWriter(opts.Journal, log, q.saveFailed)
		q.sending, sent = openSendingLog(opts.Journal.Path())
	}
	if err := q.load(ctx); err != nil {
		if q.writer != nil {
			_ = q.writer.close(ctx)
		}
		return nil, err
	}
	if err := q.sending.start(q.noteSent(sent)); err != nil {
		log.Warn("uploads in one request are noted in the list instead", "err", err)
	}
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
	return q, nil
}

// load brings back the journal's jobs.
func (q *Queue) load(ctx context.Context) error {
	j := q.opts.Journal
	if j == nil {
		return nil
	}
	if q.opts.HistoryFor > 0 && !j.View() {
		if err := j.Prune(q.opts.Clock.Now().Add(-q.opts.HistoryFor)); err != nil {
			q.log.Warn("could not forget old history", "err", err)
		}
	}
	recs, err := j.List()
	if err != nil {
		return fmt.Errorf("reading the list of uploads: %w", err)
	}
	var back []*job
	defer func() { q.persist(back...) }()
	moved := 0
	defer func() {
		if moved > 0 {
			q.notices = append(q.notices, dest.UpgradeFact(fact.UpgradedListed, moved))
		}
	}()
	ds := newDestinations()
	for i, rec := range recs {
		// What a job does not keep of its record is let go as the list is
		// read, not all at its end.
		recs[i] = journal.Record{}
		jb, emailUnknown, err := jobFromRecord(rec, ds, q.opts.LeanResults)
		if err != nil {
			q.log.Warn("skipping an unreadable upload record", "job", rec.ID, "err", err)
			continue
		}
		q.followSandboxLocked(jb)
		upgraded := false
		if jb.state != Done && jb.state != Canceled {
			jb.dest, upgraded = jb.dest.Upgraded()
		}
		if upgraded {
			moved++
			if jb.state.Finished() || jb.state == Attention {
				back = append(back, jb) // the others are saved below
			}
		}
		if !jb.state.Finished() && jb.state != Attention {
			q.moveLocked(jb, stepReopen)
			reason := jb.reason
			jb.sayLocked(nil, resumeFact(jb))
			if q.opts.AutoResume {
				q.moveLocked(jb, stepReopenGo)
				jb.next = fact.Said{}
			}
			if jb.peek().retryAt.After(q.opts.Clock.Now()) {
				// It was told to wait: it still does, and says why and until when.
				jb.reason, jb.next = reason, said(retryAtFact(jb.peek().retryAt, jb.peek().asked))
			}
			jb.verify = true // the file may have changed while Hoist was closed
			back = append(back, jb)
		}
		if jb.order > q.seq {
			q.seq = jb.order
		}
		if emailUnknown {
			q.unread = append(q.unread, jb)
		}
		if q.shelvable(jb, emailUnknown) { // never one of back: a Done job is neither moved nor upgraded
			q.shelveLocked(jb)
		} else {
			q.jobs[jb.id] = jb
		}
		q.order = append(q.order, jb.id)
	}
	sort.SliceStable(q.order, func(a, b int) bool { return q.orderLocked(q.order[a]) < q.orderLocked(q.order[b]) })
	_ = ctx
	return nil
}

// Notices are facts to tell the user once after Open, e.g. that
// uploads in the list moved to a current API version; each call returns
// them only once.
func (q *Queue) Notices() []fact.Fact {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.notices
	q.notices = nil
	return out
}

// Close pauses every running upload, waits (at most until ctx is done) for the
// workers to stop and the journal to be written, and stops the scheduler.
// Paused jobs keep their sessions and come back on the next Open.
func (q *Queue) Close(ctx context.Context) error {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return nil
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
	case <-ctx.Done():
		return fmt.Errorf("uploads did not stop in time: %w", ctx.Err())
	}
	if q.writer == nil {
		return nil
	}
	q.mu.Lock()
	q.writerClosed = true
	q.mu.Unlock()
	if err := q.writer.close(ctx); err != nil {
		q.sending.close(false)
		return fmt.Errorf("the list of uploads was not saved in time: %w", err)
	}
	q.sending.close(true) // every doubt is in the list now
	return nil
}

// noteSent puts the doubts a killed Hoist noted beside the list into the
// jobs they belong to, and writes them to the list; true when the list
// holds them (the notes may go).
func (q *Queue) noteSent(sent map[JobID]time.Time) bool {
	if len(sent) == 0 {
		return true
	}
	q.mu.Lock()
	var jobs []*job
	for id, at := range sent {
		jb, ok := q.jobs[id]
		if !ok || jb.state.Finished() || jb.peek().session.URI != "" || !at.After(jb.peek().session.Sent) {
			continue
		}
		jb.live().session.Sent = at
		jobs = append(jobs, jb)
	}
	var failed error
	written := q.persistJobsChecked(jobs, &failed)
	q.mu.Unlock()
	if written != nil {
		<-written
	}
	return failed == nil
}

// Wait blocks until nothing is waiting or uploading, or ctx is done.
func (q *Queue) Wait(ctx context.Context) error {
	for {
		q.mu.Lock()
		busy := false
		for _, jb := range q.jobs {
			if jb.state.Moving() {
				busy = true
				break
			}
		}
		ch := q.changed
		q.mu.Unlock()
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
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.changed
}

// SetParallel changes how many uploads run at once.
func (q *Queue) SetParallel(n int) {
	if n < 1 {
		n = 1
	}
	q.mu.Lock()
	q.parallel = n
	q.mu.Unlock()
	q.poke()
}

// SetChunkSize changes the chunk size of uploads that start from now on.
func (q *Queue) SetChunkSize(n int64) {
	q.mu.Lock()
	q.chunk = n
	q.mu.Unlock()
}

// SetBandwidthLimit caps the bytes per second of all uploads together; 0 lifts the cap.
func (q *Queue) SetBandwidthLimit(bytesPerSecond int64) {
	q.limiter.set(bytesPerSecond)
}

// notifyLocked records a change; q.mu must be held.
func (q *Queue) notifyLocked() {
	q.version++
	close(q.changed)
	q.changed = make(chan struct{})
}

// poke wakes the scheduler.
func (q *Queue) poke() {
	select {
	case q.kick <- struct{}{}:
	default:
	}
}

// saveRetryEvery spaces the tries to write the list again after a write
// failed (a full disk, say), while no upload starts.
var saveRetryEvery = 5 * time.Second

// schedule starts waiting jobs, in queue order, while there is room, and
// none while the list cannot be written.
func (q *Queue) schedule(ctx context.Context) {
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
func (q *Queue) dueLocked(jb *job) bool {
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
func (q *Queue) nextDueLocked() time.Time {
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
func (q *Queue) startLocked(ctx context.Context, jb *job) {
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

// saveFailed hears a write to the journal that failed: no upload starts
// from now until a write succeeds, and the user hears of it once.
func (q *Queue) saveFailed(err error) {
	q.mu.Lock()
	first := q.saveErr == nil
	q.saveErr = err
	q.notifyLocked()
	q.mu.Unlock()
	q.poke()
	if first {
		f := SaveFact(err)
		q.emit([]Event{{Kind: SaveFailed, Fact: &f}})
	}
}

// retrySave writes every job's record again after a write failed; once it
// is written, the jobs held back start.
func (q *Queue) retrySave() {
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

// SaveProblem is why the list of uploads could not be written, as long as
// it cannot: no upload starts meanwhile. nil when the last write succeeded.
func (q *Queue) SaveProblem() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.saveErr
}

// Flush waits until every record handed to the journal so far is written,
// and returns SaveProblem.
func (q *Queue) Flush() error {
	q.mu.Lock()
	if q.writer == nil || q.writerClosed {
		err := q.saveErr
		q.mu.Unlock()
		return err
	}
	written := q.writer.send(recordOp{}, true)
	q.mu.Unlock()
	<-written
	return q.SaveProblem()
}
