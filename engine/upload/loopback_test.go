package upload

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// loopServer is a small server of the protocol on real loopback TCP, with a
// connection cut at a chosen offset. It checks what clients send the way
// Google does: chunks must start at the first unpersisted byte.
type loopServer struct {
	t       testing.TB
	srv     *httptest.Server
	discard bool // keep only a hash, for benchmarks

	mu       sync.Mutex
	sessions map[string]*loopSession
	cutAt    []int64 // cut the connection once the file's byte at each offset is reached
	objects  [][]byte
	hashes   [][sha256.Size]byte
	requests int
}

type loopSession struct {
	mu   sync.Mutex // one request at a time, as Google serializes a session
	size int64
	data []byte
	h    hash.Hash
	next int64
	done bool
}

func newLoopServer(t testing.TB) *loopServer {
	s := &loopServer{t: t, sessions: map[string]*loopSession{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *loopServer) url() string { return s.srv.URL + "/upload/v1/things?alt=json" }

// client is a client whose socket buffers are small, so that a cut
// connection is seen before the whole file sits in the kernel.
func (s *loopServer) client() *http.Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetWriteBuffer(32 << 10)
			}
			return c, err
		},
	}
	s.t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// engineClient connects as the engine does: through Conn, whose writes are
// larger than the small buffers client sets, so the kernel's own buffers
// stay.
func (s *loopServer) engineClient() *http.Client {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return &Conn{Conn: c}, nil
		},
	}
	s.t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// cut takes the next cut offset that falls inside [first, first+n).
func (s *loopServer) cut(first, n int64) (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, at := range s.cutAt {
		if at >= first && at < first+n {
			s.cutAt = append(s.cutAt[:i], s.cutAt[i+1:]...)
			return at - first, true
		}
	}
	return 0, false
}

// hangUp reads n bytes of the body, then drops the connection.
func (s *loopServer) hangUp(w http.ResponseWriter, r *http.Request, n int64) {
	_, _ = io.CopyN(io.Discard, r.Body, n)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		s.t.Errorf("hijack: %v", err)
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0) // a reset, as a dropped network gives
	}
	conn.Close()
}

func (s *loopServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
	if id := r.URL.Query().Get("upload_id"); id != "" {
		s.serveSession(w, r, id)
		return
	}
	switch r.URL.Query().Get("uploadType") {
	case "resumable":
		size, err := strconv.ParseInt(r.Header.Get("X-Upload-Content-Length"), 10, 64)
		if err != nil {
			http.Error(w, "no length", http.StatusBadRequest)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		s.mu.Lock()
		id := fmt.Sprintf("s%d", len(s.sessions)+1)
		s.sessions[id] = &loopSession{size: size, h: sha256.New()}
		s.mu.Unlock()
		w.Header().Set("Location", s.srv.URL+"/upload/v1/things?upload_id="+id)
	case "media":
		if at, ok := s.cut(0, max(r.ContentLength, 1)); ok {
			s.hangUp(w, r, at)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		s.finish(w, body, nil)
	case "multipart":
		_, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if at, ok := s.cut(0, max(r.ContentLength, 1)); ok {
			s.hangUp(w, r, at)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		var parts [][]byte
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			b, _ := io.ReadAll(p)
			parts = append(parts, b)
		}
		if len(parts) != 2 {
			http.Error(w, "want two parts", http.StatusBadRequest)
			return
		}
		s.finish(w, parts[1], nil)
	default:
		http.Error(w, "no upload type", http.StatusBadRequest)
	}
}

func (s *loopServer) finish(w http.ResponseWriter, body []byte, sum []byte) {
	s.mu.Lock()
	s.objects = append(s.objects, body)
	var h [sha256.Size]byte
	if sum != nil {
		copy(h[:], sum)
	} else {
		h = sha256.Sum256(body)
	}
	s.hashes = append(s.hashes, h)
	n := len(s.objects)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	fmt.Fprintf(w, `{"id":"obj-%d"}`, n)
}

func (s *loopServer) serveSession(w http.ResponseWriter, r *http.Request, id string) {
	s.mu.Lock()
	sess := s.sessions[id]
	s.mu.Unlock()
	if sess == nil {
		http.Error(w, "no such session", http.StatusNotFound)
		return
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	cr, err := ParseContentRange(r.Header.Get("Content-Range"))
	if err != nil || r.Method != http.MethodPut {
		http.Error(w, "bad Content-Range", http.StatusBadRequest)
		return
	}
	if sess.done {
		_, _ = io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, `{"id":"again"}`)
		return
	}
	if cr.Length > 0 {
		if cr.First != sess.next {
			http.Error(w, "chunk does not start at the first unpersisted byte", http.StatusBadRequest)
			return
		}
		if at, ok := s.cut(cr.First, cr.Length); ok {
			s.hangUp(w, r, at)
			return
		}
		var dst io.Writer = sess.h
		if !s.discard {
			dst = io.MultiWriter(sess.h, writerFunc(func(p []byte) (int, error) {
				sess.data = append(sess.data, p...)
				return len(p), nil
			}))
		}
		n, err := io.Copy(dst, r.Body)
		sess.next += n
		if err != nil {
			return
		}
	}
	if sess.next == sess.size && cr.Total == sess.size && (cr.Length > 0 || sess.size == 0) {
		sess.done = true
		s.finish(w, sess.data, sess.h.Sum(nil))
		return
	}
	if rng := FormatRange(sess.next); rng != "" {
		w.Header().Set("Range", rng)
	}
	w.WriteHeader(StatusResumeIncomplete)
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestLoopbackCutConnection(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name  string
		m     Method
		size  int
		chunk int64
		cuts  []int64
	}{
		{"resumable whole file, cut mid-body", Resumable, 3 * mib, 0, []int64{mib + 123}},
		{"resumable chunks, cut mid-chunk twice", Resumable, 3 * mib, mib, []int64{mib / 2, 2*mib + 10}},
		{"resumable chunks, cut at a chunk boundary", Resumable, 2 * mib, mib, []int64{mib}},
		{"media, cut mid-body", Media, 8 * mib, 0, []int64{100 << 10}},
		{"multipart, cut mid-body", Multipart, 8 * mib, 0, []int64{200 << 10}},
	} {
		for _, conn := range []string{"", ", the engine's connection"} {
			t.Run(tc.name+conn, func(t *testing.T) {
				s := newLoopServer(t)
				s.cutAt = tc.cuts
				file := testFile(tc.size)
				clock := newClock()
				client := s.client()
				if conn != "" {
					client = s.engineClient()
				}
				up := &Uploader{Client: client, ChunkSize: tc.chunk, Clock: clock}
				var meta []byte
				if tc.m == Multipart {
					meta = []byte(`{"name":"x"}`)
				}
				obs := newRecorder(t, int64(len(file)), tc.m == Resumable)
				res, err := up.Upload(context.Background(), Target{URL: s.url(), ContentType: testType, Metadata: meta}, &memFile{data: file}, tc.m, nil, obs)
				if err != nil {
					t.Fatal(err)
				}
				if res.Status != http.StatusCreated || !strings.HasPrefix(string(res.Body), `{"id":"obj-`) {
					t.Errorf("result %+v", res)
				}
				s.mu.Lock()
				defer s.mu.Unlock()
				if len(s.objects) != 1 || !bytes.Equal(s.objects[0], file) {
					t.Fatalf("%d objects; first matches: %v", len(s.objects), len(s.objects) > 0 && bytes.Equal(s.objects[0], file))
				}
				if len(s.cutAt) != 0 {
					t.Errorf("cuts not reached: %v", s.cutAt)
				}
				if len(obs.retries) != len(tc.cuts) || len(clock.Slept()) != len(tc.cuts) {
					t.Errorf("retries %d, waits %v, want %d", len(obs.retries), clock.Slept(), len(tc.cuts))
				}
				for _, r := range obs.retries {
					if !errors.As(r.cause, new(*connError)) {
						t.Errorf("retry cause %v is not a connection error", r.cause)
					}
				}
			})
		}
	}
}

func TestLoopbackStall(t *testing.T) {
	file := testFile(1 << 20)
	var stalled atomic.Bool
	release := make(chan struct{})
	s := newLoopServer(t)
	inner := s.srv.Config.Handler
	s.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Range") != "" && r.ContentLength > 0 && stalled.CompareAndSwap(false, true) {
			// Read a little, then neither read nor answer.
			_, _ = io.CopyN(io.Discard, r.Body, 1000)
			<-release
			return
		}
		inner.ServeHTTP(w, r)
	})
	defer close(release)
	up := &Uploader{Client: s.client(), Clock: newClock(), StallTimeout: 200 * time.Millisecond}
	obs := newRecorder(t, int64(len(file)), true)
	if _, err := up.Upload(context.Background(), Target{URL: s.url(), ContentType: testType}, &memFile{data: file}, Resumable, nil, obs); err != nil {
		t.Fatal(err)
	}
	if len(obs.retries) != 1 || !errors.Is(obs.retries[0].cause, ErrStalled) {
		t.Errorf("retries %+v", obs.retries)
	}
	if len(s.objects) != 1 || !bytes.Equal(s.objects[0], file) {
		t.Error("the object is not the file")
	}
}

func TestLoopbackPauseAndResume(t *testing.T) {
	file := testFile(2 << 20)
	s := newLoopServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	obs := &pauseAt{recorder: newRecorder(t, int64(len(file)), true), at: 1 << 20, cancel: cancel}
	up := &Uploader{Client: s.client(), Clock: newClock(), ChunkSize: 256 << 10}
	_, err := up.Upload(ctx, Target{URL: s.url(), ContentType: testType}, &memFile{data: file}, Resumable, nil, obs)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	sess := obs.sessions[0]
	obs2 := newRecorder(t, int64(len(file)), false)
	if _, err := up.Upload(context.Background(), Target{URL: s.url(), ContentType: testType}, &memFile{data: file}, Resumable, &sess, obs2); err != nil {
		t.Fatal(err)
	}
	if len(obs2.events) == 0 || obs2.events[0] == "committed 0" || len(obs2.sessions) != 0 {
		t.Errorf("resume did not continue from the server's offset: %v", obs2.events)
	}
	if len(s.objects) != 1 || !bytes.Equal(s.objects[0], file) {
		t.Error("the object is not the file")
	}
}

// pauseAt cancels the upload once the server has confirmed at bytes.
type pauseAt struct {
	*recorder
	at     int64
	cancel context.CancelFunc
}

func (p *pauseAt) Committed(off int64) {
	p.recorder.Committed(off)
	if off >= p.at {
		p.cancel()
	}
}

// patternFile is a large Source that holds no bytes of its own.
type patternFile struct{ size int64 }

// pattern is what every 64 KiB of a patternFile holds.
var pattern = testFile(64 << 10)

func (f patternFile) Size() int64 { return f.size }

func (f patternFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), f.size-off))
	for done := 0; done < n; {
		i := (off + int64(done)) % int64(len(pattern))
		done += copy(p[done:n], pattern[i:])
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func TestMemoryDoesNotGrowWithFileOrChunk(t *testing.T) {
	const size = 64 << 20
	s := newLoopServer(t)
	s.discard = true
	for i, chunk := range []int64{0, 32 << 20, 0, 32 << 20} {
		client := s.client()
		if i >= 2 {
			client = s.engineClient()
		}
		up := &Uploader{Client: client, ChunkSize: chunk}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := up.Upload(context.Background(), Target{URL: s.url(), ContentType: testType}, patternFile{size}, Resumable, nil, nil); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		// Client and server together; a copy of the file or a chunk would be ≥ 32 MiB.
		grown := after.TotalAlloc - before.TotalAlloc
		t.Logf("chunk %d: %d bytes allocated", chunk, grown)
		if grown > 8<<20 {
			t.Errorf("chunk %d: %d bytes allocated to send %d", chunk, grown, size)
		}
	}
	want := sha256.New()
	_, _ = io.Copy(want, io.NewSectionReader(patternFile{size}, 0, size))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, h := range s.hashes {
		if !bytes.Equal(h[:], want.Sum(nil)) {
			t.Errorf("object %d is not the file", i)
		}
	}
}

func BenchmarkUpload(b *testing.B) {
	const size = 64 << 20
	for _, chunk := range []int64{0, 256 << 10, 8 << 20, 32 << 20} {
		b.Run(fmt.Sprintf("chunk=%dKiB", chunk>>10), func(b *testing.B) {
			s := newLoopServer(b)
			s.discard = true
			up := &Uploader{Client: s.client(), ChunkSize: chunk}
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := up.Upload(context.Background(), Target{URL: s.url(), ContentType: testType}, patternFile{size}, Resumable, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestLoopbackPauseMidBody(t *testing.T) {
	const size = 16 << 20
	s := newLoopServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	obs := &pauseOnSent{recorder: newRecorder(t, size, true), at: 1 << 20, cancel: cancel}
	up := &Uploader{Client: s.client(), Clock: newClock()}
	_, err := up.Upload(ctx, Target{URL: s.url(), ContentType: testType}, patternFile{size}, Resumable, nil, obs)
	if !errors.Is(err, context.Canceled) || len(obs.retries) != 0 {
		t.Fatalf("err = %v, retries %v", err, obs.retries)
	}
	// The bytes stopped: the rest of the file never reached the server.
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.objects) != 0 {
		t.Error("the upload finished despite the pause")
	}
	if got := obs.sentAtReturn; got >= size {
		t.Errorf("%d bytes handed to the network before returning", got)
	}
}

// pauseOnSent cancels the upload once at bytes are on the wire.
type pauseOnSent struct {
	*recorder
	at           int64
	cancel       context.CancelFunc
	sentAtReturn int64
}

func (p *pauseOnSent) Sent(off int64) {
	p.recorder.Sent(off)
	p.sentAtReturn = off
	if off >= p.at {
		p.cancel()
	}
}
