package upload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Finding an upload whose answer was lost. A one-request upload (media,
// multipart) whose whole body went out before the connection broke may or
// may not have made its object; so may one whose success answer names
// nothing. Sending the file again could make a second copy (a second email
// sent); stopping leaves the user to look. Where the destination can be
// asked, the uploader asks it first: Target.Lookup finds the object this
// upload makes, by a mark the upload carries (Drive's appProperties, an
// email's Message-ID) or by its name (Cloud Storage). Where the destination
// takes a precondition (Target.Pin), the upload is sent so that the
// destination refuses a second copy (412), and sending again is safe.
//
// The doubt outlives the program: Observer.Doubt hears of every attempt
// before its body goes out, so that an upload killed while it waited for
// its answer is asked about, not sent again, when it is resumed
// (Session.Sent).

// Lookup finds the object an upload makes.
type Lookup interface {
	// Find asks the destination, with the uploader's client (a Lookup that
	// needs other permissions brings its own). A Found with a Body is the
	// object; an empty Found says the destination holds none, so the upload
	// did not arrive; an error says it cannot tell.
	Find(ctx context.Context, c *http.Client) (Found, error)
}

// Found is what a Lookup found.
type Found struct {
	// Body is the object's resource, as the upload's own answer gives it
	// (its size and checksum are checked as an answer's are); nil: none.
	Body []byte
	// ByName: the object was found by the name the upload gives it alone,
	// which the destination may have held before (Cloud Storage): it is
	// this upload's only if its bytes are the file's.
	ByName bool
	// Generation is the version found under the name (Cloud Storage's
	// generation), for Pin.
	Generation string
}

// Pinner makes sending again safe.
type Pinner interface {
	// Pin is the upload address target with a precondition that the
	// destination still holds what f found under the name (nothing, when f
	// found nothing); an address that sets its own precondition is kept as
	// it is. The destination refuses a second copy with 412. An error
	// refuses the upload before a byte is sent: the name holds an object
	// the upload may not replace.
	Pin(target string, f Found) (string, error)
}

// lookupTimeout bounds one Lookup.Find.
const lookupTimeout = 2 * time.Minute

// find asks the destination for the object this upload makes.
func (r *run) find(ctx context.Context) (Found, error) {
	lctx, cancel := context.WithTimeout(ctx, lookupTimeout)
	defer cancel()
	f, err := r.t.Lookup.Find(lctx, r.client)
	switch {
	case err == nil:
		return f, nil
	case ctx.Err() != nil:
		return Found{}, stopped(ctx)
	}
	return Found{}, scrub(err, r.secrets)
}

// findSettled is find for an upload in doubt that may be sent again: a
// destination that holds nothing of it is asked again once the settle time
// since the doubtful attempt has passed (the uploader waits, heard as a
// retry's wait), since a request read late may still make the object. A
// wait past MaxWait ends the call with a *WaitError.
func (r *run) findSettled(ctx context.Context) (Found, error) {
	f, err := r.find(ctx)
	if err != nil || f.Body != nil {
		return f, err
	}
	pending := r.settling()
	if pending == nil {
		return f, nil
	}
	if err := r.sleep(ctx, 0, pending.Until.Sub(r.clock.Now()), pending, false); err != nil {
		return Found{}, err
	}
	return r.find(ctx)
}

// settling is the wait before "nothing there" means that the upload in
// doubt did not arrive: the settle time after the attempt's answer was
// lost, or, for an attempt of an earlier run, after its last byte went
// out (Observer.Doubt hears that moment); nil when
// there is nothing to wait for (no doubt, a destination that refuses a
// second copy, no settle time, or the time has passed).
func (r *run) settling() *SettlingError {
	if r.unanswered.IsZero() || r.repeatable() || r.settleTime < 0 {
		return nil
	}
	since := r.unanswered
	if r.lostAt.After(since) {
		since = r.lostAt
	}
	until := since.Add(r.settleTime)
	if !r.clock.Now().Before(until) {
		return nil
	}
	return &SettlingError{Sent: r.unanswered, Until: until}
}

// SettlingError is the wait of an upload in doubt that its destination
// does not hold yet: a request that went out at Sent may still make the
// object, so the destination is asked again at Until before the file is
// sent again.
type SettlingError struct {
	Sent  time.Time
	Until time.Time
}

func (e *SettlingError) Error() string {
	return fmt.Sprintf("the upload sent at %s is not there yet; asking again at %s before sending it again",
		e.Sent.Format(time.RFC3339), e.Until.Format(time.RFC3339))
}

// settle decides an upload in doubt by what the destination holds: done
// when the object found is the file; a wrong copy (an error) when the
// object is this upload's but not the file; settled false when nothing of
// this upload is there, so the file is to be sent.
func (r *run) settle(ctx context.Context, f Found, m Method) (res *Result, err error, settled bool) {
	if f.Body == nil {
		return nil, nil, false
	}
	res, err = r.accept(ctx, &Result{Status: http.StatusOK, Body: f.Body, Method: m, Found: true})
	if !f.ByName {
		return res, err, true
	}
	switch {
	case err == nil && res.Verified != VerifiedSize && res.Verified != "":
		return res, nil, true
	case errors.Is(err, ErrMismatch), errors.Is(err, ErrIncomplete):
		return nil, nil, false // what the name held before this upload
	case err == nil:
		// The same name and size say too little: the bytes are not known.
		return nil, &AnswerLostError{Sent: r.unanswered}, true
	}
	return nil, err, true
}

// guard pins the precondition before a new session of an upload that did
// not pin it (one resumed from an earlier run): what the name holds now is
// read, and the upload is done when it is the file (the earlier session
// made it), refused when the name holds what it may not replace. done: the
// upload ends here with res or err.
func (r *run) guard(ctx context.Context) (res *Result, err error, done bool) {
	if r.t.Lookup == nil {
		if err := r.pin(Found{}); err != nil {
			return nil, err, true
		}
		return nil, nil, false
	}
	f, err := r.find(ctx)
	if err != nil {
		return nil, err, true // the precondition cannot be known: nothing is sent blindly
	}
	if res, err, settled := r.settle(ctx, f, Resumable); settled {
		res, err = r.done(res, err)
		return res, err, true
	}
	if err := r.pin(f); err != nil {
		return nil, err, true
	}
	return nil, nil, false
}

// refusedByPin settles a 412 on an upload Hoist itself guarded with the
// precondition: the object the name holds is read, and the upload is done
// when it is the file (size and CRC32C): an earlier request or session of
// this upload made it, and its answer was lost. ok false: the refusal
// stands as it is.
func (r *run) refusedByPin(ctx context.Context, refusal error) (res *Result, err error, ok bool) {
	var api *APIError
	if !errors.As(refusal, &api) || api.Status != http.StatusPreconditionFailed || r.t.Pin == nil || r.t.Lookup == nil {
		return nil, nil, false
	}
	f, ferr := r.find(ctx)
	if ferr != nil {
		if ctx.Err() != nil {
			return nil, ferr, true
		}
		return nil, nil, false
	}
	if res, err, settled := r.settle(ctx, f, Resumable); settled && err == nil {
		res, err = r.done(res, err)
		return res, err, true
	}
	return nil, nil, false
}

// readBack reads the object a resumed session says it made before the
// upload is called done: for an upload guarded by its precondition the
// session's answer alone is not trusted (a server may finish a session on
// its own, and the name may hold something else by now).
func (r *run) readBack(ctx context.Context, said *Result) (*Result, error) {
	f, err := r.find(ctx)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w; looking for it failed: %w", ErrNoID, err)
	case f.Body == nil:
		return nil, fmt.Errorf("%w, and it was not found there", ErrNoID)
	}
	res, err, settled := r.settle(ctx, f, said.Method)
	if settled {
		return res, err
	}
	// What the name holds is not the file: the checks say how it differs.
	if _, err := r.accept(ctx, &Result{Status: said.Status, Body: f.Body, Method: said.Method, Found: true}); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w, and it was not found there", ErrNoID)
}

// markSending tells the observer that an attempt's body is about to go out;
// an error keeps it from going.
func (r *run) markSending() error {
	r.attempted = r.clock.Now()
	if err := r.obs.Doubt(r.attempted); err != nil {
		r.attempted = time.Time{}
		return fmt.Errorf("%w: %w", ErrNotNoted, err)
	}
	return nil
}

// lastByte notes again, just before the last bytes of an attempt's body go
// out, when the attempt went out: a request is waited for from its last
// byte, and a body that took minutes to send may arrive minutes after it
// began. Called by the transport's reader (payload.last); the uploader
// reads attempted only after the request is detached.
func (r *run) lastByte() error {
	at := r.clock.Now()
	if err := r.obs.Doubt(at); err != nil {
		return fmt.Errorf("%w: %w", ErrNotNoted, err)
	}
	r.attempted = at
	return nil
}

// answered settles the doubt of an attempt that was answered, or whose body
// did not go out whole; an earlier attempt whose answer was lost keeps it.
func (r *run) answered() {
	if r.attempted.IsZero() {
		return
	}
	r.attempted = time.Time{}
	if r.unanswered.IsZero() {
		_ = r.obs.Doubt(time.Time{})
	}
}

// lost records an attempt whose whole body went out and whose answer was lost.
func (r *run) lost() {
	r.unanswered, r.attempted, r.lostAt = r.attempted, time.Time{}, r.clock.Now()
}

// cleared settles every doubt: the destination was asked and holds nothing.
func (r *run) cleared() {
	r.unanswered, r.attempted, r.lostAt = time.Time{}, time.Time{}, time.Time{}
	_ = r.obs.Doubt(time.Time{})
}

// unsettled is the error an upload in doubt stops with: err itself, or, when
// an attempt's answer is still lost, an *AnswerLostError (after one more
// look where the destination can be asked).
func (r *run) unsettled(ctx context.Context, m Method, err error) (*Result, error) {
	if r.unanswered.IsZero() || ctx.Err() != nil {
		return nil, err
	}
	if r.t.Lookup != nil {
		f, ferr := r.find(ctx)
		if ferr == nil {
			if res, serr, settled := r.settle(ctx, f, m); settled {
				return res, serr
			}
			if pending := r.settling(); pending != nil {
				// Not there yet, and it may still arrive: asked again when resumed.
				return nil, &AnswerLostError{Sent: r.unanswered, Cause: err, Why: pending}
			}
			r.cleared()
			return nil, err // not there: what stopped the attempts is the reason
		}
		if ctx.Err() != nil {
			return nil, ferr
		}
		return nil, &AnswerLostError{Sent: r.unanswered, Cause: err, Why: ferr}
	}
	return nil, &AnswerLostError{Sent: r.unanswered, Cause: err}
}

// AnswerLostError is a one-request upload whose answer was lost, which the
// destination could not be asked about: the file may or may not have
// arrived. It matches ErrAnswerLost.
type AnswerLostError struct {
	Sent  time.Time // when it last went out whole
	Cause error     // why the answer was lost (the connection's error); may be nil
	Why   error     // why the destination could not be asked; nil when it offers no way to look
}

func (e *AnswerLostError) Error() string {
	s := ErrAnswerLost.Error()
	if !e.Sent.IsZero() {
		s += fmt.Sprintf(" (sent at %s)", e.Sent.Format(time.RFC3339))
	}
	if e.Cause != nil {
		s += ": " + e.Cause.Error()
	}
	if e.Why != nil {
		s += "; looking for it failed: " + e.Why.Error()
	}
	return s
}

func (e *AnswerLostError) Is(target error) bool { return target == ErrAnswerLost }

func (e *AnswerLostError) Unwrap() []error {
	var out []error
	for _, err := range []error{e.Cause, e.Why} {
		if err != nil {
			out = append(out, err)
		}
	}
	return out
}
