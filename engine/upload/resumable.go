package upload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"hoist/internal/webaddr"
)

// step is what one request of a resumable upload came to.
type step struct {
	kind   stepKind
	next   int64 // stepAt: the first byte the server has not persisted
	query  bool  // stepAt: the answer to a status query, not to bytes
	result *Result
	err    error
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

// failed is the step a request that ended in err comes to: a wait and
// another attempt when shouldRetry says so, else the end.
func failed(err error) step {
	if shouldRetry(err) == giveUp {
		return step{kind: stepFail, err: err}
	}
	return step{kind: stepRetry, err: err}
}

// doubt is the step of an answer that cannot be trusted: ask again.
func doubt(err error) step {
	return step{kind: stepRetry, err: &unsure{err: err}}
}

// resumableRun is a run's resumable upload: its session, started or
// resumed, and the chunks and status queries that take it to its end. The
// one-request upload and the lookups stay with the run itself.
type resumableRun struct{ *run }

// resumable runs a resumable upload to its end.
func (r *run) resumable(ctx context.Context, resume *Session) (*Result, error) {
	return resumableRun{r}.loop(ctx, resume)
}

// loop takes the session from its start (or resume) to the end of the file.
func (r resumableRun) loop(ctx context.Context, resume *Session) (*Result, error) {
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
			r.resumed = true
		}
	}
	var next int64    // the first byte the server has not persisted
	var early *Result // a claim of completion that came too early; the server is asked again
	for {
		if ctx.Err() != nil {
			return nil, stopped(ctx)
		}
		var s step
		switch {
		case r.session == nil && r.t.Pin != nil && !r.pinned:
			// A session of an earlier run is gone: the new one carries the precondition too.
			if res, err, done := r.guard(ctx); done {
				return res, err
			}
			continue
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
			if r.resumed && r.t.Pin != nil && r.t.Lookup != nil {
				return r.done(r.readBack(ctx, s.result))
			}
			return r.done(r.accept(ctx, s.result))
		case stepEarly:
			if early != nil {
				return nil, r.incomplete(s.result)
			}
			early, needStatus = s.result, true
		case stepAt:
			forgot := s.next < r.committed
			kept := s.next > r.committed
			r.committed, next, needStatus = s.next, s.next, false
			r.obs.Committed(s.next)
			switch {
			case r.progressed(s.next):
				early = nil
			case forgot:
				if err := r.wait(ctx, errForgot); err != nil {
					return nil, err
				}
			case !kept && !s.query:
				if err := r.wait(ctx, errNoProgress); err != nil {
					return nil, err
				}
			}
		case stepRestart:
			if early != nil {
				// The session ended with the claim: a new one would make a
				// second copy beside the short one the claim named.
				return nil, r.incomplete(early)
			}
			if err := r.restart(s.err); err != nil {
				return nil, err
			}
		case stepRetry:
			if err := r.wait(ctx, s.err); err != nil {
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
			if res, err, ok := r.refusedByPin(ctx, s.err); ok {
				return res, err
			}
			return nil, s.err
		}
	}
}

// incomplete is the error of a session that the server finished with
// part of the file, its answer res naming what it made.
func (r resumableRun) incomplete(res *Result) error {
	return &IncompleteError{Received: min(r.received(res.Body), r.size), Size: r.size, Body: res.Body}
}

// restart forgets the session so that the next step starts a new one.
func (r resumableRun) restart(reason error) error {
	r.restarts++
	if r.restarts > MaxRestarts {
		return fmt.Errorf("%w (%d restarts): %w", ErrTooManyRetries, r.restarts-1, reason)
	}
	r.session, r.committed, r.best, r.sentMax, r.handed = nil, 0, 0, 0, 0
	r.resumed = false
	r.obs.Restarted(scrub(reason, r.secrets))
	return nil
}

// start asks for a new session.
func (r resumableRun) start(ctx context.Context) step {
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
		return failed(err)
	}
	r.chunks.roundTrip(time.Since(began))
	if a.status/100 != 2 {
		err := r.refuse(a)
		if shouldRetry(err) == giveUp && r.t.FallbackToMultipart && refusesProtocol(err) {
			return step{kind: stepFallback, err: err}
		}
		return failed(err)
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
func (r resumableRun) send(ctx context.Context, next int64) step {
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
	if r.t.SendCRC32C && next+n == r.size {
		crc, err := r.sum.crc32c(r.src)
		if err != nil {
			return step{kind: stepFail, err: err}
		}
		req.Header.Set("X-Goog-Hash", "crc32c="+crcBase64(crc))
	}
	r.sentMax = max(r.sentMax, next+n)
	began := time.Now() // the chunk rule learns the real link: wall time
	a, err := r.do(ctx, req, &payload{src: r.src, off: next, n: n, obs: r.obs})
	if err != nil {
		if errors.As(err, new(*connError)) {
			r.chunks.broke(next, n, errors.Is(err, ErrStalled))
		}
		return failed(err)
	}
	s := r.sessionAnswer(a, false)
	if s.kind == stepAt {
		r.chunks.confirmed(n, s.next-next, time.Since(began))
	}
	return s
}

// status asks the server where the session stands.
func (r resumableRun) status(ctx context.Context) step {
	req, err := newRequest(http.MethodPut, r.session.URI)
	if err != nil {
		return step{kind: stepFail, err: err}
	}
	req.Header.Set("Content-Range", ContentRange{Total: r.size}.String())
	began := time.Now()
	a, err := r.do(ctx, req, &payload{src: bytes.NewReader(nil), obs: nopObserver{}})
	if err != nil {
		return failed(err)
	}
	r.chunks.roundTrip(time.Since(began))
	return r.sessionAnswer(a, true)
}

// sessionAnswer reads an answer to bytes or a status query sent to the session.
func (r resumableRun) sessionAnswer(a *answer, query bool) step {
	status := a.status
	if status == http.StatusOK && a.header.Get("X-Http-Status-Code-Override") == "308" {
		status = StatusResumeIncomplete // Google's variant for clients that avoid 308
	}
	switch status {
	case http.StatusOK, http.StatusCreated:
		if a.bodyErr != nil {
			return failed(&connError{err: a.bodyErr})
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
			return doubt(err)
		case next > r.sentMax:
			return doubt(fmt.Errorf("%w: the server claims %d bytes but only %d were sent", ErrBadResponse, next, r.sentMax))
		case next >= r.size && r.size > 0:
			return doubt(fmt.Errorf("%w: the server has every byte but did not finish the upload", ErrBadResponse))
		}
		return step{kind: stepAt, next: next, query: query}
	case http.StatusNotFound, http.StatusGone:
		api, _ := parseAPIError(a.status, a.header, a.body)
		return step{kind: stepRestart, err: fmt.Errorf("%w: %w", ErrSessionExpired, api)}
	}
	if status/100 == 2 {
		return doubt(fmt.Errorf("%w: unexpected answer %d", ErrBadResponse, status))
	}
	return failed(r.refuse(a))
}

// checkSessionURI accepts only an absolute http(s) URI on the allowed host.
func (r resumableRun) checkSessionURI(s string) error {
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

func (r resumableRun) hostAllowed(u *url.URL) bool {
	if r.allowed != "" {
		if _, _, err := net.SplitHostPort(r.allowed); err == nil {
			return strings.EqualFold(webaddr.HostPort(u), webaddr.HostPort(&url.URL{Scheme: u.Scheme, Host: r.allowed}))
		}
		return strings.EqualFold(u.Hostname(), strings.Trim(r.allowed, "[]"))
	}
	return strings.EqualFold(webaddr.HostPort(u), webaddr.HostPort(r.target))
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
