package emulator

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"hoist/internal/testclock"
)

// harness is an emulator on loopback and a raw HTTP client for it.
type harness struct {
	t      testing.TB
	srv    *Server
	ts     *httptest.Server
	client *http.Client
}

func newHarness(t testing.TB, opts Options) *harness {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv)
	tr := http.DefaultTransport.(*http.Transport).Clone()
	h := &harness{t: t, srv: srv, ts: ts, client: &http.Client{Transport: tr}}
	t.Cleanup(func() {
		tr.CloseIdleConnections()
		_ = srv.Close() // first: it ends stalls, which ts.Close waits for
		ts.Close()
	})
	return h
}

// hdr builds headers from name, value pairs.
func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// url makes a URL on the test server from a path with query, unless it is absolute.
func (h *harness) url(p string) string {
	if strings.HasPrefix(p, "http://") || strings.HasPrefix(p, "https://") {
		return p
	}
	return h.ts.URL + p
}

// do sends one request and returns the answer with its body read.
func (h *harness) do(method, target string, header http.Header, body []byte) (*http.Response, []byte) {
	h.t.Helper()
	resp, b, err := h.try(method, target, header, body)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, target, err)
	}
	return resp, b
}

func (h *harness) try(method, target string, header http.Header, body []byte) (*http.Response, []byte, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, h.url(target), rd)
	if err != nil {
		return nil, nil, err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// start opens a resumable session and returns its URI.
func (h *harness) start(method, path string, header http.Header, meta string) string {
	h.t.Helper()
	if header == nil {
		header = http.Header{}
	}
	var body []byte
	if meta != "" {
		body = []byte(meta)
		header.Set("Content-Type", "application/json; charset=UTF-8")
	}
	resp, b := h.do(method, path, header, body)
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("session start: %d %s", resp.StatusCode, b)
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		h.t.Fatal("session start: no Location")
	}
	return loc
}

// chunk sends bytes [first, first+len(data)) of a total-byte file to a session.
func (h *harness) chunk(session string, data []byte, first, total int64) (*http.Response, []byte) {
	h.t.Helper()
	tot := "*"
	if total >= 0 {
		tot = fmt.Sprint(total)
	}
	cr := fmt.Sprintf("bytes %d-%d/%s", first, first+int64(len(data))-1, tot)
	return h.do(http.MethodPut, session, hdr("Content-Range", cr), data)
}

// status asks where a session stands.
func (h *harness) status(session string, total int64) (*http.Response, []byte) {
	h.t.Helper()
	tot := "*"
	if total >= 0 {
		tot = fmt.Sprint(total)
	}
	return h.do(http.MethodPut, session, hdr("Content-Range", "bytes */"+tot), nil)
}

// waitRequests waits until the server has finished n requests under /upload/.
func (h *harness) waitRequests(n int) []Request {
	h.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		reqs := h.srv.Requests()
		if len(reqs) >= n {
			return reqs
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("server finished %d requests, want %d", len(reqs), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// payload is deterministic pseudo-random bytes.
func payload(n int, seed uint64) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), 7}).Read(b)
	return b
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// wantRange checks a 308 answer's Range header; persisted 0 means no header.
func wantRange(t *testing.T, resp *http.Response, persisted int64) {
	t.Helper()
	got := resp.Header.Get("Range")
	want := ""
	if persisted > 0 {
		want = fmt.Sprintf("bytes=0-%d", persisted-1)
	}
	if got != want {
		t.Fatalf("Range = %q, want %q", got, want)
	}
}

func wantStatus(t *testing.T, resp *http.Response, body []byte, status int) {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", resp.StatusCode, status, body)
	}
}

// googleError is Google's JSON error body.
type googleError struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Errors  []struct {
			Message string `json:"message"`
			Domain  string `json:"domain"`
			Reason  string `json:"reason"`
		} `json:"errors"`
		Status string `json:"status"`
	} `json:"error"`
}

// wantError checks a Google JSON error and that its message contains substr.
func wantError(t *testing.T, resp *http.Response, body []byte, status int, substr string) googleError {
	t.Helper()
	wantStatus(t, resp, body, status)
	var e googleError
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, body)
	}
	if e.Error.Code != status || len(e.Error.Errors) != 1 || e.Error.Errors[0].Domain != "global" ||
		e.Error.Errors[0].Reason == "" || e.Error.Errors[0].Message != e.Error.Message {
		t.Fatalf("error body not shaped like Google's: %s", body)
	}
	if !strings.Contains(e.Error.Message, substr) {
		t.Fatalf("error message %q does not contain %q", e.Error.Message, substr)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("error Content-Type = %q", ct)
	}
	return e
}

func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("answer is not a JSON object: %v: %s", err, body)
	}
	return m
}

// objectBytes reads an object back from the server.
func objectBytes(t *testing.T, srv *Server, id string) []byte {
	t.Helper()
	rc, err := srv.Open(id)
	if err != nil {
		t.Fatalf("Open(%s): %v", id, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read object: %v", err)
	}
	return b
}

// onlyObject returns the single object the server holds.
func onlyObject(t *testing.T, srv *Server) Object {
	t.Helper()
	objs := srv.Objects()
	if len(objs) != 1 {
		t.Fatalf("server holds %d objects, want 1", len(objs))
	}
	return objs[0]
}

func newFakeClock() *testclock.Clock {
	return testclock.At(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
}

// withQuery adds query parameters to a path.
func withQuery(p string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	sep := "?"
	if strings.Contains(p, "?") {
		sep = "&"
	}
	return p + sep + q.Encode()
}

// multipartBody builds a multipart/related body from parts of (headers, body).
func multipartBody(boundary string, parts ...[2]string) []byte {
	var b bytes.Buffer
	for _, p := range parts {
		fmt.Fprintf(&b, "--%s\r\n%s\r\n\r\n%s\r\n", boundary, p[0], p[1])
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}

const kib = 1 << 10

// readResponse reads an answer from a raw connection; nil when the server
// closed it without answering.
func readResponse(t *testing.T, conn net.Conn) (*http.Response, []byte) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second)) // a hung server fails the test instead of hanging it
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return nil, nil
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func decodeInto(t *testing.T, body []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(body, v); err != nil {
		t.Fatalf("answer does not decode: %v: %s", err, body)
	}
}
