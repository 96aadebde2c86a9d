package engine

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
)

// list is the list of uploads and its keeping: the jobs, the uploads of
// earlier runs left on the shelf, and the journal they are written to. Its
// lock, mu, guards the jobs for every part of the Queue; what changes is
// told on changed and to the run loop (poke).
type list struct {
	opts Options
	log  *slog.Logger

	mu   sync.Mutex
	jobs map[JobID]*job
	// shelf holds the uploads of earlier runs left in the journal (see
	// shelved); a job is in jobs or in shelf, never in both.
	shelf   map[JobID]shelved
	order   []JobID
	chunk   int64 // the chunk size of uploads that start from now on
	seq     int64
	changed chan struct{} // closed and replaced at every change
	version uint64
	// changes counts every job's visible changes (list.bump), so that an
	// unchanged list of finished jobs is summed up once, not at every tick.
	changes atomic.Uint64
	summary struct { // the last Summary of a list where nothing moves
		valid            bool
		changes, version uint64
		files            int
		s                Summary
	}
	closed  bool
	notices []fact.Fact // said once: see Queue.Notices
	// unread are email jobs an older Hoist listed without their headers:
	// readEmails reads them after Open, not while the list opens.
	unread []*job

	writer       *recordWriter // nil without a journal
	sending      *sendingLog   // notes of one-request uploads in doubt; nil without a journal
	writerClosed bool          // under mu: the writer takes nothing more
	// saveErr, under mu, is why the last write to the journal failed, until
	// one succeeds: while it is set no upload starts (see runner.retrySave).
	saveErr error

	kick chan struct{} // wakes the run loop
}

// load brings back the journal's jobs.
func (l *list) load(ctx context.Context) error {
	j := l.opts.Journal
	if j == nil {
		return nil
	}
	if l.opts.HistoryFor > 0 && !j.View() {
		if err := j.Prune(l.opts.Clock.Now().Add(-l.opts.HistoryFor)); err != nil {
			l.log.Warn("could not forget old history", "err", err)
		}
	}
	recs, err := j.List()
	if err != nil {
		return fmt.Errorf("reading the list of uploads: %w", err)
	}
	var back []*job
	defer func() { l.persist(back...) }()
	moved := 0
	defer func() {
		if moved > 0 {
			l.notices = append(l.notices, dest.UpgradeFact(fact.UpgradedListed, moved))
		}
	}()
	ds := newDestinations()
	for i, rec := range recs {
		// What a job does not keep of its record is let go as the list is
		// read, not all at its end.
		recs[i] = journal.Record{}
		jb, emailUnknown, err := jobFromRecord(rec, ds, l.opts.LeanResults)
		if err != nil {
			l.log.Warn("skipping an unreadable upload record", "job", rec.ID, "err", err)
			continue
		}
		l.followSandboxLocked(jb)
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
			l.moveLocked(jb, stepReopen)
			reason := jb.reason
			jb.sayLocked(nil, resumeFact(jb))
			if l.opts.AutoResume {
				l.moveLocked(jb, stepReopenGo)
				jb.next = fact.Said{}
			}
			if jb.peek().retryAt.After(l.opts.Clock.Now()) {
				// It was told to wait: it still does, and says why and until when.
				jb.reason, jb.next = reason, said(retryAtFact(jb.peek().retryAt, jb.peek().asked))
			}
			jb.verify = true // the file may have changed while Hoist was closed
			back = append(back, jb)
		}
		if jb.order > l.seq {
			l.seq = jb.order
		}
		if emailUnknown {
			l.unread = append(l.unread, jb)
		}
		if l.shelvable(jb, emailUnknown) { // never one of back: a Done job is neither moved nor upgraded
			l.shelveLocked(jb)
		} else {
			l.jobs[jb.id] = jb
		}
		l.order = append(l.order, jb.id)
	}
	sort.SliceStable(l.order, func(a, b int) bool { return l.orderLocked(l.order[a]) < l.orderLocked(l.order[b]) })
	_ = ctx
	return nil
}

// noteSent puts the doubts a killed Hoist noted beside the list into the
// jobs they belong to, and writes them to the list; true when the list
// holds them (the notes may go).
func (l *list) noteSent(sent map[JobID]time.Time) bool {
	if len(sent) == 0 {
		return true
	}
	l.mu.Lock()
	var jobs []*job
	for id, at := range sent {
		jb, ok := l.jobs[id]
		if !ok || jb.state.Finished() || jb.peek().session.URI != "" || !at.After(jb.peek().session.Sent) {
			continue
		}
		jb.live().session.Sent = at
		jobs = append(jobs, jb)
	}
	var failed error
	written := l.persistJobsChecked(jobs, &failed)
	l.mu.Unlock()
	if written != nil {
		<-written
	}
	return failed == nil
}

// notifyLocked records a change; list.mu must be held.
func (l *list) notifyLocked() {
	l.version++
	close(l.changed)
	l.changed = make(chan struct{})
}

// poke wakes the scheduler.
func (l *list) poke() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// saveFailed hears a write to the journal that failed: no upload starts
// from now until a write succeeds, and the user hears of it once.
func (l *list) saveFailed(err error) {
	l.mu.Lock()
	first := l.saveErr == nil
	l.saveErr = err
	l.notifyLocked()
	l.mu.Unlock()
	l.poke()
	if first {
		f := SaveFact(err)
		l.emit([]Event{{Kind: SaveFailed, Fact: &f}})
	}
}

// persist hands the jobs' records to the journal writer, which writes them
// in one transaction, with others that queue up meanwhile; list.mu must be
// held. A failed write is logged, not fatal: the upload itself can still finish.
func (l *list) persist(jobs ...*job) {
	l.persistJobs(jobs, false)
}

// persistJobs hands the records over; with wait set the returned channel is
// closed once they are on disk (nil when there is nothing to wait for).
// list.mu must be held.
func (l *list) persistJobs(jobs []*job, wait bool) <-chan struct{} {
	return l.persistJobsAnd(jobs, wait, nil)
}

// persistJobsChecked hands the records over and returns a channel closed
// once they are written, after which *failed holds the error of a record
// that could not be; a closed channel when there is no journal.
// list.mu must be held.
func (l *list) persistJobsChecked(jobs []*job, failed *error) <-chan struct{} {
	if written := l.persistJobsAnd(jobs, true, failed); written != nil {
		return written
	}
	done := make(chan struct{})
	close(done)
	return done
}

func (l *list) persistJobsAnd(jobs []*job, wait bool, failed *error) <-chan struct{} {
	if l.writer == nil || l.writerClosed || len(jobs) == 0 {
		return nil
	}
	recs := make([]journal.Record, 0, len(jobs))
	for _, jb := range jobs {
		rec, err := jb.recordLocked()
		if err != nil {
			l.log.Error("could not save the upload list", "job", jb.id, "err", err)
			continue
		}
		recs = append(recs, rec)
	}
	return l.writer.send(recordOp{recs: recs, failed: failed}, wait)
}

// writeDone writes jb's finished record and waits until it is on disk, without
// holding list.mu, so that jobs finishing together share one write; false
// when there is no journal to write to or the write failed (then err says why).
func (l *list) writeDone(jb *job, method upload.Method, r *Result, now time.Time) (bool, error) {
	l.mu.Lock()
	if l.writer == nil || l.writerClosed {
		l.mu.Unlock()
		return false, nil
	}
	rec, err := jb.recordLocked()
	if err != nil {
		l.mu.Unlock()
		return false, err
	}
	rec.State = string(Done)
	rec.Finished = now
	rec.SessionURI, rec.SessionStarted, rec.SentAt, rec.Since = "", time.Time{}, time.Time{}, ""
	rec.Committed = jb.info.Size
	rec.LastError = ""
	if method != "" {
		rec.Method = string(method)
	}
	putResult(&rec, r)
	op := recordOp{recs: []journal.Record{rec}, failed: new(error)}
	written := l.writer.send(op, true)
	l.mu.Unlock()
	<-written
	if *op.failed != nil {
		return false, *op.failed
	}
	return true, nil
}

func (l *list) emit(events []Event) {
	if l.opts.OnEvent == nil {
		return
	}
	for _, ev := range events {
		l.opts.OnEvent(ev)
	}
}

func (l *list) removeLocked(ids ...JobID) {
	drop := make(map[JobID]bool, len(ids))
	for _, id := range ids {
		drop[id] = true
		delete(l.jobs, id)
		delete(l.shelf, id)
	}
	kept := l.order[:0]
	for _, id := range l.order {
		if !drop[id] {
			kept = append(kept, id)
		}
	}
	l.order = kept
	if l.writer != nil && !l.writerClosed {
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = string(id)
		}
		l.writer.send(recordOp{deletes: keys}, false)
	}
}

// closeJournal writes what is left to the journal and closes it, once the
// workers have stopped.
func (l *list) closeJournal(ctx context.Context) error {
	if l.writer == nil {
		return nil
	}
	l.mu.Lock()
	l.writerClosed = true
	l.mu.Unlock()
	if err := l.writer.close(ctx); err != nil {
		l.sending.close(false)
		return fmt.Errorf("the list of uploads was not saved in time: %w", err)
	}
	l.sending.close(true) // every doubt is in the list now
	return nil
}

// bump counts a visible change of jb, in the job and in the queue.
func (l *list) bump(jb *job) {
	jb.ver.Add(1)
	l.changes.Add(1)
}

// readEmails reads the headers of the email jobs an older Hoist listed
// without them, after the list is open, and keeps them in their records, so
// that the next start reads no file. A file that cannot be read now keeps
// its row without them, as before.
func (l *list) readEmails(ctx context.Context) {
	l.mu.Lock()
	unread := l.unread
	l.unread = nil
	l.mu.Unlock()
	var read []*job
	for _, jb := range unread {
		if ctx.Err() != nil {
			break
		}
		l.mu.Lock()
		path := jb.info.Path
		l.mu.Unlock()
		e, err := readEmailHeaders(path)
		if err != nil {
			continue
		}
		l.mu.Lock()
		if l.jobs[jb.id] == jb && jb.info.Path == path && jb.info.Email == nil {
			jb.info.Email = e
			l.bump(jb)
			read = append(read, jb)
		}
		l.mu.Unlock()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(read) > 0 {
		l.notifyLocked()
		l.persist(read...)
	}
}

// sandboxDestination marks a destination for the built-in sandbox and gives
// it the running sandbox's address (dest.Destination.ForSandbox).
func (l *list) sandboxDestination(d dest.Destination) dest.Destination {
	return d.ForSandbox(l.opts.SandboxURL)
}

// followSandboxLocked points a job for the built-in sandbox at the sandbox
// running now, if it listens somewhere else than when the job last ran;
// list.mu must be held. It reports whether anything changed.
func (l *list) followSandboxLocked(jb *job) bool {
	now := strings.TrimRight(l.opts.SandboxURL, "/")
	before := jb.dest.BaseURL
	if !jb.dest.BuiltinSandbox || now == "" || before == now {
		return false
	}
	jb.dest.BaseURL = now
	if uri := jb.peek().session.URI; uri != "" {
		jb.live().session.URI = moveServer(uri, before, now)
	}
	if jb.result != nil {
		jb.result.URL = moveServer(jb.result.URL, before, now)
	}
	return true
}
