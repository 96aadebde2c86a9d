package engine

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/proxy"
	"hoist/engine/upload"
)

// Why a job's context was cancelled.
var (
	errPaused   = errors.New("paused")
	errClosing  = errors.New("Hoist is closing")
	errCanceled = errors.New("canceled")
	errRemoved  = errors.New("removed")
)

// progressEvery spaces the journal's progress writes; the server, asked on
// resume, is the truth about progress, so a write per chunk is not needed.
const progressEvery = 250 * time.Millisecond

// run uploads jb until it finishes, fails or is stopped.
func (q *Queue) run(ctx context.Context, jb *job) {
	res, err := q.upload(ctx, jb)
	q.finish(jb, res, err, context.Cause(ctx))
}

func (q *Queue) upload(ctx context.Context, jb *job) (*upload.Result, error) {
	q.mu.Lock()
	if q.followSandboxLocked(jb) {
		q.persist(jb)
	}
	info, d, session, verify, chunk, method, checked := jb.info, jb.dest, jb.peek().session, jb.verify, q.chunk, jb.method, jb.checked
	if jb.chunkSet {
		chunk = jb.chunk // a resumed job goes on as it began
	}
	q.mu.Unlock()

	if verify {
		if err := media.Verify(info); err != nil {
			return nil, err
		}
		q.mu.Lock()
		jb.verify = false
		q.mu.Unlock()
	}
	if info.Email != nil && info.Email.MessageID == "" && isEmail(d, info.MIME) {
		// The list keeps what a row shows of an email; its Message-ID, which
		// finds it after a lost answer, is read from the file again.
		if e, err := media.ReadEmailOf(info); err == nil && (e != nil || !info.Converted()) {
			if e != nil {
				e.FileSize = info.Email.FileSize // an email made from the file stays made from it
			}
			info.Email = e
		}
	}
	// A file added in this run was checked then, with its settings; one
	// from the list of an earlier run is checked now, once.
	var (
		plan dest.Plan
		err  error
	)
	if !checked {
		err = validate(d)
		if err == nil {
			err = checkRules(d, info)
		}
	}
	if err == nil {
		plan, err = build(d, info)
	}
	if err != nil {
		return nil, err
	}
	if session.URI == "" && session.Sent.IsZero() {
		// Sent afresh: where the destination stands now is noted, on disk
		// before a byte goes, so that a lookup after a lost answer (in this
		// run or a later one) looks only at what was added since.
		if since, ok := d.Mark(ctx, info, q.markClients(d), q.opts.Clock.Now()); ok {
			q.mu.Lock()
			jb.live().since = since
			written := q.persistJobs([]*job{jb}, true)
			q.mu.Unlock()
			if written != nil {
				<-written
			}
		}
	}
	q.mu.Lock()
	plan.Since = jb.peek().since
	q.mu.Unlock()
	plan = d.Findable(plan, info, string(jb.id))
	q.mu.Lock()
	jb.checked = true
	q.mu.Unlock()
	if len(plan.Find) > 0 {
		plan.Target.Lookup = &lookup{q: q, d: d, ways: plan.Find}
	}
	q.mu.Lock()
	jb.canAsk = plan.Target.Lookup != nil
	jb.unmarked = plan.Unmarked
	q.mu.Unlock()
	client, err := q.client(ctx, d)
	if err != nil {
		return nil, &signInError{err}
	}
	if labeled, err := q.withMailboxLabels(ctx, client, d, info); err != nil {
		return nil, err
	} else if labeled.Params["labels"] != d.Params["labels"] {
		// The email's own labels: its request is built again with them.
		d = labeled
		if plan, err = build(d, info); err != nil {
			return nil, err
		}
		plan = d.Findable(plan, info, string(jb.id))
		if len(plan.Find) > 0 {
			plan.Target.Lookup = &lookup{q: q, d: d, ways: plan.Find}
		}
	}
	f, err := media.Open(info)
	if err != nil {
		return nil, err
	}
	defer f.Close()

	if method == "" || method == upload.Auto || plan.Method == upload.Resumable {
		method = plan.Method // a method chosen by the user, or fallen back to, stays; a destination that takes only sessions gets one
	}
	if method == "" {
		method = upload.Auto
	}
	lifetime := q.opts.SessionLifetime
	if d.SessionLifetime > 0 {
		lifetime = d.SessionLifetime
	}
	q.mu.Lock()
	var maxWait time.Duration
	if q.opts.MaxWait > 0 {
		maxWait = max(q.opts.MaxWait-jb.peek().waited, time.Nanosecond) // what this run still waits for the job
	}
	q.mu.Unlock()
	up := &upload.Uploader{
		MaxWait:         maxWait,
		Client:          q.pace.client(client, d),
		ChunkSize:       chunk,
		Threshold:       q.opts.Threshold,
		Backoff:         q.opts.Backoff,
		Clock:           q.opts.Clock,
		StallTimeout:    q.opts.StallTimeout,
		SessionLifetime: lifetime,
	}
	var resume *upload.Session
	if session.URI != "" || !session.Sent.IsZero() {
		resume = &session // a session to ask, or a one-request upload in doubt to look for
	}
	src := q.limiter.source(ctx, f)
	return up.Upload(ctx, plan.Target, src, method, resume, &observer{q: q, jb: jb, size: info.Size})
}

// markClients gives d's clients for noting where it stands before an
// upload: with scopes the sign-in already allows, never asking for more.
func (q *Queue) markClients(d dest.Destination) dest.Clients {
	return func(ctx context.Context, scopes []string) (*http.Client, error) {
		if !d.NeedsAuth() || q.opts.Accounts == nil {
			return named(&http.Client{Transport: q.opts.Transport}), nil
		}
		c, err := q.opts.Accounts.Client(ctx, d.Account, scopes)
		if err != nil {
			return nil, err
		}
		return named(c), nil
	}
}

// client is the HTTP client for d: the account's for Google, a plain one otherwise.
func (q *Queue) client(ctx context.Context, d dest.Destination) (*http.Client, error) {
	if d.NeedsAuth() && q.opts.Accounts != nil {
		c, err := q.opts.Accounts.Client(ctx, d.Account, d.Scopes())
		if err != nil {
			return nil, err
		}
		return named(c), nil
	}
	return named(&http.Client{Transport: q.opts.Transport}), nil
}

// finish records how a run ended.
func (q *Queue) finish(jb *job, res *upload.Result, err, cause error) {
	var events []Event
	now := q.opts.Clock.Now()
	written := false
	var saveErr error
	var result *Result
	if err == nil && res != nil {
		result = resultFrom(jb.dest, res.Body)
		result.Verified = res.Verified
		// The journal has the finished record before anyone sees the job done.
		written, saveErr = q.writeDone(jb, res.Method, result, now)
	}
	q.mu.Lock()
	jb.live().cancel = nil
	q.running--
	jb.live().retryAt = time.Time{}
	// What was sent beyond what the server confirmed: a pause gives it up,
	// and the row, showing less than it did, says why.
	unconfirmed := jb.sent.Load() - jb.committed.Load()
	var wholeOut time.Time
	if jb.run != nil {
		if unconfirmed > 0 {
			wholeOut = jb.run.wholeOut
		}
		jb.run.wholeOut = time.Time{} // kept again below while Paused
	}
	jb.meters.Load().reset()
	// Bytes sent but not confirmed are not known to be anywhere: the next run
	// asks the server and goes on from there.
	jb.sent.Store(jb.committed.Load())
	removed := false
	var wait *upload.WaitError
	switch {
	case err == nil && res != nil:
		q.moveLocked(jb, stepDone)
		jb.finished = now
		if jb.run != nil {
			jb.run.session, jb.run.since, jb.run.wholeOut = upload.Session{}, "", time.Time{}
		}
		jb.committed.Store(jb.info.Size)
		jb.sent.Store(jb.info.Size)
		jb.sayLocked(nil, nil)
		if res.Method != "" {
			jb.method = res.Method
		}
		jb.result = result
		jb.settle() // a finished job keeps nothing of its run
		if saveErr != nil {
			// Written again below; the row says so rather than only the log.
			jb.next = said(&fact.Fact{Code: fact.NotNoted, Google: dest.Redact(saveErr.Error())})
		}
		q.batch.done++
	case errors.Is(cause, errRemoved):
		removed = true
	case errors.Is(cause, errPaused), errors.Is(cause, errClosing):
		if errors.Is(cause, errPaused) {
			q.stoppedByLocked(jb, Pause)
		} else {
			q.moveLocked(jb, stepClosing)
		}
		jb.sayLocked(nil, resumeFact(jb))
		if unconfirmed > 0 {
			jb.live().unconfirmed = unconfirmed
		}
		if !wholeOut.IsZero() {
			jb.live().wholeOut = wholeOut
		}
	case errors.As(err, &wait):
		// The server asked for a longer wait than this run waits: the job
		// goes back to the list until then, saying so.
		q.moveLocked(jb, stepLater)
		jb.live().retryAt, jb.live().asked, jb.live().counted = wait.Until, wait.Asked, false
		jb.explainLocked(wait.Cause)
		jb.next = said(retryAtFact(wait.Until, wait.Asked))
		if q.opts.MaxWait > 0 && jb.peek().waited+wait.Wait > q.opts.MaxWait {
			jb.live().later = true
		}
	case errors.Is(err, upload.ErrNotNoted) && !doubted(err):
		// Neither the notes nor the list could keep when it went out, so it
		// did not go: it waits, unstarted, until the list can be written
		// (Queue.retrySave), as a file added meanwhile does.
		q.moveLocked(jb, stepLater)
		jb.held = true
		jb.sayLocked(nil, nil)
	case errors.Is(cause, errCanceled):
		q.stoppedByLocked(jb, Cancel)
		q.canceledLocked(jb, wholeOut)
	default:
		q.failLocked(jb, err)
		q.batch.failed++
		if jb.state == Attention || jb.state == Failed {
			events = append(events, Event{Kind: NeedsAttention, Job: jb.id, Fact: jb.reason.Fact})
		}
	}
	q.bump(jb)
	if !removed && !written {
		q.persist(jb)
	}
	if written && jb.state == Done && jb.next == (fact.Said{}) && q.shelvable(jb, false) {
		// Its finished record is on disk: from now on it is read from there
		// when shown, so that a long day's uploads do not pile up in memory.
		q.shelveLocked(jb)
		delete(q.jobs, jb.id)
	}
	if ev, ok := q.batchEndLocked(); ok {
		events = append(events, ev)
		if q.writer != nil && !q.writerClosed && q.saveErr == nil {
			q.writer.send(recordOp{keepCopy: true}, false) // the list's last good copy
		}
	}
	q.notifyLocked()
	q.mu.Unlock()
	q.poke()
	q.emit(events)
}

// canceledLocked forgets jb's session, but not its doubt: a one-request
// upload canceled while its answer was awaited may have arrived, so when
// it went out is kept (in the list too), the row says so, and Retry asks
// the destination before it sends the file again. A resumable upload whose
// last byte went out at wholeOut (zero: it did not) may have arrived too:
// it keeps its session, which Retry asks before it sends anything.
// Queue.mu must be held.
func (q *Queue) canceledLocked(jb *job, wholeOut time.Time) {
	s := jb.peek().session
	sent := s.Sent
	if jb.run != nil {
		jb.run.wholeOut = time.Time{}
	}
	if s.URI != "" && !wholeOut.IsZero() {
		sent = wholeOut
	} else {
		jb.live().session = upload.Session{Sent: sent}
	}
	if sent.IsZero() {
		jb.sayLocked(&fact.Fact{Code: fact.Canceled}, &fact.Fact{Code: fact.PressRetry})
		return
	}
	reason := jb.fact(fact.CanceledInDoubt)
	reason.Args = mergeArgs(reason.Args, map[string]string{"at": sent.Format(time.RFC3339)})
	jb.sayLocked(reason, jb.fact(fact.CheckFirst))
}

// stoppedByLocked takes a job whose upload the user stopped with a to the
// state the table gives; Queue.mu must be held.
func (q *Queue) stoppedByLocked(jb *job, a Action) {
	to, err := allowLocked(jb, a)
	if err != nil {
		if strictSteps {
			panic(err)
		}
		q.log.Error("job state", "job", jb.id, "action", a, "err", err)
		to = map[Action]State{Pause: Paused, Cancel: Canceled}[a]
	}
	q.setStateLocked(jb, to)
}

// failLocked puts a plain reason and next step on jb for err; Queue.mu must be held.
func (q *Queue) failLocked(jb *job, err error) {
	jb.locked = false
	explained := false
	var refusal *dest.Refusal
	var needsUser interface {
		error
		Retryable() bool
	}
	switch {
	case errors.Is(err, media.ErrMissing):
		q.moveLocked(jb, stepFail)
	case errors.Is(err, upload.ErrFileChanged):
		q.moveLocked(jb, stepNeedsUser)
		jb.live().session = upload.Session{}
		jb.verify = true // resuming checks again; only Restart sends the new file
		jb.changed = true
	case doubted(err):
		// The destination may hold the file, or holds a copy that is not
		// it: never sent again on its own. Its session (if any) stays, to
		// be asked again; only Restart sends a new copy.
		q.moveLocked(jb, stepNeedsUser)
		jb.doubt, jb.live().looks = doubtOf(err, jb.canAsk || jb.peek().session.URI != "")
	case errors.As(err, &refusal):
		q.moveLocked(jb, stepRefuse)
	case errors.Is(err, proxy.ErrOfficeProxy):
		// The office proxy stopped it (a sign-in it asks for, or no answer):
		// its own sentence says so, not Google's sign-in nor the server's refusal.
		q.moveLocked(jb, stepFail)
	case q.opts.Accounts != nil && q.opts.Accounts.KeychainLocked(err):
		q.moveLocked(jb, stepNeedsUser)
		jb.locked = true
	case q.opts.Accounts != nil && q.opts.Accounts.NeedsSignIn(err), errors.As(err, &needsUser) && !needsUser.Retryable(),
		scopesRefused(err): // the sign-in lacks a permission the upload needs: signing in again gives it
		q.moveLocked(jb, stepNeedsUser) // one fact, whether never signed in, expired or withdrawn
	default:
		q.moveLocked(jb, stepFail)
		explained = true
		var api *upload.APIError
		if errors.As(err, &api) && dest.RefusalPassesLater(jb.dest, api) {
			// The server refused the bytes it received, damaged on the way:
			// the session that carried them cannot be finished, and Retry
			// sends the file anew.
			jb.live().session = upload.Session{}
			jb.committed.Store(0)
			jb.sent.Store(0)
		}
	}
	reason, next := stopFacts(jb, err)
	jb.sayLocked(reason, next)
	if explained || scopesRefused(err) {
		jb.details = dest.GoogleWords(err) // Google's own words, beside the fact
	}
	q.log.Info("upload stopped", "job", jb.id, "state", jb.state, "reason", reason.Code)
}

// batchEndLocked reports a finished batch once nothing is waiting or moving.
func (q *Queue) batchEndLocked() (Event, bool) {
	if q.batch.done+q.batch.failed == 0 {
		return Event{}, false
	}
	for _, jb := range q.jobs {
		if jb.state.Moving() {
			return Event{}, false
		}
	}
	b := q.batch
	q.batch = batch{}
	f := &fact.Fact{Code: fact.BatchDone, Count: b.done}
	if b.failed > 0 {
		f.Args = map[string]string{"failed": strconv.Itoa(b.failed)}
	}
	return Event{Kind: BatchDone, Fact: f}, true
}

func (q *Queue) emit(events []Event) {
	if q.opts.OnEvent == nil {
		return
	}
	for _, ev := range events {
		q.opts.OnEvent(ev)
	}
}

// persist hands the jobs' records to the journal writer, which writes them
// in one transaction, with others that queue up meanwhile; Queue.mu must be
// held. A failed write is logged, not fatal: the upload itself can still finish.
func (q *Queue) persist(jobs ...*job) {
	q.persistJobs(jobs, false)
}

// persistJobs hands the records over; with wait set the returned channel is
// closed once they are on disk (nil when there is nothing to wait for).
// Queue.mu must be held.
func (q *Queue) persistJobs(jobs []*job, wait bool) <-chan struct{} {
	return q.persistJobsAnd(jobs, wait, nil)
}

// persistJobsChecked hands the records over and returns a channel closed
// once they are written, after which *failed holds the error of a record
// that could not be; a closed channel when there is no journal.
// Queue.mu must be held.
func (q *Queue) persistJobsChecked(jobs []*job, failed *error) <-chan struct{} {
	if written := q.persistJobsAnd(jobs, true, failed); written != nil {
		return written
	}
	done := make(chan struct{})
	close(done)
	return done
}

func (q *Queue) persistJobsAnd(jobs []*job, wait bool, failed *error) <-chan struct{} {
	if q.writer == nil || q.writerClosed || len(jobs) == 0 {
		return nil
	}
	recs := make([]journal.Record, 0, len(jobs))
	for _, jb := range jobs {
		rec, err := jb.recordLocked()
		if err != nil {
			q.log.Error("could not save the upload list", "job", jb.id, "err", err)
			continue
		}
		recs = append(recs, rec)
	}
	return q.writer.send(recordOp{recs: recs, failed: failed}, wait)
}

// writeDone writes jb's finished record and waits until it is on disk, without
// holding Queue.mu, so that jobs finishing together share one write; false
// when there is no journal to write to or the write failed (then err says why).
func (q *Queue) writeDone(jb *job, method upload.Method, r *Result, now time.Time) (bool, error) {
	q.mu.Lock()
	if q.writer == nil || q.writerClosed {
		q.mu.Unlock()
		return false, nil
	}
	rec, err := jb.recordLocked()
	if err != nil {
		q.mu.Unlock()
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
	written := q.writer.send(op, true)
	q.mu.Unlock()
	<-written
	if *op.failed != nil {
		return false, *op.failed
	}
	return true, nil
}

// observer hears one job's upload and keeps its counters.
type observer struct {
	q     *Queue
	jb    *job
	size  int64
	whole bool // the file's last byte went out (underway.wholeOut is set)
}

func (o *observer) SessionStarted(s upload.Session) {
	o.q.mu.Lock()
	o.jb.live().session = s
	o.q.bump(o.jb)
	written := o.q.persistJobs([]*job{o.jb}, true)
	o.q.mu.Unlock()
	if written != nil {
		<-written // before any byte: a crash from here on resumes this session
	}
}

// Doubt keeps when a one-request upload went out, its answer not heard:
// noted beside the list before the body goes out (sendingLog), and in the
// job's record when the upload stops, so that an upload killed while it
// waited is looked for, not sent again, when it is resumed.
//
// A time that neither the note nor the list could keep is an error: the
// body does not go out, and the job waits until the list can be written.
func (o *observer) Doubt(sent time.Time) error {
	o.q.mu.Lock()
	before := o.jb.live().session.Sent
	o.jb.live().session.Sent = sent
	o.q.mu.Unlock()
	noteErr := o.q.sending.note(o.jb.id, sent)
	if noteErr == nil && o.q.sending.usable() {
		return nil
	}
	if noteErr != nil {
		o.q.log.Warn("noting an upload under way in the list instead", "err", noteErr)
	}
	if sent.IsZero() {
		o.q.mu.Lock()
		o.q.persist(o.jb)
		o.q.mu.Unlock()
		return nil
	}
	failed := new(error)
	o.q.mu.Lock()
	written := o.q.persistJobsChecked([]*job{o.jb}, failed)
	o.q.mu.Unlock()
	<-written
	if *failed != nil {
		o.q.mu.Lock()
		o.jb.live().session.Sent = before // this attempt does not go out; an earlier one's doubt stays
		o.q.mu.Unlock()
		return errors.Join(noteErr, *failed)
	}
	return nil
}

func (o *observer) Sent(offset int64) {
	o.jb.sent.Store(offset)
	now := o.q.opts.Clock.Now()
	if offset >= o.size && !o.whole {
		// Once a request: the file's last byte went out, its answer unheard.
		o.whole = true
		o.q.mu.Lock()
		o.jb.live().wholeOut = now
		o.q.mu.Unlock()
	}
	o.jb.meter().begin(now, o.jb.committed.Load())
	o.jb.meter().add(now, offset)
	o.q.bump(o.jb)
	o.moving()
}

func (o *observer) Committed(offset int64) {
	o.jb.committed.Store(offset)
	o.jb.meter().confirm(o.q.opts.Clock.Now(), offset)
	o.q.bump(o.jb)
	o.moving()
	if offset >= o.size {
		return // the finished record follows at once
	}
	now := o.q.opts.Clock.Now().UnixNano()
	saved := &o.jb.meter().saved
	last := saved.Load()
	if o.q.writer != nil && time.Duration(now-last) >= progressEvery && saved.CompareAndSwap(last, now) {
		// Off the upload's path: a slow disk must not hold the bytes back.
		o.q.mu.Lock()
		if !o.q.writerClosed {
			o.q.writer.send(recordOp{progress: string(o.jb.id), committed: offset}, false)
		}
		o.q.mu.Unlock()
	}
}

// moving switches a checking or retrying job to uploading once bytes flow again.
func (o *observer) moving() {
	if !o.jb.wake.Load() {
		return // every body read comes here: the queue's lock only when the state changes
	}
	o.q.mu.Lock()
	defer o.q.mu.Unlock()
	if o.jb.state == Checking || o.jb.state == Retrying {
		o.q.moveLocked(o.jb, stepMoving)
		o.jb.sayLocked(nil, nil)
		o.jb.live().retryAt = time.Time{}
		o.q.bump(o.jb)
		o.q.notifyLocked()
	}
}

// Restarted puts the job to uploading afresh, its row saying why, until the
// upload ends or waits to try again: bytes flowing must not clear the notice
// as they clear a retry's.
func (o *observer) Restarted(reason error) {
	o.q.mu.Lock()
	defer o.q.mu.Unlock()
	o.jb.restarts++
	o.jb.live().session = upload.Session{}
	o.jb.committed.Store(0)
	o.jb.sent.Store(0)
	o.jb.live().wholeOut = time.Time{}
	o.whole = false
	o.jb.meters.Load().reset()
	o.q.moveLocked(o.jb, stepRestarted)
	o.jb.live().retryAt = time.Time{}
	o.jb.sayLocked(nil, restartFact(o.jb, reason))
	o.q.bump(o.jb)
	o.q.persist(o.jb)
	o.q.notifyLocked()
}

func (o *observer) Retrying(attempt int, wait time.Duration, cause error) {
	o.q.mu.Lock()
	defer o.q.mu.Unlock()
	o.q.moveLocked(o.jb, stepWait)
	o.jb.live().retryAt = o.q.opts.Clock.Now().Add(wait)
	o.jb.live().waited += wait
	o.jb.explainLocked(cause)
	next := &fact.Fact{Code: fact.RetryIn, Wait: wait}
	if errors.As(cause, new(*upload.SettlingError)) {
		next = o.jb.fact(fact.AskIn) // it asks, it does not send
		next.Wait = wait
	}
	o.jb.next = said(next)
	o.q.bump(o.jb)
	o.q.notifyLocked()
}

func (o *observer) FellBack(from, to upload.Method, cause error) {
	o.q.mu.Lock()
	defer o.q.mu.Unlock()
	o.jb.fellBack = true
	o.jb.method = to
	o.q.bump(o.jb)
	o.q.persist(o.jb)
}

// signInError is a failure to get an account's authorization: only the user
// can mend it (sign in, unlock the keychain), so it is not retried.
type signInError struct{ err error }

func (e *signInError) Error() string   { return e.err.Error() }
func (e *signInError) Unwrap() error   { return e.err }
func (e *signInError) Retryable() bool { return false }
