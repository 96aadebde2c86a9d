package upload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

const okJSON = `{"id":"obj-1"}`

func TestMedia(t *testing.T) {
	file := testFile(1000)
	h := newHarness(t, mediaX(file).answer(http.StatusOK, "Content-Type", "application/json").withBody(okJSON))
	obs := newRecorder(t, int64(len(file)), false)
	res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Auto, nil, obs)
	if err != nil {
		t.Fatal(err)
	}
	if res.Method != Media || res.Status != http.StatusOK || string(res.Body) != okJSON {
		t.Errorf("result = %+v", res)
	}
	if obs.lastCommitted() != int64(len(file)) || obs.sentMax != int64(len(file)) {
		t.Errorf("committed %d, sent %d", obs.lastCommitted(), obs.sentMax)
	}
}

func TestMediaWithPUT(t *testing.T) {
	file := testFile(10)
	x := mediaX(file).answer(http.StatusOK).withBody(okJSON)
	x.method = http.MethodPut
	h := newHarness(t, x)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, HTTPMethod: http.MethodPut, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
}

// multipartX expects the request multipartTransport hands on after it has
// checked the multipart body itself.
func multipartX() exchange {
	return exchange{
		method: http.MethodPost,
		url:    testBase + "&uploadType=multipart",
		header: map[string]string{},
	}
}

// checkMultipart parses body as multipart/related (with boundary, or the one
// found in the body when boundary is "") and compares its two parts.
func checkMultipart(t *testing.T, body []byte, boundary string, meta, file []byte) {
	t.Helper()
	if boundary == "" {
		line, _, _ := bytes.Cut(body, []byte("\r\n"))
		boundary = strings.TrimPrefix(string(line), "--")
	}
	if !bytes.HasSuffix(body, []byte("\r\n--"+boundary+"--\r\n")) {
		t.Errorf("multipart body does not end with the closing boundary")
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var parts [][]byte
	var types []string
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("multipart: %v", err)
		}
		b, err := io.ReadAll(p)
		if err != nil {
			t.Fatalf("multipart part: %v", err)
		}
		parts = append(parts, b)
		types = append(types, p.Header.Get("Content-Type"))
	}
	if len(parts) != 2 {
		t.Fatalf("multipart has %d parts, want 2", len(parts))
	}
	if types[0] != "application/json; charset=UTF-8" || types[1] != testType {
		t.Errorf("part types %q", types)
	}
	if !bytes.Equal(parts[0], meta) {
		t.Errorf("metadata part %q, want %q", parts[0], meta)
	}
	if !bytes.Equal(parts[1], file) {
		t.Errorf("media part differs (%d bytes, want %d)", len(parts[1]), len(file))
	}
}

// multipartTransport checks the top-level headers of a multipart request
// before the script sees it.
type multipartTransport struct {
	t    *testing.T
	next http.RoundTripper
	meta []byte
	file []byte
}

func (m multipartTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if strings.Contains(req.URL.RawQuery, "uploadType=multipart") {
		mt, params, err := mime.ParseMediaType(req.Header.Get("Content-Type"))
		if err != nil || mt != "multipart/related" || params["boundary"] == "" {
			m.t.Errorf("multipart Content-Type %q", req.Header.Get("Content-Type"))
		}
		body, _ := io.ReadAll(req.Body)
		req.Body.Close()
		if int64(len(body)) != req.ContentLength {
			m.t.Errorf("multipart body %d bytes, Content-Length %d", len(body), req.ContentLength)
		}
		if bytes.Contains(m.meta, []byte(params["boundary"])) {
			m.t.Errorf("boundary occurs in the metadata")
		}
		checkMultipart(m.t, body, params["boundary"], m.meta, m.file)
		for k := range req.Header {
			if k != "Content-Type" {
				m.t.Errorf("unexpected header %s", k)
			}
		}
		// The script matches the rest: method, URL and the answer.
		req = req.Clone(req.Context())
		req.Header.Del("Content-Type")
		req.Body, req.ContentLength = nil, 0
	}
	return m.next.RoundTrip(req)
}

func TestMultipart(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta []byte
		size int
	}{
		{"small", []byte(`{"name":"Llama"}`), 1000},
		{"empty file", []byte(`{"name":"empty"}`), 0},
		{"metadata with dashes", []byte(`{"name":"--hoist_ --"}`), 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := testFile(tc.size)
			x := multipartX().answer(http.StatusOK).withBody(okJSON)
			h := newHarness(t, x)
			h.up.Client.Transport = multipartTransport{t: t, next: h.s, meta: tc.meta, file: file}
			obs := newRecorder(t, int64(len(file)), false)
			res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Metadata: tc.meta}, &memFile{data: file}, Auto, nil, obs)
			if err != nil {
				t.Fatal(err)
			}
			if res.Method != Multipart || string(res.Body) != okJSON {
				t.Errorf("result = %+v", res)
			}
		})
	}
}

func TestMultipartWithoutMetadataSendsEmptyObject(t *testing.T) {
	file := testFile(50)
	x := multipartX().answer(http.StatusOK).withBody(okJSON)
	h := newHarness(t, x)
	h.up.Client.Transport = multipartTransport{t: t, next: h.s, meta: []byte("{}"), file: file}
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Multipart, nil, nil); err != nil {
		t.Fatal(err)
	}
}

func TestResumableWholeFile(t *testing.T) {
	meta := []byte(`{"name":"Llama"}`)
	for _, tc := range []struct {
		name   string
		meta   []byte
		method string
		final  int
	}{
		{"metadata, POST", meta, http.MethodPost, http.StatusCreated},
		{"no metadata, POST", nil, http.MethodPost, http.StatusCreated},
		{"PUT update", meta, http.MethodPut, http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := testFile(300_000)
			start := startX(tc.meta, int64(len(file)))
			start.method = tc.method
			h := newHarness(t, start, putX(file, 0, int64(len(file))).answer(tc.final).withBody(okJSON))
			obs := newRecorder(t, int64(len(file)), true)
			target := Target{URL: testBase, HTTPMethod: tc.method, ContentType: testType, Metadata: tc.meta}
			res, err := h.up.Upload(context.Background(), target, &memFile{data: file}, Resumable, nil, obs)
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != tc.final || res.Method != Resumable || string(res.Body) != okJSON {
				t.Errorf("result = %+v", res)
			}
			if len(obs.sessions) != 1 || obs.sessions[0].URI != testSession || !obs.sessions[0].Started.Equal(h.clock.Now()) {
				t.Errorf("sessions = %+v", obs.sessions)
			}
			if obs.events[0] != "started" {
				t.Errorf("events = %v", obs.events)
			}
		})
	}
}

// server is the object the scripted server would hold; it lets a chunk test
// check that what was persisted adds up to the file.
type object struct {
	data []byte
}

// persist applies a chunk answered with Range next.
func (o *object) persist(file []byte, first, n, next int64) {
	if int64(len(o.data)) < first {
		panic("gap")
	}
	o.data = append(o.data[:first], file[first:first+n]...)
	o.data = o.data[:next]
}

func TestChunksServerKeepsLess(t *testing.T) {
	const k = ChunkAlign
	file := testFile(3*k + 100)
	size := int64(len(file))
	var obj object
	type chunk struct {
		first, n, next int64
		rng            string
	}
	chunks := []chunk{
		{0, k, 100_000, "bytes=0-99999"},          // kept less than sent
		{100_000, k, 100_000 + k, "0-362143"},     // plain form
		{100_000 + k, k, 2 * k, "bytes=0-524287"}, // kept less again
		{2 * k, k, 3 * k, "bytes=0-786431"},
		{3 * k, 100, size, ""},
	}
	steps := []exchange{startX(nil, size)}
	for i, c := range chunks {
		x := putX(file, c.first, c.n)
		if i == len(chunks)-1 {
			x = x.answer(http.StatusCreated).withBody(okJSON)
		} else {
			x = x.answer(StatusResumeIncomplete, "Range", c.rng)
		}
		steps = append(steps, x)
		obj.persist(file, c.first, c.n, c.next)
	}
	h := newHarness(t, steps...)
	h.up.ChunkSize = k
	obs := newRecorder(t, size, true)
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(obj.data, file) {
		t.Error("the persisted object is not the file")
	}
	want := []string{"started", "committed 100000", "committed 362144", "committed 524288", "committed 786432", fmt.Sprintf("committed %d", size)}
	if fmt.Sprint(obs.events) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", obs.events, want)
	}
	if len(h.clock.Slept()) != 0 {
		t.Errorf("waited %v between healthy chunks", h.clock.Slept())
	}
}

func TestChunkSizeRounding(t *testing.T) {
	for _, tc := range []struct {
		set, want int64
	}{
		{0, 0}, {1, ChunkAlign}, {ChunkAlign + 1, ChunkAlign}, {3*ChunkAlign - 1, 2 * ChunkAlign}, {8 << 20, 8 << 20},
	} {
		r, err := (&Uploader{ChunkSize: tc.set}).newRun(Target{URL: testBase}, &memFile{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.chunks.size != tc.want || r.chunks.auto {
			t.Errorf("ChunkSize %d → %d, want %d", tc.set, r.chunks.size, tc.want)
		}
	}
	_, err := (&Uploader{ChunkSize: -2}).Upload(context.Background(), Target{URL: testBase}, &memFile{}, Auto, nil, nil)
	if !errors.Is(err, ErrInvalid) || Retryable(err) {
		t.Errorf("negative chunk size: %v", err)
	}
}

func TestInvalidRequests(t *testing.T) {
	for _, tc := range []struct {
		name string
		t    Target
		src  Source
		m    Method
	}{
		{"relative URL", Target{URL: "/upload/x"}, &memFile{}, Auto},
		{"ftp URL", Target{URL: "ftp://up.test/x"}, &memFile{}, Auto},
		{"header injection", Target{URL: testBase, ContentType: "image/png\r\nX-Evil: 1"}, &memFile{}, Auto},
		{"not a media type", Target{URL: testBase, ContentType: "png"}, &memFile{}, Auto},
		{"bad method", Target{URL: testBase, HTTPMethod: "DELETE"}, &memFile{}, Auto},
		{"unknown type", Target{URL: testBase}, &memFile{}, Method("ftp")},
		{"no file", Target{URL: testBase}, nil, Auto},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			_, err := h.up.Upload(context.Background(), tc.t, tc.src, tc.m, nil, nil)
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("err = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestAutoChoosesMethod(t *testing.T) {
	for _, tc := range []struct {
		size int64
		meta []byte
		want Method
	}{
		{0, nil, Media},
		{DefaultThreshold - 1, nil, Media},
		{DefaultThreshold - 1, []byte("{}"), Multipart},
		{DefaultThreshold, nil, Resumable},
		{DefaultThreshold, []byte("{}"), Resumable},
	} {
		r, err := (&Uploader{}).newRun(Target{URL: testBase, Metadata: tc.meta}, &shrunkFile{size: tc.size}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := r.choose(Auto); got != tc.want {
			t.Errorf("size %d meta %v: %s, want %s", tc.size, tc.meta != nil, got, tc.want)
		}
	}
	r, _ := (&Uploader{Threshold: 10}).newRun(Target{URL: testBase}, &shrunkFile{size: 10}, nil)
	if got, _ := r.choose(Auto); got != Resumable {
		t.Errorf("threshold 10, size 10: %s", got)
	}
}

func TestUploadTypeKeepsQuery(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"https://h/upload/x", "https://h/upload/x?uploadType=media"},
		{"https://h/upload/x?alt=json&fields=id%2Cname", "https://h/upload/x?alt=json&fields=id%2Cname&uploadType=media"},
		{"https://h/upload/x?uploadType=resumable&a=1", "https://h/upload/x?a=1&uploadType=media"},
	} {
		r, err := (&Uploader{}).newRun(Target{URL: tc.in}, &memFile{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.withUploadType("media"); got != tc.want {
			t.Errorf("%s → %s, want %s", tc.in, got, tc.want)
		}
	}
}

func Test308WithoutRange(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	h := newHarness(t,
		startX(nil, size),
		putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete), // nothing persisted
		putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
		putX(file, ChunkAlign, ChunkAlign).answer(http.StatusCreated).withBody(okJSON),
	)
	h.up.ChunkSize = ChunkAlign
	obs := newRecorder(t, size, true)
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.retries) != 1 || !errors.Is(obs.retries[0].cause, errNoProgress) {
		t.Errorf("retries = %+v", obs.retries)
	}
}

func TestStatusCodeOverride(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	h := newHarness(t,
		startX(nil, size),
		putX(file, 0, ChunkAlign).answer(http.StatusOK, "X-Http-Status-Code-Override", "308", "Range", "bytes=0-262143"),
		putX(file, ChunkAlign, ChunkAlign).answer(http.StatusOK).withBody(okJSON),
	)
	h.up.ChunkSize = ChunkAlign
	res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, nil)
	if err != nil || string(res.Body) != okJSON {
		t.Fatalf("res %+v, err %v", res, err)
	}
}

func TestStatusQueryAnsweredDone(t *testing.T) {
	file := testFile(ChunkAlign * 2)
	size := int64(len(file))
	t.Run("on resume", func(t *testing.T) {
		h := newHarness(t, statusX(size).answer(http.StatusCreated).withBody(okJSON))
		obs := newRecorder(t, size, false)
		resume := &Session{URI: testSession, Started: h.clock.Now().Add(-time.Hour)}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Auto, resume, obs)
		if err != nil || res.Status != http.StatusCreated || string(res.Body) != okJSON || res.Method != Resumable {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if obs.lastCommitted() != size || len(obs.sessions) != 0 {
			t.Errorf("committed %d, sessions %v", obs.lastCommitted(), obs.sessions)
		}
	})
	t.Run("after the last chunk's answer was lost", func(t *testing.T) {
		h := newHarness(t,
			startX(nil, size),
			putX(file, 0, size).fail(-1, io.ErrUnexpectedEOF),
			statusX(size).answer(http.StatusCreated).withBody(okJSON),
		)
		obs := newRecorder(t, size, true)
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs)
		if err != nil || string(res.Body) != okJSON {
			t.Fatalf("res %+v, err %v", res, err)
		}
		if len(obs.retries) != 1 {
			t.Errorf("retries %v", obs.retries)
		}
	})
}

func TestResumeContinuesFromServer(t *testing.T) {
	file := testFile(3 * ChunkAlign)
	size := int64(len(file))
	h := newHarness(t,
		statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
		putX(file, ChunkAlign, 2*ChunkAlign).answer(http.StatusCreated).withBody(okJSON),
	)
	obs := newRecorder(t, size, false)
	resume := &Session{URI: testSession, Started: h.clock.Now().Add(-6 * 24 * time.Hour)}
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, resume, obs); err != nil {
		t.Fatal(err)
	}
	if obs.events[0] != "committed 262144" {
		t.Errorf("events %v", obs.events)
	}
}

// backoffShape checks that waits are 2^n s plus the drawn milliseconds.
func backoffShape(t *testing.T, waits []time.Duration, d *draws) {
	t.Helper()
	if len(d.got) < len(waits) {
		t.Fatalf("%d waits but only %d draws: the random part was not redrawn", len(waits), len(d.got))
	}
	for n, w := range waits {
		want := time.Duration(1<<n)*time.Second + time.Duration(d.got[n])*time.Millisecond
		if w != want {
			t.Errorf("wait %d = %v, want %v", n, w, want)
		}
		if w < time.Duration(1<<n)*time.Second || w > time.Duration(1<<n)*time.Second+time.Second {
			t.Errorf("wait %d = %v is not 2^%d s + up to 1000 ms", n, w, n)
		}
	}
}

func Test503ThenSuccess(t *testing.T) {
	file := testFile(1000)
	size := int64(len(file))
	unavailable := `{"error":{"code":503,"message":"Backend Error","errors":[{"reason":"backendError"}]}}`
	h := newHarness(t,
		startX(nil, size).answer(http.StatusServiceUnavailable).withBody(unavailable),
		startX(nil, size).answer(http.StatusServiceUnavailable).withBody(unavailable),
		startX(nil, size),
		putX(file, 0, size).answer(http.StatusServiceUnavailable).withBody(unavailable),
		statusX(size).answer(http.StatusInternalServerError),
		statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-99"),
		putX(file, 100, size-100).answer(http.StatusBadGateway),
		statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-99"),
		putX(file, 100, size-100).answer(http.StatusCreated).withBody(okJSON),
	)
	h.draws.plays = []int64{17, 1000, 0, 512, 3}
	obs := newRecorder(t, size, true)
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
		t.Fatal(err)
	}
	waits := h.clock.Slept()
	// n resets when the server confirms new bytes (Range 0-99).
	backoffShape(t, waits[:4], h.draws)
	if len(waits) != 5 || waits[4] != time.Second+time.Duration(h.draws.got[4])*time.Millisecond {
		t.Errorf("waits %v", waits)
	}
	if len(obs.retries) != 5 || obs.retries[0].wait != waits[0] || obs.retries[3].attempt != 4 || obs.retries[4].attempt != 1 {
		t.Errorf("retries %+v", obs.retries)
	}
	var api *APIError
	if !errors.As(obs.retries[0].cause, &api) || api.Reason != "backendError" {
		t.Errorf("retry cause %v", obs.retries[0].cause)
	}
}

func TestDefaultBackoffShape(t *testing.T) {
	b := ExponentialBackoff{}
	seen := map[time.Duration]bool{}
	for n := 0; n < 8; n++ {
		for range 20 {
			w := b.Wait(n)
			base := min(time.Duration(1<<n)*time.Second, DefaultMaxWait)
			if w < base || w > base+time.Second || w > DefaultMaxWait {
				t.Fatalf("Wait(%d) = %v", n, w)
			}
			if w%time.Millisecond != 0 {
				t.Fatalf("Wait(%d) = %v is not whole milliseconds", n, w)
			}
			seen[w] = true
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d distinct waits: the random part is not redrawn", len(seen))
	}
	if w := (ExponentialBackoff{Max: 10 * time.Second}).Wait(5); w > 10*time.Second {
		t.Errorf("Max not kept: %v", w)
	}
}

func TestTooManyRetries(t *testing.T) {
	file := testFile(100)
	var steps []exchange
	for range 6 {
		steps = append(steps, startX(nil, 100).answer(http.StatusServiceUnavailable))
	}
	h := newHarness(t, steps...)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, nil)
	var api *APIError
	if !errors.Is(err, ErrTooManyRetries) || !errors.As(err, &api) || api.Status != http.StatusServiceUnavailable || !Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	waits := h.clock.Slept()
	if len(waits) != 5 {
		t.Fatalf("%d waits, want 5", len(waits))
	}
	backoffShape(t, waits, h.draws)
	var total time.Duration
	for _, w := range waits {
		total += w
	}
	if total < 31*time.Second || total > 36*time.Second {
		t.Errorf("total wait %v, want about 32 s", total)
	}
}

func TestRetryAfter(t *testing.T) {
	file := testFile(100)
	clock := newClock()
	date := clock.Now().Add(42 * time.Second).Format(http.TimeFormat)
	for _, tc := range []struct {
		name   string
		status int
		value  string
		want   time.Duration
	}{
		{"503 seconds", http.StatusServiceUnavailable, "7", 7 * time.Second},
		{"429 seconds", http.StatusTooManyRequests, "3", 3 * time.Second},
		{"429 date", http.StatusTooManyRequests, date, 42 * time.Second},
		{"503 date in the past", http.StatusServiceUnavailable, clock.Now().Add(-time.Hour).Format(http.TimeFormat), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t,
				mediaX(file).answer(tc.status, "Retry-After", tc.value),
				mediaX(file).answer(http.StatusOK).withBody(okJSON),
			)
			// Repeatable: the 503 comes after the whole body, and only an
			// upload that makes no second copy is sent again at once.
			if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Repeatable: true}, &memFile{data: file}, Media, nil, nil); err != nil {
				t.Fatal(err)
			}
			if w := h.clock.Slept(); len(w) != 1 || w[0] != tc.want {
				t.Errorf("waits %v, want [%v]", w, tc.want)
			}
		})
	}
}

func TestSessionGoneRestarts(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusGone} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			file := testFile(2 * ChunkAlign)
			size := int64(len(file))
			h := newHarness(t,
				startX(nil, size),
				putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
				putX(file, ChunkAlign, ChunkAlign).answer(status).withBody(`{"error":{"code":404,"message":"Not Found"}}`),
				startX(nil, size),
				putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
				putX(file, ChunkAlign, ChunkAlign).answer(http.StatusCreated).withBody(okJSON),
			)
			h.up.ChunkSize = ChunkAlign
			obs := newRecorder(t, size, true)
			if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
				t.Fatal(err)
			}
			if len(obs.restarts) != 1 || !errors.Is(obs.restarts[0], ErrSessionExpired) || len(obs.sessions) != 2 {
				t.Errorf("restarts %v, sessions %d", obs.restarts, len(obs.sessions))
			}
			want := "[started committed 262144 restarted started committed 262144 committed 524288]"
			if fmt.Sprint(obs.events) != want {
				t.Errorf("events %v", obs.events)
			}
		})
	}
}

func TestRestartsAreBounded(t *testing.T) {
	file := testFile(100)
	steps := []exchange{}
	for range MaxRestarts + 1 {
		steps = append(steps, startX(nil, 100), putX(file, 0, 100).answer(http.StatusGone))
	}
	h := newHarness(t, steps...)
	obs := newRecorder(t, 100, true)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs)
	if !errors.Is(err, ErrTooManyRetries) || !errors.Is(err, ErrSessionExpired) {
		t.Fatalf("err = %v", err)
	}
	if len(obs.restarts) != MaxRestarts {
		t.Errorf("%d restarts", len(obs.restarts))
	}
	checkErrText(t, err)
}

func TestExpiredSessionOnResume(t *testing.T) {
	file := testFile(100)
	h := newHarness(t, startX(nil, 100), putX(file, 0, 100).answer(http.StatusCreated).withBody(okJSON))
	obs := newRecorder(t, 100, true)
	old := &Session{URI: "https://up.test/upload/old?upload_id=OLD", Started: h.clock.Now().Add(-8 * 24 * time.Hour)}
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, old, obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.restarts) != 1 || !errors.Is(obs.restarts[0], ErrSessionExpired) {
		t.Errorf("restarts %v", obs.restarts)
	}
	if strings.Contains(obs.restarts[0].Error(), "OLD") {
		t.Errorf("restart reason shows the session: %v", obs.restarts[0])
	}
}

func TestAPIErrorNotRetried(t *testing.T) {
	file := testFile(100)
	body := `{"error":{"code":400,"message":"Media type 'image/png' is not supported.","errors":[{"message":"x","domain":"global","reason":"badContent"}],"status":"INVALID_ARGUMENT"}}`
	for _, m := range []Method{Media, Resumable} {
		t.Run(string(m), func(t *testing.T) {
			x := mediaX(file)
			if m == Resumable {
				x = startX(nil, 100)
			}
			h := newHarness(t, x.answer(http.StatusBadRequest, "Content-Type", "application/json").withBody(body))
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, m, nil, nil)
			var api *APIError
			if !errors.As(err, &api) {
				t.Fatalf("err = %v", err)
			}
			if api.Status != 400 || api.Code != 400 || api.Reason != "badContent" || api.Message != "Media type 'image/png' is not supported." || string(api.Body) != body {
				t.Errorf("api = %+v", api)
			}
			if !strings.Contains(err.Error(), "Media type 'image/png' is not supported.") || Retryable(err) || errors.Is(err, ErrBadResponse) {
				t.Errorf("err = %v", err)
			}
			if len(h.clock.Slept()) != 0 {
				t.Error("waited before failing")
			}
		})
	}
}

func TestTooManyRequestsBounded(t *testing.T) {
	file := testFile(100)
	var steps []exchange
	for range 11 {
		steps = append(steps, mediaX(file).answer(http.StatusTooManyRequests).withBody(`{"error":{"code":429,"message":"Rate Limit Exceeded","errors":[{"reason":"rateLimitExceeded"}]}}`))
	}
	h := newHarness(t, steps...)
	obs := newRecorder(t, 100, false)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, obs)
	var api *APIError
	if !errors.Is(err, ErrTooManyRetries) || !errors.As(err, &api) || api.Reason != "rateLimitExceeded" {
		t.Fatalf("err = %v", err)
	}
	if len(obs.retries) != DefaultMaxOtherRetries {
		t.Errorf("%d retries, want %d", len(obs.retries), DefaultMaxOtherRetries)
	}
	backoffShape(t, h.clock.Slept()[:6], h.draws)
}

func TestRequestTimeoutRetriedWithoutBackoff(t *testing.T) {
	file := testFile(100)
	h := newHarness(t, mediaX(file).answer(http.StatusRequestTimeout), mediaX(file).answer(http.StatusOK).withBody(okJSON))
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil); err != nil {
		t.Fatal(err)
	}
	if w := h.clock.Slept(); len(w) != 1 || w[0] != 0 {
		t.Errorf("waits %v", w)
	}
}

func TestHTMLErrorPage(t *testing.T) {
	file := testFile(100)
	page := "<!DOCTYPE html><html><head><title>Error 400 (Bad Request)!!1</title></head><body><p>Your client has issued a malformed or illegal request.</p></body></html>"
	t.Run("400 fails at once", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusBadRequest, "Content-Type", "text/html; charset=UTF-8").withBody(page))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
		var api *APIError
		if !errors.Is(err, ErrBadResponse) || !errors.As(err, &api) || api.Status != 400 || api.Body != nil {
			t.Fatalf("err = %v", err)
		}
		if strings.Contains(err.Error(), "<") || strings.Contains(err.Error(), "html") || len(err.Error()) > 200 {
			t.Errorf("error shows the page: %q", err)
		}
	})
	t.Run("502 after the body is a lost answer", func(t *testing.T) {
		// A front end may have passed the request on: not sent again blindly.
		h := newHarness(t, mediaX(file).answer(http.StatusBadGateway, "Content-Type", "text/html").withBody(page))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
		if !errors.Is(err, ErrAnswerLost) || strings.Contains(err.Error(), "<") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("502 after the body is asked about, then sent again", func(t *testing.T) {
		h := newHarness(t,
			mediaX(file).answer(http.StatusBadGateway, "Content-Type", "text/html").withBody(page),
			mediaX(file).answer(http.StatusOK).withBody(okJSON))
		look := &fakeLookup{answers: []lookupAnswer{{found: Found{}}, {found: Found{}}}}
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Lookup: look}, &memFile{data: file}, Media, nil, nil); err != nil {
			t.Fatal(err)
		}
		if look.count() != 2 {
			t.Errorf("%d lookups before sending again, want 2 (at once, and after the settle time)", look.count())
		}
	})
}

func TestBadLocation(t *testing.T) {
	file := testFile(100)
	for _, tc := range []struct {
		name     string
		location string
		allowed  string
		want     error
	}{
		{"missing", "", "", ErrBadResponse},
		{"malformed", "https://up.test/%zz?upload_id=SECRETxyz987", "", ErrBadResponse},
		{"relative", "/upload/v1/things?upload_id=SECRETxyz987", "", ErrBadResponse},
		{"not http", "ftp://up.test/x?upload_id=SECRETxyz987", "", ErrBadResponse},
		{"with credentials", "https://user:pw@up.test/x?upload_id=SECRETxyz987", "", ErrBadResponse},
		{"foreign host", "https://evil.test/upload?upload_id=SECRETxyz987", "", ErrForeignHost},
		{"other port", "https://up.test:8443/upload?upload_id=SECRETxyz987", "", ErrForeignHost},
		{"not encrypted", "http://up.test/upload?upload_id=SECRETxyz987", "", ErrForeignHost},
		{"not the allowed host", "https://up.test/upload?upload_id=SECRETxyz987", "uploads.test", ErrForeignHost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, startX(nil, 100).answer(http.StatusOK, "Location", tc.location))
			h.up.AllowedHost = tc.allowed
			obs := newRecorder(t, 100, true)
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			checkErrText(t, err)
			for _, host := range h.s.requestHosts() {
				if host != "up.test" {
					t.Errorf("a request went to %s", host)
				}
			}
			if len(obs.sessions) != 0 {
				t.Errorf("session reported: %v", obs.sessions)
			}
		})
	}
	t.Run("allowed host", func(t *testing.T) {
		other := "https://uploads.test/x?upload_id=SECRETxyz987"
		put := putX(file, 0, 100).answer(http.StatusCreated).withBody(okJSON)
		put.url = other
		h := newHarness(t, startX(nil, 100).answer(http.StatusOK, "Location", other), put)
		h.up.AllowedHost = "uploads.test"
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, nil); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("foreign resume", func(t *testing.T) {
		h := newHarness(t)
		resume := &Session{URI: "https://evil.test/x?upload_id=SECRETxyz987", Started: h.clock.Now()}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, resume, nil)
		if !errors.Is(err, ErrForeignHost) || Retryable(err) {
			t.Fatalf("err = %v", err)
		}
		checkErrText(t, err)
	})
}

func TestUntrustworthyRange(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	for _, rng := range []string{"garbage", "bytes=5-100", "bytes=0-600000", "0-1,5-9", "bytes=0--3", "bytes=0-524287"} {
		t.Run(rng, func(t *testing.T) {
			h := newHarness(t,
				startX(nil, size),
				putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete, "Range", rng),
				statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
				putX(file, ChunkAlign, ChunkAlign).answer(http.StatusCreated).withBody(okJSON),
			)
			h.up.ChunkSize = ChunkAlign
			obs := newRecorder(t, size, true)
			if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
				t.Fatal(err)
			}
			if len(obs.retries) != 1 || !errors.Is(obs.retries[0].cause, ErrBadResponse) {
				t.Errorf("retries %+v", obs.retries)
			}
		})
	}
}

func TestStall(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	stall := putX(file, 0, ChunkAlign)
	stall.stall = true
	h := newHarness(t,
		startX(nil, size),
		stall,
		statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-1023"),
		putX(file, 1024, ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-263167"),
		putX(file, 1024+ChunkAlign, ChunkAlign-1024).answer(http.StatusCreated).withBody(okJSON),
	)
	h.up.ChunkSize = ChunkAlign
	h.up.StallTimeout = 50 * time.Millisecond
	obs := newRecorder(t, size, true)
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.retries) != 1 || !errors.Is(obs.retries[0].cause, ErrStalled) {
		t.Errorf("retries %+v", obs.retries)
	}
	if !Retryable(obs.retries[0].cause) {
		t.Error("a stall is not retryable")
	}
}

func TestStallOfOneRequestUploadAfterFullBody(t *testing.T) {
	file := testFile(100)
	x := mediaX(file)
	x.before = func(req *http.Request) {
		_, _ = io.Copy(io.Discard, req.Body)
		<-req.Context().Done()
	}
	x.stall = true
	h := newHarness(t, x)
	h.up.StallTimeout = 50 * time.Millisecond
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
	if !errors.Is(err, ErrAnswerLost) || !errors.Is(err, ErrStalled) || Retryable(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestCancelMidChunk(t *testing.T) {
	file := testFile(4 * ChunkAlign)
	size := int64(len(file))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cut := putX(file, 0, size)
	cut.before = func(req *http.Request) {
		_, _ = io.CopyN(io.Discard, req.Body, 1000)
		cancel()
		<-req.Context().Done()
	}
	cut.stall = true
	h := newHarness(t, startX(nil, size), cut)
	obs := newRecorder(t, size, true)
	_, err := h.up.Upload(ctx, Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs)
	if !errors.Is(err, context.Canceled) || Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if len(obs.retries) != 0 {
		t.Errorf("retried after cancel: %v", obs.retries)
	}
	if obs.sentMax < 1000 {
		t.Errorf("sent %d", obs.sentMax)
	}
}

func TestCancelDuringWait(t *testing.T) {
	file := testFile(100)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	x := mediaX(file).answer(http.StatusServiceUnavailable)
	x.before = func(*http.Request) { cancel() }
	h := newHarness(t, x)
	_, err := h.up.Upload(ctx, Target{URL: testBase, ContentType: testType, Repeatable: true}, &memFile{data: file}, Media, nil, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestFileChanged(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	t.Run("checker", func(t *testing.T) {
		calls := 0
		src := checkedFile{&memFile{data: file, check: func() error {
			calls++
			if calls > 1 {
				return errors.New("modified at 10:02")
			}
			return nil
		}}}
		h := newHarness(t, startX(nil, size), putX(file, 0, ChunkAlign).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"))
		h.up.ChunkSize = ChunkAlign
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, src, Resumable, nil, nil)
		if !errors.Is(err, ErrFileChanged) || Retryable(err) || !strings.Contains(err.Error(), "modified at 10:02") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("checked before one-request uploads", func(t *testing.T) {
		src := checkedFile{&memFile{data: file, check: func() error { return fmt.Errorf("%w: size", ErrFileChanged) }}}
		h := newHarness(t)
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, src, Media, nil, nil)
		if !errors.Is(err, ErrFileChanged) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("shrunk", func(t *testing.T) {
		x := putX(file, 0, size)
		x.body = nil
		x.err, x.readN = errors.New("transport stopped"), -1
		h := newHarness(t, startX(nil, size), x)
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &shrunkFile{data: file[:1000], size: size}, Resumable, nil, nil)
		if !errors.Is(err, ErrFileChanged) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestZeroByteFile(t *testing.T) {
	var empty []byte
	t.Run("media", func(t *testing.T) {
		h := newHarness(t, mediaX(empty).answer(http.StatusOK).withBody(okJSON))
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{}, Auto, nil, nil)
		if err != nil || res.Method != Media {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("multipart", func(t *testing.T) {
		meta := []byte(`{"name":"empty"}`)
		x := multipartX().answer(http.StatusOK).withBody(okJSON)
		h := newHarness(t, x)
		h.up.Client.Transport = multipartTransport{t: t, next: h.s, meta: meta, file: nil}
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Metadata: meta}, &memFile{}, Auto, nil, nil)
		if err != nil || res.Method != Multipart {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
	t.Run("resumable", func(t *testing.T) {
		put := putX(empty, 0, 0).answer(http.StatusCreated).withBody(okJSON)
		if put.header["Content-Range"] != "bytes */0" {
			t.Fatalf("empty Content-Range %q", put.header["Content-Range"])
		}
		h := newHarness(t, startX(nil, 0), put)
		obs := newRecorder(t, 0, true)
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{}, Resumable, nil, obs)
		if err != nil || res.Method != Resumable || obs.lastCommitted() != 0 {
			t.Fatalf("res %+v err %v", res, err)
		}
	})
}

func TestFallBack(t *testing.T) {
	file := testFile(1000)
	refused := `{"error":{"code":400,"message":"Resumable uploads are not supported for this method."}}`
	t.Run("to multipart", func(t *testing.T) {
		meta := []byte(`{"assetIdentifier":{"name":"a.png","type":"HTML_IMAGE"}}`)
		x := multipartX().answer(http.StatusOK).withBody(okJSON)
		h := newHarness(t, startX(meta, 1000).answer(http.StatusBadRequest).withBody(refused), x)
		h.up.Client.Transport = multipartTransport{t: t, next: h.s, meta: meta, file: file}
		obs := newRecorder(t, 1000, false)
		target := Target{URL: testBase, ContentType: testType, Metadata: meta, FallbackToMultipart: true}
		res, err := h.up.Upload(context.Background(), target, &memFile{data: file}, Resumable, nil, obs)
		if err != nil || res.Method != Multipart {
			t.Fatalf("res %+v err %v", res, err)
		}
		if fmt.Sprint(obs.fellBack) != "[resumable→multipart]" {
			t.Errorf("fell back %v", obs.fellBack)
		}
	})
	t.Run("to media without metadata", func(t *testing.T) {
		h := newHarness(t, startX(nil, 1000).answer(http.StatusBadRequest).withBody(refused), mediaX(file).answer(http.StatusOK).withBody(okJSON))
		obs := newRecorder(t, 1000, false)
		res, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, FallbackToMultipart: true}, &memFile{data: file}, Resumable, nil, obs)
		if err != nil || res.Method != Media || fmt.Sprint(obs.fellBack) != "[resumable→media]" {
			t.Fatalf("res %+v err %v fellback %v", res, err, obs.fellBack)
		}
	})
	t.Run("not on 401", func(t *testing.T) {
		h := newHarness(t, startX(nil, 1000).answer(http.StatusUnauthorized).withBody(`{"error":{"code":401,"message":"Invalid Credentials"}}`))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, FallbackToMultipart: true}, &memFile{data: file}, Resumable, nil, nil)
		var api *APIError
		if !errors.As(err, &api) || api.Status != 401 {
			t.Fatalf("err = %v", err)
		}
	})
	// Only a refusal of the protocol itself is worth sending the whole file
	// again in one request: these refuse the file whatever way it comes.
	for _, tc := range []struct {
		name   string
		status int
		body   string
		class  Class
	}{
		{"not on a version switched off", http.StatusForbidden,
			`{"error":{"code":403,"message":"3140 : Version v4 of the Campaign Manager 360 API is no longer supported.","errors":[{"message":"3140 : Version v4 of the Campaign Manager 360 API is no longer supported.","domain":"global","reason":"forbidden"}],"status":"PERMISSION_DENIED"}}`,
			ClassRetired},
		{"not on a version gone for good", http.StatusNotFound,
			`{"error":{"code":404,"message":"Version v4 of the API is no longer supported."}}`, ClassRetired},
		{"not on permission", http.StatusForbidden,
			`{"error":{"code":403,"message":"The caller does not have permission","status":"PERMISSION_DENIED"}}`, ClassPermission},
		{"not on not found", http.StatusNotFound, `{"error":{"code":404,"message":"Not Found","status":"NOT_FOUND"}}`, ClassNotFound},
		{"not on quota", http.StatusForbidden,
			`{"error":{"code":403,"message":"Quota exceeded","errors":[{"reason":"quotaExceeded"}]}}`, ClassQuota},
		{"not on invalid metadata", http.StatusBadRequest,
			`{"error":{"code":400,"message":"assetIdentifier.name is required.","errors":[{"reason":"invalid"}]}}`, ClassInvalid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, startX(nil, 1000).answer(tc.status).withBody(tc.body))
			obs := newRecorder(t, 1000, false)
			_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, FallbackToMultipart: true}, &memFile{data: file}, Resumable, nil, obs)
			var api *APIError
			if !errors.As(err, &api) || api.Status != tc.status || api.Class() != tc.class {
				t.Fatalf("err = %v (class %v), want %d of class %v", err, api.Class(), tc.status, tc.class)
			}
			if len(obs.fellBack) != 0 {
				t.Errorf("fell back %v", obs.fellBack)
			}
		})
	}
	t.Run("not when not asked", func(t *testing.T) {
		h := newHarness(t, startX(nil, 1000).answer(http.StatusBadRequest).withBody(refused))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, nil)
		if !errors.As(err, new(*APIError)) {
			t.Fatalf("err = %v", err)
		}
	})
}

// signInAgain is an auth error that must not be retried.
type signInAgain struct{}

func (signInAgain) Error() string   { return "sign in again" }
func (signInAgain) Retryable() bool { return false }

func TestNonRetryableTransportError(t *testing.T) {
	file := testFile(100)
	h := newHarness(t, mediaX(file).fail(0, signInAgain{}))
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
	if !errors.As(err, new(signInAgain)) || Retryable(err) {
		t.Fatalf("err = %v", err)
	}
	if len(h.clock.Slept()) != 0 {
		t.Error("waited")
	}
}

func TestConnectionErrors(t *testing.T) {
	file := testFile(3 * ChunkAlign)
	size := int64(len(file))
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	reset := &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.ECONNRESET)}
	for _, tc := range []struct {
		name string
		err  error
		n    int64
	}{
		{"refused", refused, 0},
		{"reset mid-body", reset, 5000},
		{"unexpected EOF mid-body", io.ErrUnexpectedEOF, ChunkAlign + 7},
	} {
		t.Run("resumable "+tc.name, func(t *testing.T) {
			h := newHarness(t,
				startX(nil, size),
				putX(file, 0, size).fail(tc.n, tc.err),
				statusX(size).answer(StatusResumeIncomplete, "Range", "bytes=0-262143"),
				putX(file, ChunkAlign, size-ChunkAlign).answer(http.StatusCreated).withBody(okJSON),
			)
			obs := newRecorder(t, size, true)
			if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
				t.Fatal(err)
			}
			if len(obs.retries) != 1 || !errors.Is(obs.retries[0].cause, tc.err) {
				t.Errorf("retries %+v", obs.retries)
			}
			checkErrText(t, obs.retries[0].cause)
		})
		t.Run("media "+tc.name, func(t *testing.T) {
			h := newHarness(t, mediaX(file).fail(tc.n, tc.err), mediaX(file).answer(http.StatusOK).withBody(okJSON))
			if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("media cut after the whole body", func(t *testing.T) {
		h := newHarness(t, mediaX(file).fail(-1, io.ErrUnexpectedEOF))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
		if !errors.Is(err, ErrAnswerLost) || Retryable(err) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestErrorsNeverShowTheSession(t *testing.T) {
	file := testFile(100)
	var steps []exchange
	for range DefaultMaxRetries + 1 {
		steps = append(steps, statusX(100).fail(0, &urlErrorLike{}))
	}
	h := newHarness(t, steps...)
	resume := &Session{URI: testSession, Started: h.clock.Now()}
	obs := newRecorder(t, 100, false)
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, resume, obs)
	if !errors.Is(err, ErrTooManyRetries) || !errors.As(err, new(*urlErrorLike)) {
		t.Fatalf("err = %v", err)
	}
	checkErrText(t, err)
	if !strings.Contains(err.Error(), "broken pipe") {
		t.Errorf("err = %v", err)
	}
}

// urlErrorLike is a transport error whose text quotes the session URI.
type urlErrorLike struct{}

func (*urlErrorLike) Error() string { return "broken pipe while talking to " + testSession }

func TestRateLimit403(t *testing.T) {
	file := testFile(100)
	limit := `{"error":{"code":403,"message":"User Rate Limit Exceeded","errors":[{"reason":"userRateLimitExceeded"}]}}`
	quota := `{"error":{"code":403,"message":"Quota exceeded","errors":[{"reason":"quotaExceeded"}]}}`
	t.Run("rate limit backs off", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusForbidden).withBody(limit), mediaX(file).answer(http.StatusOK).withBody(okJSON))
		if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil); err != nil {
			t.Fatal(err)
		}
		backoffShape(t, h.clock.Slept(), h.draws)
	})
	t.Run("daily quota fails at once", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusForbidden).withBody(quota))
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
		var api *APIError
		if !errors.As(err, &api) || api.Reason != "quotaExceeded" || Retryable(err) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestHostAllowed(t *testing.T) {
	for _, tc := range []struct {
		target, allowed, location string
		want                      bool
	}{
		{"https://www.googleapis.com/upload/x", "", "https://www.googleapis.com/upload/x?upload_id=1", true},
		{"https://www.googleapis.com/upload/x", "", "https://WWW.googleapis.com:443/upload/x?upload_id=1", true},
		{"https://www.googleapis.com/upload/x", "", "https://www.googleapis.com.evil.test/x", false},
		{"http://127.0.0.1:8080/upload/x", "", "http://127.0.0.1:8080/upload/x?upload_id=1", true},
		{"http://127.0.0.1:8080/upload/x", "", "http://127.0.0.1:9090/upload/x?upload_id=1", false},
		{"https://gmail.googleapis.com/upload/x", "www.googleapis.com", "https://www.googleapis.com:443/x", true},
		{"https://gmail.googleapis.com/upload/x", "www.googleapis.com", "https://gmail.googleapis.com/x", false},
		{"http://127.0.0.1:1/upload/x", "127.0.0.1:8080", "http://127.0.0.1:8080/x", true},
		{"http://127.0.0.1:1/upload/x", "127.0.0.1:8080", "http://127.0.0.1:8081/x", false},
		{"https://[::1]:8443/upload/x", "", "https://[::1]:8443/x", true},
	} {
		r, err := (&Uploader{AllowedHost: tc.allowed}).newRun(Target{URL: tc.target}, &memFile{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = resumableRun{r}.checkSessionURI(tc.location)
		if (err == nil) != tc.want {
			t.Errorf("target %s, allowed %q, location %s: %v", tc.target, tc.allowed, tc.location, err)
		}
	}
}
