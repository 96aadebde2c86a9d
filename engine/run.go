package engine

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
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

// runner is the run loop and its workers: the loop starts waiting uploads
// while there is room (schedule), and each started upload runs in a worker
// of its own (run) until it finishes, fails or is stopped.
type runner struct {
	*list
	limiter *bandwidth
	pace    pacer     // Google's per-user quota, spent as uploads start
	labels  labelBook // the labels of the mailboxes emails went to, by name

	running  int   // under list.mu
	parallel int   // under list.mu
	batch    batch // under list.mu

	stop   context.CancelFunc
	loopWG sync.WaitGroup
	jobWG  sync.WaitGroup
}

// batch counts what happened since the queue was last idle, for the BatchDone event.
type batch struct {
	done, failed int
}

// observer hears one job's upload and keeps its counters.
type observer struct {
	l     *list
	jb    *job
	size  int64
	whole bool // the file's last byte went out (underway.wholeOut is set)
}

func (o *observer) SessionStarted(s upload.Session) {
	o.l.mu.Lock()
	o.jb.live().session = s
	o.l.bump(o.jb)
	written := o.l.persistJobs([]*job{o.jb}, true)
	o.l.mu.Unlock()
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
	o.l.mu.Lock()
	before := o.jb.live().session.Sent
	o.jb.live().session.Sent = sent
	o.l.mu.Unlock()
	noteErr := o.l.sending.note(o.jb.id, sent)
	if noteErr == nil && o.l.sending.usable() {
		return nil
	}
	if noteErr != nil {
		o.l.log.Warn("noting an upload under way in the list instead", "err", noteErr)
	}
	if sent.IsZero() {
		o.l.mu.Lock()
		o.l.persist(o.jb)
		o.l.mu.Unlock()
		return nil
	}
	failed := new(error)
	o.l.mu.Lock()
	written := o.l.persistJobsChecked([]*job{o.jb}, failed)
	o.l.mu.Unlock()
	<-written
	if *failed != nil {
		o.l.mu.Lock()
		o.jb.live().session.Sent = before // this attempt does not go out; an earlier one's doubt stays
		o.l.mu.Unlock()
		return errors.Join(noteErr, *failed)
	}
	return nil
}

func (o *observer) Sent(offset int64) {
	o.jb.sent.Store(offset)
	now := o.l.opts.Clock.Now()
	if offset >= o.size && !o.whole {
		// Once a request: the file's last byte went out, its answer unheard.
		o.whole = true
		o.l.mu.Lock()
		o.jb.live().wholeOut = now
		o.l.mu.Unlock()
	}
	o.jb.meter().begin(now, o.jb.committed.Load())
	o.jb.meter().add(now, offset)
	o.l.bump(o.jb)
	o.moving()
}

func (o *observer) Committed(offset int64) {
	o.jb.committed.Store(offset)
	o.jb.meter().confirm(o.l.opts.Clock.Now(), offset)
	o.l.bump(o.jb)
	o.moving()
	if offset >= o.size {
		return // the finished record follows at once
	}
	now := o.l.opts.Clock.Now().UnixNano()
	saved := &o.jb.meter().saved
	last := saved.Load()
	if o.l.writer != nil && time.Duration(now-last) >= progressEvery && saved.CompareAndSwap(last, now) {
		// Off the upload's path: a slow disk must not hold the bytes back.
		o.l.mu.Lock()
		if !o.l.writerClosed {
			o.l.writer.send(recordOp{progress: string(o.jb.id), committed: offset}, false)
		}
		o.l.mu.Unlock()
	}
}

// moving switches a checking or retrying job to uploading once bytes flow again.
func (o *observer) moving() {
	if !o.jb.wake.Load() {
		return // every body read comes here: the queue's lock only when the state changes
	}
	o.l.mu.Lock()
	defer o.l.mu.Unlock()
	if o.jb.state == Checking || o.jb.state == Retrying {
		o.l.moveLocked(o.jb, stepMoving)
		o.jb.sayLocked(nil, nil)
		o.jb.live().retryAt = time.Time{}
		o.l.bump(o.jb)
		o.l.notifyLocked()
	}
}

// Restarted puts the job to uploading afresh, its row saying why, until the
// upload ends or waits to try again: bytes flowing must not clear the notice
// as they clear a retry's.
func (o *observer) Restarted(reason error) {
	o.l.mu.Lock()
	defer o.l.mu.Unlock()
	o.jb.restarts++
	o.jb.live().session = upload.Session{}
	o.jb.committed.Store(0)
	o.jb.sent.Store(0)
	o.jb.live().wholeOut = time.Time{}
	o.whole = false
	o.jb.meters.Load().reset()
	o.l.moveLocked(o.jb, stepRestarted)
	o.jb.live().retryAt = time.Time{}
	o.jb.sayLocked(nil, restartFact(o.jb, reason))
	o.l.bump(o.jb)
	o.l.persist(o.jb)
	o.l.notifyLocked()
}

func (o *observer) Retrying(attempt int, wait time.Duration, cause error) {
	o.l.mu.Lock()
	defer o.l.mu.Unlock()
	o.l.moveLocked(o.jb, stepWait)
	o.jb.live().retryAt = o.l.opts.Clock.Now().Add(wait)
	o.jb.live().waited += wait
	o.jb.explainLocked(cause)
	next := &fact.Fact{Code: fact.RetryIn, Wait: wait}
	if errors.As(cause, new(*upload.SettlingError)) {
		next = o.jb.fact(fact.AskIn) // it asks, it does not send
		next.Wait = wait
	}
	o.jb.next = said(next)
	o.l.bump(o.jb)
	o.l.notifyLocked()
}

func (o *observer) FellBack(from, to upload.Method, cause error) {
	o.l.mu.Lock()
	defer o.l.mu.Unlock()
	o.jb.fellBack = true
	o.jb.method = to
	o.l.bump(o.jb)
	o.l.persist(o.jb)
}

// signInError is a failure to get an account's authorization: only the user
// can mend it (sign in, unlock the keychain), so it is not retried.
type signInError struct{ err error }

func (e *signInError) Error() string   { return e.err.Error() }
func (e *signInError) Unwrap() error   { return e.err }
func (e *signInError) Retryable() bool { return false }

// run uploads jb until it finishes, fails or is stopped.
func (r *runner) run(ctx context.Context, jb *job) {
	res, err := r.upload(ctx, jb)
	r.finish(jb, res, err, context.Cause(ctx))
}

// upload sends jb's file, in a few steps: what the job is (work), its file
// checked again when it may have changed, the request planned, the client
// signed in, the email's labels looked up, then the bytes.
func (r *runner) upload(ctx context.Context, jb *job) (*upload.Result, error) {
	w := r.workOf(jb)
	if err := r.readAgain(jb, &w); err != nil {
		return nil, err
	}
	plan, err := r.planOf(ctx, jb, w)
	if err != nil {
		return nil, err
	}
	client, err := r.opts.client(ctx, w.d)
	if err != nil {
		return nil, &signInError{err}
	}
	if plan, err = r.labeled(ctx, client, jb, &w, plan); err != nil {
		return nil, err
	}
	f, err := media.Open(w.info)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var resume *upload.Session
	if w.session.URI != "" || !w.session.Sent.IsZero() {
		resume = &w.session // a session to ask, or a one-request upload in doubt to look for
	}
	src := r.limiter.source(ctx, f)
	return r.uploader(jb, w, client).Upload(ctx, plan.Target, src, w.methodFor(plan), resume, &observer{l: r.list, jb: jb, size: w.info.Size})
}

// work is what an upload needs of its job, read under the lock as it starts.
type work struct {
	info            media.Info
	d               dest.Destination
	session         upload.Session
	verify, checked bool
	chunk           int64
	method          upload.Method
}

// workOf reads what jb's upload needs, pointing a job for the built-in
// sandbox at the one running now.
func (r *runner) workOf(jb *job) work {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.followSandboxLocked(jb) {
		r.persist(jb)
	}
	w := work{info: jb.info, d: jb.dest, session: jb.peek().session, verify: jb.verify, checked: jb.checked, chunk: r.chunk, method: jb.method}
	if jb.chunkSet {
		w.chunk = jb.chunk // a resumed job goes on as it began
	}
	return w
}

// readAgain checks that a file that may have changed while Hoist was
// closed has not, and reads an email's Message-ID again.
func (r *runner) readAgain(jb *job, w *work) error {
	if w.verify {
		if err := media.Verify(w.info); err != nil {
			return err
		}
		r.mu.Lock()
		jb.verify = false
		r.mu.Unlock()
	}
	info := w.info
	if info.Email != nil && info.Email.MessageID == "" && isEmail(w.d, info.MIME) {
		// The list keeps what a row shows of an email; its Message-ID, which
		// finds it after a lost answer, is read from the file again.
		if e, err := media.ReadEmailOf(info); err == nil && (e != nil || !info.Converted()) {
			if e != nil {
				e.FileSize = info.Email.FileSize // an email made from the file stays made from it
			}
			w.info.Email = e
		}
	}
	return nil
}

// planOf checks the file against the destination's rules (once: a file
// added in this run was checked then, with its settings) and plans its
// request, with how to look for what it made after a lost answer.
func (r *runner) planOf(ctx context.Context, jb *job, w work) (dest.Plan, error) {
	var err error
	if !w.checked {
		err = validate(w.d)
		if err == nil {
			err = checkRules(w.d, w.info)
		}
	}
	var plan dest.Plan
	if err == nil {
		plan, err = build(w.d, w.info)
	}
	if err != nil {
		return plan, err
	}
	if w.session.URI == "" && w.session.Sent.IsZero() {
		r.markSince(ctx, jb, w)
	}
	r.mu.Lock()
	plan.Since = jb.peek().since
	r.mu.Unlock()
	plan = r.findable(plan, jb, w.d, w.info)
	r.mu.Lock()
	jb.checked = true
	jb.canAsk = plan.Target.Lookup != nil
	jb.unmarked = plan.Unmarked
	r.mu.Unlock()
	return plan, nil
}

// markSince notes where the destination stands before a file is sent
// afresh, on disk before a byte goes, so that a lookup after a lost answer
// (in this run or a later one) looks only at what was added since.
func (r *runner) markSince(ctx context.Context, jb *job, w work) {
	since, ok := w.d.Mark(ctx, w.info, r.opts.markClients(w.d), r.opts.Clock.Now())
	if !ok {
		return
	}
	r.mu.Lock()
	jb.live().since = since
	written := r.persistJobs([]*job{jb}, true)
	r.mu.Unlock()
	if written != nil {
		<-written
	}
}

// findable is plan with the destination's ways to look for what jb made.
func (r *runner) findable(plan dest.Plan, jb *job, d dest.Destination, info media.Info) dest.Plan {
	plan = d.Findable(plan, info, string(jb.id))
	if len(plan.Find) > 0 {
		plan.Target.Lookup = &lookup{accounts: r.opts.Accounts, d: d, ways: plan.Find}
	}
	return plan
}

// labeled is the plan of an email that goes under labels of its mailbox
// by name, built again with their ids.
func (r *runner) labeled(ctx context.Context, client *http.Client, jb *job, w *work, plan dest.Plan) (dest.Plan, error) {
	labeled, err := r.withMailboxLabels(ctx, client, w.d, w.info)
	if err != nil {
		return plan, err
	}
	if labeled.Params["labels"] == w.d.Params["labels"] {
		return plan, nil
	}
	w.d = labeled
	if plan, err = build(w.d, w.info); err != nil {
		return plan, err
	}
	return r.findable(plan, jb, w.d, w.info), nil
}

// methodFor is the way the bytes go: a method chosen by the user, or
// fallen back to, stays; a destination that takes only sessions gets one.
func (w work) methodFor(plan dest.Plan) upload.Method {
	method := w.method
	if method == "" || method == upload.Auto || plan.Method == upload.Resumable {
		method = plan.Method
	}
	if method == "" {
		method = upload.Auto
	}
	return method
}

// uploader is the upload's engine, set as the queue's options and the
// destination say.
func (r *runner) uploader(jb *job, w work, client *http.Client) *upload.Uploader {
	lifetime := r.opts.SessionLifetime
	if w.d.SessionLifetime > 0 {
		lifetime = w.d.SessionLifetime
	}
	r.mu.Lock()
	var maxWait time.Duration
	if r.opts.MaxWait > 0 {
		maxWait = max(r.opts.MaxWait-jb.peek().waited, time.Nanosecond) // what this run still waits for the job
	}
	r.mu.Unlock()
	return &upload.Uploader{
		MaxWait:         maxWait,
		Client:          r.pace.client(client, w.d),
		ChunkSize:       w.chunk,
		Threshold:       r.opts.Threshold,
		Backoff:         r.opts.Backoff,
		Clock:           r.opts.Clock,
		StallTimeout:    r.opts.StallTimeout,
		SessionLifetime: lifetime,
	}
}

// finish records how a run ended.
func (r *runner) finish(jb *job, res *upload.Result, err, cause error) {
	now := r.opts.Clock.Now()
	var (
		result  *Result
		written bool
		saveErr error
	)
	if err == nil && res != nil {
		result = resultFrom(jb.dest, res.Body)
		result.Verified = res.Verified
		// The journal has the finished record before anyone sees the job done.
		written, saveErr = r.writeDone(jb, res.Method, result, now)
	}
	r.mu.Lock()
	end := r.endRunLocked(jb)
	var events []Event
	removed := false
	var wait *upload.WaitError
	switch {
	case err == nil && res != nil:
		r.doneLocked(jb, res, result, saveErr, now)
	case errors.Is(cause, errRemoved):
		removed = true
	case errors.Is(cause, errPaused), errors.Is(cause, errClosing):
		r.pausedLocked(jb, cause, end)
	case errors.As(err, &wait):
		r.laterLocked(jb, wait)
	case errors.Is(err, upload.ErrNotNoted) && !doubted(err):
		// Neither the notes nor the list could keep when it went out, so it
		// did not go: it waits, unstarted, until the list can be written
		// (runner.retrySave), as a file added meanwhile does.
		r.moveLocked(jb, stepLater)
		jb.held = true
		jb.sayLocked(nil, nil)
	case errors.Is(cause, errCanceled):
		r.stoppedByLocked(jb, Cancel)
		jb.canceledLocked(end.wholeOut)
	default:
		r.failLocked(jb, err)
		r.batch.failed++
		if jb.state == Attention || jb.state == Failed {
			events = append(events, Event{Kind: NeedsAttention, Job: jb.id, Fact: jb.reason.Fact})
		}
	}
	r.bump(jb)
	r.keepLocked(jb, removed, written)
	if ev, ok := r.batchEndLocked(); ok {
		events = append(events, ev)
		if r.writer != nil && !r.writerClosed && r.saveErr == nil {
			r.writer.send(recordOp{keepCopy: true}, false) // the list's last good copy
		}
	}
	r.notifyLocked()
	r.mu.Unlock()
	r.poke()
	r.emit(events)
}

// runEnd is what a stopped run leaves that a pause keeps: the bytes sent
// beyond what the server confirmed, and when the last byte went out.
type runEnd struct {
	unconfirmed int64
	wholeOut    time.Time
}

// endRunLocked frees jb's upload slot and lets go of what its run held;
// list.mu must be held.
func (r *runner) endRunLocked(jb *job) runEnd {
	jb.live().cancel = nil
	r.running--
	jb.live().retryAt = time.Time{}
	// What was sent beyond what the server confirmed: a pause gives it up,
	// and the row, showing less than it did, says why.
	end := runEnd{unconfirmed: jb.sent.Load() - jb.committed.Load()}
	if jb.run != nil {
		if end.unconfirmed > 0 {
			end.wholeOut = jb.run.wholeOut
		}
		jb.run.wholeOut = time.Time{} // kept again below while Paused
	}
	jb.meters.Load().reset()
	// Bytes sent but not confirmed are not known to be anywhere: the next run
	// asks the server and goes on from there.
	jb.sent.Store(jb.committed.Load())
	return end
}

// doneLocked marks jb done with its result; list.mu must be held.
func (r *runner) doneLocked(jb *job, res *upload.Result, result *Result, saveErr error, now time.Time) {
	r.moveLocked(jb, stepDone)
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
	r.batch.done++
}

// pausedLocked takes jb, paused by the user or by Hoist closing, to where
// Resume goes on from; list.mu must be held.
func (r *runner) pausedLocked(jb *job, cause error, end runEnd) {
	if errors.Is(cause, errPaused) {
		r.stoppedByLocked(jb, Pause)
	} else {
		r.moveLocked(jb, stepClosing)
	}
	jb.sayLocked(nil, resumeFact(jb))
	if end.unconfirmed > 0 {
		jb.live().unconfirmed = end.unconfirmed
	}
	if !end.wholeOut.IsZero() {
		jb.live().wholeOut = end.wholeOut
	}
}

// laterLocked puts back on the list, saying so, a job the server asked to
// wait longer than this run waits; list.mu must be held.
func (r *runner) laterLocked(jb *job, wait *upload.WaitError) {
	r.moveLocked(jb, stepLater)
	jb.live().retryAt, jb.live().asked, jb.live().counted = wait.Until, wait.Asked, false
	jb.explainLocked(wait.Cause)
	jb.next = said(retryAtFact(wait.Until, wait.Asked))
	if r.opts.MaxWait > 0 && jb.peek().waited+wait.Wait > r.opts.MaxWait {
		jb.live().later = true
	}
}

// keepLocked writes jb's record unless it is written already (or the job
// is removed), and shelves a done job whose record is on disk; list.mu
// must be held.
func (r *runner) keepLocked(jb *job, removed, written bool) {
	if !removed && !written {
		r.persist(jb)
	}
	if written && jb.state == Done && jb.next == (fact.Said{}) && r.shelvable(jb, false) {
		// Its finished record is on disk: from now on it is read from there
		// when shown, so that a long day's uploads do not pile up in memory.
		r.shelveLocked(jb)
		delete(r.jobs, jb.id)
	}
}

// stoppedByLocked takes a job whose upload the user stopped with a to the
// state the table gives; list.mu must be held.
func (r *runner) stoppedByLocked(jb *job, a Action) {
	to, err := allowLocked(jb, a)
	if err != nil {
		if strictSteps {
			panic(err)
		}
		r.log.Error("job state", "job", jb.id, "action", a, "err", err)
		to = map[Action]State{Pause: Paused, Cancel: Canceled}[a]
	}
	r.setStateLocked(jb, to)
}

// failLocked puts a plain reason and next step on jb for err; list.mu must be held.
func (r *runner) failLocked(jb *job, err error) {
	jb.locked = false
	explained := false
	var refusal *dest.Refusal
	var needsUser interface {
		error
		Retryable() bool
	}
	switch {
	case errors.Is(err, media.ErrMissing):
		r.moveLocked(jb, stepFail)
	case errors.Is(err, upload.ErrFileChanged):
		r.moveLocked(jb, stepNeedsUser)
		jb.live().session = upload.Session{}
		jb.verify = true // resuming checks again; only Restart sends the new file
		jb.changed = true
	case doubted(err):
		// The destination may hold the file, or holds a copy that is not
		// it: never sent again on its own. Its session (if any) stays, to
		// be asked again; only Restart sends a new copy.
		r.moveLocked(jb, stepNeedsUser)
		jb.doubt, jb.live().looks = doubtOf(err, jb.canAsk || jb.peek().session.URI != "")
	case errors.As(err, &refusal):
		r.moveLocked(jb, stepRefuse)
	case errors.Is(err, proxy.ErrOfficeProxy):
		// The office proxy stopped it (a sign-in it asks for, or no answer):
		// its own sentence says so, not Google's sign-in nor the server's refusal.
		r.moveLocked(jb, stepFail)
	case r.opts.Accounts != nil && r.opts.Accounts.KeychainLocked(err):
		r.moveLocked(jb, stepNeedsUser)
		jb.locked = true
	case r.opts.Accounts != nil && r.opts.Accounts.NeedsSignIn(err), errors.As(err, &needsUser) && !needsUser.Retryable(),
		scopesRefused(err): // the sign-in lacks a permission the upload needs: signing in again gives it
		r.moveLocked(jb, stepNeedsUser) // one fact, whether never signed in, expired or withdrawn
	default:
		r.moveLocked(jb, stepFail)
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
	r.log.Info("upload stopped", "job", jb.id, "state", jb.state, "reason", reason.Code)
}

// batchEndLocked reports a finished batch once nothing is waiting or moving.
func (r *runner) batchEndLocked() (Event, bool) {
	if r.batch.done+r.batch.failed == 0 {
		return Event{}, false
	}
	for _, jb := range r.jobs {
		if jb.state.Moving() {
			return Event{}, false
		}
	}
	b := r.batch
	r.batch = batch{}
	f := &fact.Fact{Code: fact.BatchDone, Count: b.done}
	if b.failed > 0 {
		f.Args = map[string]string{"failed": strconv.Itoa(b.failed)}
	}
	return Event{Kind: BatchDone, Fact: f}, true
}

// withMailboxLabels is d with the ids of the labels the email info is to
// go under added to its labels; d itself when it asks for none.
func (r *runner) withMailboxLabels(ctx context.Context, client *http.Client, d dest.Destination, info media.Info) (dest.Destination, error) {
	ids, names := d.MailboxLabels(info)
	if len(ids) == 0 && len(names) == 0 {
		return d, nil
	}
	for _, name := range names {
		id, err := r.labels.id(ctx, client, d.GmailLabelsURL(), name)
		if err != nil {
			return d, err
		}
		ids = append(ids, id)
	}
	return d.WithLabels(ids...), nil
}
