package upload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Defaults of the Uploader's zero fields.
const (
	DefaultMaxRetries      = 5
	DefaultMaxOtherRetries = 10
	DefaultStallTimeout    = 60 * time.Second
	DefaultSessionLifetime = 7 * 24 * time.Hour
	// MaxRestarts bounds honest restarts from byte 0 within one Upload call.
	MaxRestarts = 3
	// MaxResultBody bounds the server's final answer kept in Result.Body.
	MaxResultBody = 16 << 20
	// maxErrorBody bounds an error answer read for its explanation.
	maxErrorBody = 64 << 10
	// drainLimit bounds what is read of an answer only so the connection can be reused.
	drainLimit = 64 << 10
	// maxRetryAfter bounds a server's Retry-After.
	maxRetryAfter = time.Hour
)

// StatusResumeIncomplete is Google's "308 Resume Incomplete".
const StatusResumeIncomplete = http.StatusPermanentRedirect

// Upload sends src to t with method m (Auto picks one: media below the
// threshold without metadata, multipart below it with metadata, resumable
// otherwise). With resume non-nil the upload is resumable whatever m says:
// it first asks the server where that session stands and continues from
// there, or starts afresh when the session is too old or gone. The returned
// error is nil only when the server has answered 200/201 for the complete
// file. Cancelling ctx (pause) stops the bytes at once and returns an error
// wrapping ctx.Err(); the session stays usable for a later resume.
func (u *Uploader) Upload(ctx context.Context, t Target, src Source, m Method, resume *Session, obs Observer) (*Result, error) {
	r, err := u.newRun(t, src, obs)
	if err != nil {
		return nil, err
	}
	if resume != nil && resume.URI == "" {
		resume = nil
	}
	if resume != nil {
		r.secrets = append(r.secrets, secretsOf(resume.URI)...)
		m = Resumable
	}
	m, err = r.choose(m)
	if err != nil {
		return nil, err
	}
	var res *Result
	switch m {
	case Resumable:
		res, err = r.resumable(ctx, resume)
	default:
		res, err = r.oneShot(ctx, m)
	}
	if err != nil {
		return nil, scrub(err, r.secrets)
	}
	return res, nil
}

// run is the state of one Upload call.
type run struct {
	client     *http.Client
	clock      Clock
	backoff    Backoff
	obs        Observer
	chunks     chunker // the size of each request's bytes
	threshold  int64
	maxRetries int
	maxOther   int
	stall      time.Duration
	lifetime   time.Duration
	allowed    string // AllowedHost

	t         Target
	target    *url.URL
	mediaType string
	src       Source
	checker   Checker
	size      int64

	session   *Session
	committed int64 // bytes the server confirmed in this session
	best      int64 // the most bytes the server ever confirmed in this session
	sentMax   int64 // end of the furthest request sent in this session
	handed    int64 // end of the file's bytes handed to the network in this session
	failures  int   // connection errors and 5xx since the last progress
	others    int   // other retried answers since the last progress
	restarts  int
	secrets   []string // texts errors must not show
	sum       fileSum  // CRC32C of the file's bytes as they are read
}

func (u *Uploader) newRun(t Target, src Source, obs Observer) (*run, error) {
	if src == nil {
		return nil, fmt.Errorf("%w: no file", ErrInvalid)
	}
	size := src.Size()
	if size < 0 {
		return nil, fmt.Errorf("%w: the file's size is unknown", ErrInvalid)
	}
	target, err := url.Parse(t.URL)
	if err != nil || !target.IsAbs() || (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return nil, fmt.Errorf("%w: the upload address is not a web address", ErrInvalid)
	}
	switch t.HTTPMethod {
	case "":
		t.HTTPMethod = http.MethodPost
	case http.MethodPost, http.MethodPut, http.MethodPatch:
	default:
		return nil, fmt.Errorf("%w: cannot upload with %q", ErrInvalid, t.HTTPMethod)
	}
	mediaType := strings.TrimSpace(t.ContentType)
	if mediaType == "" {
		mediaType = "application/octet-stream"
	}
	if err := checkMediaType(mediaType); err != nil {
		return nil, err
	}
	chunk := u.ChunkSize
	switch {
	case chunk == ChunkAuto:
	case chunk < 0:
		return nil, fmt.Errorf("%w: negative chunk size", ErrInvalid)
	case chunk > 0:
		chunk = align(chunk)
	}
	if obs == nil {
		obs = nopObserver{}
	}
	r := &run{
		clock:      u.Clock,
		backoff:    u.Backoff,
		obs:        obs,
		chunks:     newChunker(chunk),
		threshold:  orDefault(u.Threshold, DefaultThreshold),
		maxRetries: retries(u.MaxRetries, DefaultMaxRetries),
		maxOther:   retries(u.MaxOtherRetries, DefaultMaxOtherRetries),
		stall:      u.StallTimeout,
		lifetime:   u.SessionLifetime,
		allowed:    u.AllowedHost,
		t:          t,
		target:     target,
		mediaType:  mediaType,
		src:        src,
		size:       size,
	}
	r.checker, _ = src.(Checker)
	if r.clock == nil {
		r.clock = RealClock{}
	}
	if r.backoff == nil {
		r.backoff = ExponentialBackoff{}
	}
	if r.stall == 0 {
		r.stall = DefaultStallTimeout
	}
	if r.lifetime <= 0 {
		r.lifetime = DefaultSessionLifetime
	}
	base := u.Client
	if base == nil {
		base = http.DefaultClient
	}
	c := *base
	// A redirect would carry the bytes and credentials elsewhere, and 308 is
	// the protocol's "resume incomplete", not a redirect.
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	// A whole-request deadline would fail big chunks on slow links; the
	// stall timeout guards each request instead.
	c.Timeout = 0
	r.client = &c
	return r, nil
}

func orDefault(v, d int64) int64 {
	if v <= 0 {
		return d
	}
	return v
}

func retries(v, d int) int {
	switch {
	case v == 0:
		return d
	case v < 0:
		return 0
	}
	return v
}

// choose resolves Auto.
func (r *run) choose(m Method) (Method, error) {
	switch m {
	case Media, Multipart, Resumable:
		return m, nil
	case Auto, "":
		switch {
		case r.size >= r.threshold:
			return Resumable, nil
		case r.t.Metadata == nil:
			return Media, nil
		default:
			return Multipart, nil
		}
	}
	return "", fmt.Errorf("%w: unknown upload type %q", ErrInvalid, m)
}

// check asks the Source whether it is still the file that was queued.
func (r *run) check() error {
	if r.checker == nil {
		return nil
	}
	if err := r.checker.Check(); err != nil {
		if errors.Is(err, ErrFileChanged) {
			return err
		}
		return fmt.Errorf("%w: %w", ErrFileChanged, err)
	}
	return nil
}

// stopped wraps the reason ctx ended.
func stopped(ctx context.Context) error {
	return fmt.Errorf("the upload was stopped: %w", ctx.Err())
}

// withUploadType is the target URL with uploadType set, other query
// parameters kept as they were written.
func (r *run) withUploadType(typ string) string {
	u := *r.target
	if _, ok := u.Query()["uploadType"]; ok {
		q := u.Query()
		q.Set("uploadType", typ)
		u.RawQuery = q.Encode()
	} else if u.RawQuery == "" {
		u.RawQuery = "uploadType=" + typ
	} else {
		u.RawQuery += "&uploadType=" + typ
	}
	return u.String()
}

// answer is a server's response, read and closed.
type answer struct {
	status  int
	header  http.Header
	body    []byte
	bodyErr error // reading the body failed
}

func (a *answer) retryAfter(now time.Time) (time.Duration, bool) {
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

// do sends req with body pl (nil for none) under a stall watch and reads the
// answer. Its errors are ctx's, ErrFileChanged, a *connError, or a
// transport error that must not be retried.
func (r *run) do(ctx context.Context, req *http.Request, pl *payload) (*answer, error) {
	rctx, w := startWatch(ctx, r.stall)
	defer w.stop()
	req = req.WithContext(httptrace.WithClientTrace(rctx, &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { w.follow(info.Conn) },
	}))
	if pl != nil {
		pl.watch = w
		pl.sum = &r.sum
		req.Body = pl.open()
		req.GetBody = func() (io.ReadCloser, error) { return pl.open(), nil }
		req.ContentLength = pl.length()
		if req.ContentLength == 0 {
			req.Body, req.GetBody = http.NoBody, nil
		}
	}
	resp, err := r.client.Do(req)
	delivered := false
	var srcErr error
	if pl != nil {
		var handed int64
		delivered, handed, srcErr = pl.detach()
		r.handed = max(r.handed, handed)
	}
	if err != nil {
		switch {
		case srcErr != nil:
			return nil, srcErr
		case ctx.Err() != nil:
			return nil, stopped(ctx)
		}
		if cause := stalled(rctx); cause != nil {
			return nil, &connError{err: cause, delivered: delivered}
		}
		if isDialError(err) {
			delivered = false
		}
		return nil, transportError(err, delivered)
	}
	w.touch()
	a := &answer{status: resp.StatusCode, header: resp.Header}
	limit := int64(maxErrorBody)
	if resp.StatusCode/100 == 2 {
		limit = MaxResultBody
	}
	a.body, a.bodyErr = io.ReadAll(io.LimitReader(&touchReader{r: resp.Body, w: w}, limit))
	if a.bodyErr == nil {
		_, _ = io.CopyN(io.Discard, resp.Body, drainLimit)
	}
	resp.Body.Close()
	if a.bodyErr != nil {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if cause := stalled(rctx); cause != nil {
			a.bodyErr = cause
		}
	}
	return a, nil
}

// isDialError reports an error from before any byte of the request left.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// touchReader reports progress of an answer's body to the stall watch.
type touchReader struct {
	r io.Reader
	w *watch
}

func (t *touchReader) Read(b []byte) (int, error) {
	n, err := t.r.Read(b)
	if n > 0 {
		t.w.touch()
	}
	return n, err
}

// newRequest builds a request whose body do fills in.
func newRequest(method, target string) (*http.Request, error) {
	req, err := http.NewRequest(method, target, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: the request could not be made", ErrInvalid)
	}
	return req, nil
}

// wait sleeps before the next attempt, or says the attempts are used up.
// other selects the budget of answers retried without backoff (408, 429).
func (r *run) wait(ctx context.Context, cause error, other bool, after time.Duration, hasAfter bool) error {
	var attempt int
	var wait time.Duration
	if other {
		r.others++
		attempt = r.others
		if r.others > r.maxOther {
			return fmt.Errorf("%w (%d): %w", ErrTooManyRetries, r.others, cause)
		}
		var api *APIError
		if errors.As(cause, &api) && api.Status == http.StatusTooManyRequests {
			wait = r.backoff.Wait(r.others - 1)
		}
	} else {
		r.failures++
		attempt = r.failures
		if r.failures > r.maxRetries {
			return fmt.Errorf("%w (%d): %w", ErrTooManyRetries, r.failures, cause)
		}
		wait = r.backoff.Wait(r.failures - 1)
	}
	if hasAfter {
		wait = after
	}
	r.obs.Retrying(attempt, wait, scrub(cause, r.secrets))
	err := r.clock.Sleep(ctx, wait)
	switch {
	case ctx.Err() != nil:
		return stopped(ctx)
	case err != nil:
		return fmt.Errorf("waiting before trying again: %w", err)
	}
	return nil
}

// progressed resets the retry budgets once the server confirms bytes past
// the most it ever confirmed: a server that keeps a chunk and then forgets
// it does not buy itself new attempts each time it keeps it again.
func (r *run) progressed(next int64) bool {
	if next <= r.best {
		return false
	}
	r.best = next
	r.failures, r.others = 0, 0
	return true
}

// accept checks a final answer before the upload is called done: the file
// is still the one queued after its last byte, and the server's own account
// of the object (size, checksum), when it gives one, matches the file.
func (r *run) accept(res *Result) (*Result, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	verified, err := r.verify(res.Body)
	if err != nil {
		return nil, err
	}
	res.Verified = verified
	return res, nil
}

// received is what the server can hold when it claims the whole file too
// early: the size its answer gives, else the bytes handed to the network.
func (r *run) received(body []byte) int64 {
	if a := readAccount(body); a.Size >= 0 {
		return int64(a.Size)
	}
	return r.handed
}

// refusal turns an error answer into an error, and says whether trying
// again could help and whether with backoff.
type refusal struct {
	err      error
	retry    bool // worth another attempt
	other    bool // counted among other retries: no backoff unless 429
	after    time.Duration
	hasAfter bool
}

func (r *run) refuse(a *answer) refusal {
	api, understood := parseAPIError(a.status, a.header, a.body)
	var err error = api
	if !understood || (a.status >= 300 && a.status < 400) {
		err = fmt.Errorf("%w: %w", ErrBadResponse, api)
	}
	f := refusal{err: err}
	f.after, f.hasAfter = a.retryAfter(r.clock.Now())
	switch a.status {
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		f.retry = true
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		f.retry, f.other = true, true
	case http.StatusForbidden:
		f.retry = rateLimited(api)
	}
	return f
}

// refusesProtocol reports a refusal of the upload protocol itself (the
// method takes no resumable sessions): only then can the same file sent in
// one request succeed. A permission, version, not-found or quota refusal
// would refuse the whole file just the same.
func refusesProtocol(err error) bool {
	var api *APIError
	return errors.As(err, &api) && api.Class() == ClassProtocol
}

// rateLimited reports Google's 403 rate limits, which lift within seconds and
// which Google asks clients to retry with exponential backoff (a daily
// quotaExceeded does not lift, so it is not among them).
func rateLimited(api *APIError) bool {
	return api.Status == http.StatusForbidden && (api.Reason == "rateLimitExceeded" || api.Reason == "userRateLimitExceeded")
}

// oneShot sends the whole file in one request (media or multipart).
func (r *run) oneShot(ctx context.Context, m Method) (*Result, error) {
	var mp multipartBody
	contentType := r.mediaType
	if m == Multipart {
		meta := r.t.Metadata
		if meta == nil {
			meta = []byte("{}") // the protocol's metadata part is not optional
		}
		var err error
		if mp, err = newMultipart(meta, r.mediaType); err != nil {
			return nil, err
		}
		contentType = mp.contentType
	}
	target := r.withUploadType(string(m))
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		if err := r.check(); err != nil {
			return nil, err
		}
		r.handed = 0
		req, err := newRequest(r.t.HTTPMethod, target)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", contentType)
		pl := &payload{src: r.src, n: r.size, head: mp.head, tail: mp.tail, obs: r.obs}
		a, err := r.do(ctx, req, pl)
		if err != nil {
			var ce *connError
			if !errors.As(err, &ce) {
				return nil, err
			}
			if ce.delivered {
				return nil, fmt.Errorf("%w: %w", ErrAnswerLost, ce)
			}
			if err := r.wait(ctx, ce, false, 0, false); err != nil {
				return nil, err
			}
			continue
		}
		if a.status/100 == 2 {
			if r.handed < r.size {
				return nil, &IncompleteError{Received: min(r.received(a.body), r.size), Size: r.size}
			}
			// Done even if the answer's body broke off: sending again would make a copy.
			res, err := r.accept(&Result{Status: a.status, Body: a.body, Method: m})
			if err != nil {
				return nil, err
			}
			r.obs.Committed(r.size)
			return res, nil
		}
		f := r.refuse(a)
		if !f.retry {
			return nil, f.err
		}
		if err := r.wait(ctx, f.err, f.other, f.after, f.hasAfter); err != nil {
			return nil, err
		}
	}
}

// step is what one request of a resumable upload came to.
type step struct {
	kind   stepKind
	next   int64 // stepAt: the first byte the server has not persisted
	query  bool  // stepAt: the answer to a status query, not to bytes
	result *Result
	err    error
	f      refusal // stepRetry
}

type stepKind int

const (
	stepStarted  stepKind = iota // a new session
	stepAt                       // the server said where it stands
	stepDone                     // the server has the whole file
	stepEarly                    // the server claims the whole file, but was not sent it all
	stepRestart                  // the session is gone: start again from byte 0
	stepRetry                    // wait, then ask for status (or start again)
	stepFail                     // stop with err
	stepFallback                 // the session start was refused: send in one request
)

func retryStep(err error) step {
	return step{kind: stepRetry, err: err, f: refusal{err: err, retry: true}}
}

// resumable runs a resumable upload to its end.
func (r *run) resumable(ctx context.Context, resume *Session) (*Result, error) {
	needStatus := false
	if resume != nil {
		if err := r.checkSessionURI(resume.URI); err != nil {
			return nil, err
		}
		if age := r.clock.Now().Sub(resume.Started); age >= r.lifetime {
			if err := r.restart(fmt.Errorf("%w: it was started %s ago", ErrSessionExpired, age.Round(time.Minute))); err != nil {
				return nil, err
			}
		} else {
			s := *resume
			r.session = &s
			r.sentMax, r.handed = r.size, r.size // what an earlier run sent is unknown
			needStatus = true
		}
	}
	var next int64   // the first byte the server has not persisted
	doubted := false // a claim of completion came too early; the server was asked again
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		var s step
		switch {
		case r.session == nil:
			s = r.start(ctx)
		case needStatus:
			s = r.status(ctx)
		default:
			s = r.send(ctx, next)
		}
		switch s.kind {
		case stepStarted:
			next, needStatus = 0, false
		case stepDone:
			res, err := r.accept(s.result)
			if err != nil {
				return nil, err
			}
			r.obs.Committed(r.size)
			return res, nil
		case stepEarly:
			if doubted {
				return nil, &IncompleteError{Received: min(r.received(s.result.Body), r.size), Size: r.size}
			}
			doubted, needStatus = true, true
		case stepAt:
			forgot := s.next < r.committed
			kept := s.next > r.committed
			r.committed, next, needStatus = s.next, s.next, false
			r.obs.Committed(s.next)
			switch {
			case r.progressed(s.next):
				doubted = false
			case forgot:
				if err := r.wait(ctx, errForgot, false, 0, false); err != nil {
					return nil, err
				}
			case !kept && !s.query:
				if err := r.wait(ctx, errNoProgress, false, 0, false); err != nil {
					return nil, err
				}
			}
		case stepRestart:
			if err := r.restart(s.err); err != nil {
				return nil, err
			}
		case stepRetry:
			if err := r.wait(ctx, s.f.err, s.f.other, s.f.after, s.f.hasAfter); err != nil {
				return nil, err
			}
			needStatus = r.session != nil
		case stepFallback:
			to := Multipart
			if r.t.Metadata == nil {
				to = Media
			}
			r.obs.FellBack(Resumable, to, scrub(s.err, r.secrets))
			return r.oneShot(ctx, to)
		default:
			return nil, s.err
		}
	}
}

// restart forgets the session so that the next step starts a new one.
func (r *run) restart(reason error) error {
	r.restarts++
	if r.restarts > MaxRestarts {
		return fmt.Errorf("%w (%d restarts): %w", ErrTooManyRetries, r.restarts-1, reason)
	}
	r.session, r.committed, r.best, r.sentMax, r.handed = nil, 0, 0, 0, 0
	r.obs.Restarted(scrub(reason, r.secrets))
	return nil
}

// start asks for a new session.
func (r *run) start(ctx context.Context) step {
	req, err := newRequest(r.t.HTTPMethod, r.withUploadType(string(Resumable)))
	if err != nil {
		return step{kind: stepFail, err: err}
	}
	req.Header.Set("X-Upload-Content-Type", r.mediaType)
	req.Header.Set("X-Upload-Content-Length", strconv.FormatInt(r.size, 10))
	var pl *payload
	if r.t.Metadata != nil {
		req.Header.Set("Content-Type", metadataType)
		pl = &payload{src: bytes.NewReader(nil), head: r.t.Metadata, obs: nopObserver{}}
	} else {
		pl = &payload{src: bytes.NewReader(nil), obs: nopObserver{}}
	}
	began := time.Now()
	a, err := r.do(ctx, req, pl)
	if err != nil {
		if errors.As(err, new(*connError)) {
			return retryStep(err)
		}
		return step{kind: stepFail, err: err}
	}
	r.chunks.roundTrip(time.Since(began))
	if a.status/100 != 2 {
		f := r.refuse(a)
		switch {
		case f.retry:
			return step{kind: stepRetry, err: f.err, f: f}
		case r.t.FallbackToMultipart && refusesProtocol(f.err):
			return step{kind: stepFallback, err: f.err}
		}
		return step{kind: stepFail, err: f.err}
	}
	loc := a.header.Get("Location")
	r.secrets = append(r.secrets, secretsOf(loc)...)
	if err := r.checkSessionURI(loc); err != nil {
		return step{kind: stepFail, err: err}
	}
	s := Session{URI: loc, Started: r.clock.Now()}
	r.session = &s
	r.committed, r.best, r.sentMax, r.handed = 0, 0, 0, 0
	r.obs.SessionStarted(s)
	return step{kind: stepStarted}
}

// send puts the bytes from next on, up to one chunk.
func (r *run) send(ctx context.Context, next int64) step {
	if err := r.check(); err != nil {
		return step{kind: stepFail, err: err}
	}
	n := r.chunks.next(next, r.size)
	req, err := newRequest(http.MethodPut, r.session.URI)
	if err != nil {
		return step{kind: stepFail, err: err}
	}
	req.Header.Set("Content-Range", ContentRange{First: next, Length: n, Total: r.size}.String())
	req.Header.Set("Content-Type", r.mediaType)
	r.sentMax = max(r.sentMax, next+n)
	began := time.Now() // the chunk rule learns the real link: wall time
	a, err := r.do(ctx, req, &payload{src: r.src, off: next, n: n, obs: r.obs})
	if err != nil {
		if errors.As(err, new(*connError)) {
			r.chunks.broke(next, n, errors.Is(err, ErrStalled))
			return retryStep(err)
		}
		return step{kind: stepFail, err: err}
	}
	s := r.sessionAnswer(a, false)
	if s.kind == stepAt {
		r.chunks.confirmed(n, s.next-next, time.Since(began))
	}
	return s
}

// status asks the server where the session stands.
func (r *run) status(ctx context.Context) step {
	req, err := newRequest(http.MethodPut, r.session.URI)
	if err != nil {
		return step{kind: stepFail, err: err}
	}
	req.Header.Set("Content-Range", ContentRange{Total: r.size}.String())
	began := time.Now()
	a, err := r.do(ctx, req, &payload{src: bytes.NewReader(nil), obs: nopObserver{}})
	if err != nil {
		if errors.As(err, new(*connError)) {
			return retryStep(err)
		}
		return step{kind: stepFail, err: err}
	}
	r.chunks.roundTrip(time.Since(began))
	return r.sessionAnswer(a, true)
}

// sessionAnswer reads an answer to bytes or a status query sent to the session.
func (r *run) sessionAnswer(a *answer, query bool) step {
	status := a.status
	if status == http.StatusOK && a.header.Get("X-Http-Status-Code-Override") == "308" {
		status = StatusResumeIncomplete // Google's variant for clients that avoid 308
	}
	switch status {
	case http.StatusOK, http.StatusCreated:
		if a.bodyErr != nil {
			return retryStep(&connError{err: a.bodyErr})
		}
		res := &Result{Status: a.status, Body: a.body, Method: Resumable}
		if r.handed < r.size {
			return step{kind: stepEarly, result: res}
		}
		return step{kind: stepDone, result: res}
	case StatusResumeIncomplete:
		next, _, err := ParseRange(a.header.Get("Range"))
		switch {
		case err != nil:
			return retryStep(err)
		case next > r.sentMax:
			return retryStep(fmt.Errorf("%w: the server claims %d bytes but only %d were sent", ErrBadResponse, next, r.sentMax))
		case next >= r.size && r.size > 0:
			return retryStep(fmt.Errorf("%w: the server has every byte but did not finish the upload", ErrBadResponse))
		}
		return step{kind: stepAt, next: next, query: query}
	case http.StatusNotFound, http.StatusGone:
		api, _ := parseAPIError(a.status, a.header, a.body)
		return step{kind: stepRestart, err: fmt.Errorf("%w: %w", ErrSessionExpired, api)}
	}
	if status/100 == 2 {
		return retryStep(fmt.Errorf("%w: unexpected answer %d", ErrBadResponse, status))
	}
	f := r.refuse(a)
	if f.retry {
		return step{kind: stepRetry, err: f.err, f: f}
	}
	return step{kind: stepFail, err: f.err}
}

// checkSessionURI accepts only an absolute http(s) URI on the allowed host.
func (r *run) checkSessionURI(s string) error {
	if s == "" {
		return fmt.Errorf("%w: no session address (Location) in the answer", ErrBadResponse)
	}
	u, err := url.Parse(s)
	if err != nil || !u.IsAbs() || u.Host == "" || u.User != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%w: the session address (Location) is not a usable web address", ErrBadResponse)
	}
	if !r.hostAllowed(u) {
		return fmt.Errorf("%w (%s)", ErrForeignHost, u.Hostname())
	}
	if r.target.Scheme == "https" && u.Scheme != "https" {
		return fmt.Errorf("%w: it is not encrypted", ErrForeignHost)
	}
	return nil
}

func (r *run) hostAllowed(u *url.URL) bool {
	if r.allowed != "" {
		if _, _, err := net.SplitHostPort(r.allowed); err == nil {
			return hostPort(u) == hostPort(&url.URL{Scheme: u.Scheme, Host: r.allowed})
		}
		return strings.EqualFold(u.Hostname(), strings.Trim(r.allowed, "[]"))
	}
	return strings.EqualFold(hostPort(u), hostPort(r.target))
}

// hostPort is u's host with the scheme's port filled in.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// secretsOf lists the parts of a session URI that must never be shown.
func secretsOf(uri string) []string {
	if uri == "" {
		return nil
	}
	out := []string{uri}
	if u, err := url.Parse(uri); err == nil {
		for _, v := range u.Query()["upload_id"] {
			if v != "" {
				out = append(out, v, url.QueryEscape(v))
			}
		}
	}
	return out
}

type nopObserver struct{}

func (nopObserver) SessionStarted(Session)             {}
func (nopObserver) Sent(int64)                         {}
func (nopObserver) Committed(int64)                    {}
func (nopObserver) Restarted(error)                    {}
func (nopObserver) Retrying(int, time.Duration, error) {}
func (nopObserver) FellBack(Method, Method, error)     {}
