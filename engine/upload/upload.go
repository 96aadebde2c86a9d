package upload

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults of the Uploader's zero fields.
const (
	DefaultMaxRetries      = 5
	DefaultMaxOtherRetries = 10
	DefaultStallTimeout    = 60 * time.Second
	// DefaultSettleTime is how long after a one-request upload's last byte
	// went out (or, in this run, after its answer was lost) a destination
	// that holds nothing of it is taken to hold nothing "yet": a server may
	// act on a request it read late, or whole, after the connection that
	// carried it broke. As long as a request may make no progress before
	// the uploader gives it up (DefaultStallTimeout); docs/architecture.md
	// says why.
	DefaultSettleTime      = DefaultStallTimeout
	DefaultSessionLifetime = 7 * 24 * time.Hour
	// MaxRestarts bounds honest restarts from byte 0 within one Upload call.
	MaxRestarts = 3
	// MaxResultBody bounds the server's final answer kept in Result.Body.
	MaxResultBody = 16 << 20
	// maxErrorBody bounds an error answer read for its explanation.
	maxErrorBody = 64 << 10
	// drainLimit bounds what is read of an answer only so the connection can be reused.
	drainLimit = 64 << 10
	// maxRetryAfter bounds a server's Retry-After: beyond a week it is not
	// a wait but a refusal, and the session would be gone anyway.
	maxRetryAfter = DefaultSessionLifetime
	// MaxStalls is how many requests in a row may stall, with nothing
	// confirmed between them, before the upload gives up: with the
	// default stall timeout, a stalled upload stops within about two
	// minutes, not after every retry has stalled in turn.
	MaxStalls = 2
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
	if resume != nil {
		r.unanswered = resume.Sent
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
	res, err := r.upload(ctx, m, resume)
	if err != nil {
		return nil, scrub(err, r.secrets)
	}
	return res, nil
}

// upload runs the upload by method m.
func (r *run) upload(ctx context.Context, m Method, resume *Session) (*Result, error) {
	if resume == nil {
		if res, err, done := r.prepare(ctx, m); done {
			return res, err
		}
	}
	if m != Resumable {
		return r.oneShot(ctx, m)
	}
	if !r.unanswered.IsZero() && !r.repeatable() {
		// A one-request upload of the file may have arrived, and nothing could be asked.
		return nil, &AnswerLostError{Sent: r.unanswered}
	}
	return r.resumable(ctx, resume)
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
	committed int64         // bytes the server confirmed in this session
	best      int64         // the most bytes the server ever confirmed in this session
	sentMax   int64         // end of the furthest request sent in this session
	handed    int64         // end of the file's bytes handed to the network in this session
	failures  int           // connection errors and 5xx since the last progress
	others    int           // other retried answers since the last progress
	stalls    int           // requests in a row that stalled since the last progress
	waited    time.Duration // slept before retries in this call
	maxWait   time.Duration // Uploader.MaxWait
	restarts  int
	secrets   []string // texts errors must not show
	sum       fileSum  // CRC32C of the file's bytes as they are read
	delivered bool     // the last request's whole body went out
	pinned    bool     // the precondition is on the upload address (Target.Pin)
	resumed   bool     // the session is one an earlier run started, not yet restarted

	// One-request uploads in doubt (lookup.go).
	attempted  time.Time // the attempt going out now
	unanswered time.Time // an attempt whose whole body went out, its answer lost and not yet settled
	lostAt     time.Time // when this run heard the connection of that attempt break
	settleTime time.Duration
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
		maxWait:    u.MaxWait,
		settleTime: u.SettleTime,
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
	if r.settleTime == 0 {
		r.settleTime = DefaultSettleTime
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

// accept checks a final answer before the upload is called done: the file
// is still the one queued after its last byte, and the server's own account
// of the object (size, checksum), when it gives one, matches the file.
//
// An answer that names nothing (Target.Identifies) is not taken as done:
// the object is looked for (Target.Lookup), and without it the upload
// stops with ErrNoID.
func (r *run) accept(ctx context.Context, res *Result) (*Result, error) {
	if err := r.check(); err != nil {
		return nil, err
	}
	if r.t.Identifies != nil && !r.t.Identifies(res.Body) {
		if r.t.Lookup == nil {
			return nil, ErrNoID
		}
		f, err := r.find(ctx)
		switch {
		case err != nil && ctx.Err() != nil:
			return nil, err
		case err != nil:
			return nil, fmt.Errorf("%w; looking for it failed: %w", ErrNoID, err)
		case f.Body == nil || (r.t.Identifies != nil && !r.t.Identifies(f.Body)):
			return nil, fmt.Errorf("%w, and it was not found there", ErrNoID)
		}
		res = &Result{Status: res.Status, Body: f.Body, Method: res.Method, Found: true}
	}
	verified, err := r.verify(res.Body)
	if err != nil {
		var short *IncompleteError
		var differs *MismatchError
		switch {
		case errors.As(err, &short):
			short.Body = res.Body
		case errors.As(err, &differs):
			differs.Body = res.Body
		}
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

type nopObserver struct{}

func (nopObserver) SessionStarted(Session)             {}
func (nopObserver) Sent(int64)                         {}
func (nopObserver) Committed(int64)                    {}
func (nopObserver) Restarted(error)                    {}
func (nopObserver) Retrying(int, time.Duration, error) {}
func (nopObserver) FellBack(Method, Method, error)     {}
func (nopObserver) Doubt(time.Time) error              { return nil }
