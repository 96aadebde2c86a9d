package upload

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/internal/testclock"
)

// The scripted server: each request must match the next exchange exactly.

const (
	testBase    = "https://up.test/upload/v1/things?alt=json"
	testSession = "https://up.test/upload/v1/things?alt=json&uploadType=resumable&upload_id=SECRETxyz987"
	testType    = "image/png"
)

type exchange struct {
	// what the request must be
	method string
	url    string
	header map[string]string // every header the request carries, exactly
	length int64             // Content-Length
	body   []byte            // exact body, unless bodyFn is set
	bodyFn func(t *testing.T, body []byte)

	// what happens
	status  int
	rheader map[string]string
	rbody   string
	err     error // returned instead of an answer
	readN   int64 // with err: body bytes read first; -1 = all of it
	stall   bool  // read nothing and wait for the request's context to end
	before  func(req *http.Request)
}

// answer sets the response: status and header name/value pairs.
func (x exchange) answer(status int, kv ...string) exchange {
	x.status = status
	x.rheader = map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		x.rheader[kv[i]] = kv[i+1]
	}
	return x
}

func (x exchange) withBody(s string) exchange { x.rbody = s; return x }

// fail makes the request fail with err after n body bytes (-1: all).
func (x exchange) fail(n int64, err error) exchange { x.err, x.readN = err, n; return x }

type script struct {
	t      *testing.T
	mu     sync.Mutex
	steps  []exchange
	next   int
	hosts  []string
	bodies []*trackedBody
}

// newScript installs a transport that plays steps and checks at the end of
// the test that all were used and every answer body was read and closed.
func newScript(t *testing.T, steps ...exchange) *script {
	s := &script{t: t, steps: steps}
	t.Cleanup(func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.next != len(s.steps) {
			t.Errorf("script: %d of %d requests were made", s.next, len(s.steps))
		}
		for i, b := range s.bodies {
			if !b.closed {
				t.Errorf("script: answer body %d was not closed", i)
			}
			if b.r.Len() != 0 {
				t.Errorf("script: answer body %d was not drained", i)
			}
		}
	})
	return s
}

func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	t := s.t
	s.mu.Lock()
	s.hosts = append(s.hosts, req.URL.Host)
	if s.next >= len(s.steps) {
		s.mu.Unlock()
		t.Errorf("script: unexpected request %s %s (Content-Range %q)", req.Method, req.URL, req.Header.Get("Content-Range"))
		closeBody(req)
		return nil, errors.New("unexpected request")
	}
	x := s.steps[s.next]
	s.next++
	n := s.next
	s.mu.Unlock()

	where := fmt.Sprintf("request %d (%s %s)", n, req.Method, req.Header.Get("Content-Range"))
	if req.Method != x.method {
		t.Errorf("%s: method %s, want %s", where, req.Method, x.method)
	}
	if got := req.URL.String(); got != x.url {
		t.Errorf("%s: URL %s, want %s", where, got, x.url)
	}
	if req.ContentLength != x.length {
		t.Errorf("%s: Content-Length %d, want %d", where, req.ContentLength, x.length)
	}
	for k := range req.Header {
		if _, ok := x.header[k]; !ok {
			t.Errorf("%s: unexpected header %s: %q", where, k, req.Header.Get(k))
		}
	}
	for k, v := range x.header {
		if got := req.Header.Values(k); len(got) != 1 || got[0] != v {
			t.Errorf("%s: header %s = %q, want %q", where, k, got, v)
		}
	}
	if x.before != nil {
		x.before(req)
	}
	if x.stall {
		closeBody(req)
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	if x.err != nil {
		if req.Body != nil {
			if x.readN < 0 {
				_, _ = io.Copy(io.Discard, req.Body)
			} else {
				_, _ = io.CopyN(io.Discard, req.Body, x.readN)
			}
		}
		closeBody(req)
		return nil, x.err
	}
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		if err != nil {
			t.Errorf("%s: reading the body: %v", where, err)
		}
		closeBody(req)
	}
	if int64(len(body)) != req.ContentLength {
		t.Errorf("%s: body has %d bytes, Content-Length says %d", where, len(body), req.ContentLength)
	}
	if x.bodyFn != nil {
		x.bodyFn(t, body)
	} else if !bytes.Equal(body, x.body) {
		t.Errorf("%s: body differs from the expected %d bytes (got %d)", where, len(x.body), len(body))
	}
	h := http.Header{}
	for k, v := range x.rheader {
		h.Set(k, v)
	}
	tb := &trackedBody{r: strings.NewReader(x.rbody)}
	s.mu.Lock()
	s.bodies = append(s.bodies, tb)
	s.mu.Unlock()
	return &http.Response{
		Status:        strconv.Itoa(x.status) + " " + http.StatusText(x.status),
		StatusCode:    x.status,
		Header:        h,
		Body:          tb,
		ContentLength: int64(len(x.rbody)),
		Request:       req,
		Proto:         "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
	}, nil
}

func (s *script) requestHosts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.hosts...)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

type trackedBody struct {
	mu     sync.Mutex
	r      *strings.Reader
	closed bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, errors.New("read after close")
	}
	return b.r.Read(p)
}

func (b *trackedBody) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closed = true
	return nil
}

// Expected requests.

func startX(meta []byte, size int64) exchange {
	x := exchange{
		method: http.MethodPost,
		url:    testBase + "&uploadType=resumable",
		header: map[string]string{
			"X-Upload-Content-Type":   testType,
			"X-Upload-Content-Length": strconv.FormatInt(size, 10),
		},
		length: int64(len(meta)),
		body:   meta,
	}
	if meta != nil {
		x.header["Content-Type"] = "application/json; charset=UTF-8"
	}
	return x.answer(http.StatusOK, "Location", testSession)
}

func putX(file []byte, first, n int64) exchange {
	return exchange{
		method: http.MethodPut,
		url:    testSession,
		header: map[string]string{
			"Content-Range": ContentRange{First: first, Length: n, Total: int64(len(file))}.String(),
			"Content-Type":  testType,
		},
		length: n,
		body:   file[first : first+n],
	}
}

func statusX(size int64) exchange {
	return exchange{
		method: http.MethodPut,
		url:    testSession,
		header: map[string]string{"Content-Range": fmt.Sprintf("bytes */%d", size)},
	}
}

func mediaX(file []byte) exchange {
	return exchange{
		method: http.MethodPost,
		url:    testBase + "&uploadType=media",
		header: map[string]string{"Content-Type": testType},
		length: int64(len(file)),
		body:   file,
	}
}

// Test doubles.

// memFile is a Source in memory; check, when set, is its Checker.
type memFile struct {
	data  []byte
	check func() error
}

func (f *memFile) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(f.data).ReadAt(p, off)
}
func (f *memFile) Size() int64 { return int64(len(f.data)) }

type checkedFile struct {
	*memFile
}

func (f checkedFile) Check() error { return f.check() }

// shrunkFile claims a size its bytes do not have.
type shrunkFile struct {
	data []byte
	size int64
}

func (f *shrunkFile) ReadAt(p []byte, off int64) (int, error) {
	return bytes.NewReader(f.data).ReadAt(p, off)
}
func (f *shrunkFile) Size() int64 { return f.size }

func testFile(n int) []byte {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func newClock() *testclock.Clock {
	return testclock.At(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
}

// draws is a Rand for ExponentialBackoff that plays fixed numbers and
// records each draw.
type draws struct {
	mu    sync.Mutex
	plays []int64
	got   []int64
}

func (d *draws) draw(n int64) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	v := int64(len(d.got)*37+11) % n
	if len(d.got) < len(d.plays) {
		v = d.plays[len(d.got)]
	}
	d.got = append(d.got, v)
	return v
}

// recorder is an Observer that checks the promises made to observers.
type recorder struct {
	mu        sync.Mutex
	size      int64
	resumable bool
	events    []string
	sessions  []Session
	sentMax   int64
	committed int64
	restarts  []error
	retries   []retryEvent
	fellBack  []string
	doubts    []time.Time // what Doubt heard, in order
	problems  []string
	// refuseNotes: what the next calls of Doubt with a time return, in turn.
	refuseNotes []error
}

type retryEvent struct {
	attempt int
	wait    time.Duration
	cause   error
}

func newRecorder(t *testing.T, size int64, resumable bool) *recorder {
	r := &recorder{size: size, resumable: resumable, committed: -1}
	t.Cleanup(func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		for _, p := range r.problems {
			t.Error("observer: " + p)
		}
	})
	return r
}

func (r *recorder) SessionStarted(s Session) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sessions = append(r.sessions, s)
	r.events = append(r.events, "started")
}

func (r *recorder) Sent(off int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.resumable && len(r.sessions) == 0 {
		r.problems = append(r.problems, "bytes sent before the session was known")
	}
	if off < 0 || off > r.size {
		r.problems = append(r.problems, fmt.Sprintf("Sent(%d) outside the file", off))
	}
	r.sentMax = max(r.sentMax, off)
}

func (r *recorder) Committed(off int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if off < r.committed {
		r.problems = append(r.problems, fmt.Sprintf("Committed went back from %d to %d without a restart", r.committed, off))
	}
	if off > r.size {
		r.problems = append(r.problems, fmt.Sprintf("Committed(%d) past the file", off))
	}
	r.committed = off
	r.events = append(r.events, fmt.Sprintf("committed %d", off))
}

func (r *recorder) Restarted(reason error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.restarts = append(r.restarts, reason)
	r.committed = -1
	r.events = append(r.events, "restarted")
}

func (r *recorder) Retrying(attempt int, wait time.Duration, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cause == nil {
		r.problems = append(r.problems, "Retrying without a cause")
	} else if strings.Contains(cause.Error(), "SECRETxyz987") {
		r.problems = append(r.problems, "a retry cause shows the session: "+cause.Error())
	}
	r.retries = append(r.retries, retryEvent{attempt, wait, cause})
	r.events = append(r.events, fmt.Sprintf("retrying %d", attempt))
}

func (r *recorder) FellBack(from, to Method, cause error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fellBack = append(r.fellBack, string(from)+"→"+string(to))
	r.events = append(r.events, "fellback")
}

func (r *recorder) Doubt(sent time.Time) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !sent.IsZero() && len(r.refuseNotes) > 0 {
		err := r.refuseNotes[0]
		r.refuseNotes = r.refuseNotes[1:]
		if err != nil {
			r.events = append(r.events, "not noted")
			return err
		}
	}
	r.doubts = append(r.doubts, sent)
	if sent.IsZero() {
		r.events = append(r.events, "settled")
	} else {
		r.events = append(r.events, "doubt")
	}
	return nil
}

// doubt is the last time Doubt heard: zero when settled.
func (r *recorder) doubt() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.doubts) == 0 {
		return time.Time{}
	}
	return r.doubts[len(r.doubts)-1]
}

func (r *recorder) lastCommitted() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.committed
}

// harness wires an Uploader to a script, a fake clock and recorded draws.
type harness struct {
	up    *Uploader
	clock *testclock.Clock
	draws *draws
	s     *script
}

func newHarness(t *testing.T, steps ...exchange) *harness {
	h := &harness{clock: newClock(), draws: &draws{}, s: newScript(t, steps...)}
	h.up = &Uploader{
		Client:       &http.Client{Transport: h.s},
		Clock:        h.clock,
		Backoff:      ExponentialBackoff{Rand: h.draws.draw},
		StallTimeout: 10 * time.Second,
	}
	return h
}

// checkErrText fails when an error shows the session URI or its upload_id.
func checkErrText(t *testing.T, err error) {
	t.Helper()
	if err != nil && (strings.Contains(err.Error(), "SECRETxyz987") || strings.Contains(err.Error(), "upload_id")) {
		t.Errorf("error shows the session: %v", err)
	}
}

var _ Source = (*memFile)(nil)
var _ Checker = checkedFile{}
