package upload

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Trying again. Every request of an upload ends in an answer, in no answer
// (the connection failed, was cut or stalled), or in an error of Hoist's own
// (the file changed, the upload was stopped). shouldRetry is the one
// decision, over all of them, whether the same request is worth another
// attempt in this Upload call; wait then spends one attempt of the
// allowance that decision names and sleeps first. Retryable answers the
// wider question of the queue: whether the whole upload may succeed later.

// verdict is what shouldRetry decides.
type verdict int

const (
	// giveUp: stop with the error; the same request would meet it again.
	giveUp verdict = iota
	// backOff: network trouble, 5xx, Google's 403 rate limits, and an answer
	// that cannot be trusted. Counted against MaxRetries, with exponential
	// backoff between attempts.
	backOff
	// again: 408 and 429, counted against MaxOtherRetries; only 429 backs off.
	again
)

// shouldRetry decides whether a request that ended in err is worth another
// attempt. An answer Retry-After came with sets the wait, not the decision.
func shouldRetry(err error) verdict {
	var api *APIError
	var final interface{ Retryable() bool }
	switch {
	case err == nil:
		return giveUp
	case errors.As(err, &final) && !final.Retryable():
		return giveUp // such as "sign in again"
	case errors.As(err, &api):
		switch api.Status {
		case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			return backOff
		case http.StatusRequestTimeout, http.StatusTooManyRequests:
			return again
		}
		if rateLimited(api) {
			return backOff
		}
		return giveUp
	case errors.As(err, new(*connError)), errors.As(err, new(*unsure)),
		errors.Is(err, errNoProgress), errors.Is(err, errForgot):
		return backOff
	}
	return giveUp
}

// rateLimited reports Google's 403 rate limits, which lift within seconds and
// which Google asks clients to retry with exponential backoff (a daily
// quotaExceeded does not lift, so it is not among them).
func rateLimited(api *APIError) bool {
	return api.Status == http.StatusForbidden && (api.Reason == "rateLimitExceeded" || api.Reason == "userRateLimitExceeded")
}

// refusesProtocol reports a refusal of the upload protocol itself (the
// method takes no resumable sessions): only then can the same file sent in
// one request succeed. A permission, version, not-found or quota refusal
// would refuse the whole file just the same.
func refusesProtocol(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Class() == ClassProtocol
}

// unsure marks an answer that does not follow the protocol in a way another
// look can mend (a garbage Range, a claim of bytes never sent): the session
// is asked where it stands again.
type unsure struct{ err error }

func (e *unsure) Error() string { return e.err.Error() }
func (e *unsure) Unwrap() error { return e.err }

// refuse turns an error answer into an error: an *APIError (wrapped in
// ErrBadResponse when the body was not Google's), carrying the wait the
// answer's Retry-After asks for.
func (r *run) refuse(a *answer) error {
	api, understood := parseAPIError(a.status, a.header, a.body)
	api.after, api.hasAfter = retryAfter(a, r.clock.Now())
	if !understood || (a.status >= 300 && a.status < 400) {
		return fmt.Errorf("%w: %w", ErrBadResponse, api)
	}
	return api
}

// retryAfter reads the wait a 429 or 503 asks for, in seconds or as a date,
// bounded by maxRetryAfter.
func retryAfter(a *answer, now time.Time) (time.Duration, bool) {
	if a.status != http.StatusTooManyRequests && a.status != http.StatusServiceUnavailable {
		return 0, false
	}
	v := strings.TrimSpace(a.header.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		d = time.Duration(min(secs, int64(maxRetryAfter/time.Second))) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = max(at.Sub(now), 0)
	} else {
		return 0, false
	}
	return min(d, maxRetryAfter), true
}

// wait spends one attempt of the allowance shouldRetry names for cause and
// sleeps before it, or says the attempts are used up (or that cause is not
// to be retried at all).
func (r *run) wait(ctx context.Context, cause error) error {
	var attempt int
	var wait time.Duration
	switch shouldRetry(cause) {
	case again:
		r.others++
		attempt = r.others
		if r.others > r.maxOther {
			return fmt.Errorf("%w (%d): %w", ErrTooManyRetries, r.others, cause)
		}
		var api *APIError
		if errors.As(cause, &api) && api.Status == http.StatusTooManyRequests {
			wait = r.backoff.Wait(r.others - 1)
		}
	case backOff:
		r.failures++
		attempt = r.failures
		if r.failures > r.maxRetries {
			return fmt.Errorf("%w (%d): %w", ErrTooManyRetries, r.failures, cause)
		}
		wait = r.backoff.Wait(r.failures - 1)
	default:
		return cause
	}
	var api *APIError
	asked := errors.As(cause, &api) && api.hasAfter
	if asked {
		wait = api.after
	}
	if errors.Is(cause, ErrStalled) {
		r.stalls++
		if r.stalls >= MaxStalls {
			return fmt.Errorf("%w (%d stalled in a row): %w", ErrTooManyRetries, r.stalls, cause)
		}
	}
	return r.sleep(ctx, attempt, wait, scrub(cause, r.secrets), asked)
}

// sleep waits wait before attempt, the observer told why (cause), unless
// that would take the call past MaxWait: then it returns a *WaitError at
// once, and the caller comes back when the wait is over.
func (r *run) sleep(ctx context.Context, attempt int, wait time.Duration, cause error, asked bool) error {
	if r.maxWait > 0 && r.waited+wait > r.maxWait {
		// Not slept through unseen.
		return &WaitError{Wait: wait, Until: r.clock.Now().Add(wait), Cause: cause, Asked: asked}
	}
	r.waited += wait
	r.obs.Retrying(attempt, wait, cause)
	err := r.clock.Sleep(ctx, wait)
	switch {
	case ctx.Err() != nil:
		return stopped(ctx)
	case err != nil:
		return fmt.Errorf("waiting before trying again: %w", err)
	}
	return nil
}

// progressed resets the retry allowances once the server confirms bytes past
// the most it ever confirmed: a server that keeps a chunk and then forgets
// it does not buy itself new attempts each time it keeps it again.
func (r resumableRun) progressed(next int64) bool {
	if next <= r.best {
		return false
	}
	r.best = next
	r.failures, r.others, r.stalls = 0, 0, 0
	return true
}

// WaitError ends an upload whose next wait before trying again would go
// past Uploader.MaxWait: the server asked to wait (Retry-After), or the
// backoff grew, until Until. Trying again after Until may succeed.
type WaitError struct {
	Wait  time.Duration
	Until time.Time
	Cause error // why the upload must wait
	// Asked: the server asked for this wait (Retry-After); else it is the
	// backoff of Hoist's own.
	Asked bool
}

func (e *WaitError) Error() string {
	return fmt.Sprintf("waiting %s (until %s) before trying again: %v", e.Wait, e.Until.Format(time.RFC3339), e.Cause)
}

func (e *WaitError) Unwrap() error { return e.Cause }

// DefaultMaxWait keeps the longest single backoff wait under a minute.
const DefaultMaxWait = 59 * time.Second

// maxJitter is the guide's "random number of milliseconds ≤ 1000".
const maxJitter = 1000

// ExponentialBackoff is the guide's wait before retry n (n from 0):
// 2^n seconds plus a random number of milliseconds up to 1000, drawn anew
// for every wait, never longer than Max.
type ExponentialBackoff struct {
	Max time.Duration // longest single wait; 0 = DefaultMaxWait
	// Rand returns a number in [0, n); nil uses math/rand/v2.
	Rand func(n int64) int64
}

// Wait is the wait before retry n.
func (b ExponentialBackoff) Wait(n int) time.Duration {
	maxWait := b.Max
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	draw := rand.Int64N
	if b.Rand != nil {
		draw = b.Rand
	}
	jitter := time.Duration(draw(maxJitter+1)) * time.Millisecond
	base := maxWait
	if n < 0 {
		n = 0
	}
	if n < 30 {
		base = min(time.Duration(1<<n)*time.Second, maxWait)
	}
	return min(base+jitter, maxWait)
}

// Retryable reports whether trying the same upload again later may succeed:
// true for network trouble, server errors, rate limits and expired sessions;
// false for a changed file, a refused request, a stopped context, a foreign
// host, a possibly delivered one-request upload, and errors whose own
// Retryable method says false (such as "sign in again").
func Retryable(err error) bool {
	if err == nil {
		return false
	}
	if errors.As(err, new(*WaitError)) {
		return true
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	for _, final := range []error{ErrFileChanged, ErrForeignHost, ErrAnswerLost, ErrNoID, ErrInvalid, ErrIncomplete, ErrMismatch} {
		if errors.Is(err, final) {
			return false
		}
	}
	var r interface{ Retryable() bool }
	if errors.As(err, &r) && !r.Retryable() {
		return false
	}
	var api *APIError
	if errors.As(err, &api) {
		if api.Class() == ClassRetired {
			return false // no later attempt reaches a version that is gone
		}
		// A session gone (404, 410) is started afresh later.
		return shouldRetry(api) != giveUp || api.Status == http.StatusNotFound || api.Status == http.StatusGone
	}
	for _, later := range []error{ErrNotNoted, ErrTooManyRetries, ErrStalled, ErrSessionExpired, ErrBadResponse, errNoProgress, errForgot} {
		if errors.Is(err, later) {
			return true
		}
	}
	return false
}
