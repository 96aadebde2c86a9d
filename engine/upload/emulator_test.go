package upload_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/emulator"
	"hoist/engine/upload"
	"hoist/internal/testclock"
)

// The fault matrix: every upload type against every fault the emulator can
// inject, over real loopback. Each upload must end with the emulator holding
// exactly the file (one object, same SHA-256) or with a clear error — never a
// wrong object reported as done, never two objects for one file.

const kib = 1 << 10

type flow struct {
	name   string
	method upload.Method
	chunk  int64
	meta   []byte
}

var flows = []flow{
	{"media", upload.Media, 0, nil},
	{"multipart", upload.Multipart, 0, []byte(`{"name":"report.png"}`)},
	{"resumable", upload.Resumable, 0, nil},
	{"resumable chunks", upload.Resumable, 1024 * kib, []byte(`{"name":"report.png"}`)},
}

type fault struct {
	name string
	// faults builds the faults for a flow; data is the stage carrying file bytes.
	faults func(f flow, data emulator.Stage) []emulator.Fault
	// wantErr, when set, is the error a flow must end with instead of success:
	// the one sentinel it must match, or an *upload.APIError whose status
	// the refusal must have.
	wantErr func(f flow) error
	opts    emulator.Options
	fall    bool // Target.FallbackToMultipart
	// mayBeLost: a one-request flow may end in ErrAnswerLost with nothing
	// made: the server's trouble came after the whole body may have gone
	// out, which says nothing of whether it arrived, and nothing can be
	// asked (whether the body went out whole before the early answer is
	// the network's timing).
	mayBeLost bool
	// sessionOnly: the faults act on sessions only, so media and multipart
	// uploads never meet them.
	sessionOnly bool
	// only, when set, picks the flows the fault means something for.
	only func(f flow) bool
	// wrongObject: the server makes an object of the wrong bytes on its own;
	// the upload must then fail, never be done.
	wrongObject bool
	// unreadable: the final answer is not the resource, so nothing can be verified.
	unreadable bool
}

func chunked(f flow) bool { return f.chunk > 0 }

// everyOther matches every second request it is asked about.
func everyOther() func(*http.Request) bool {
	var n atomic.Int64
	return func(*http.Request) bool { return n.Add(1)%2 == 0 }
}

func one(a emulator.Action, st emulator.Stage) []emulator.Fault {
	return []emulator.Fault{{Match: emulator.Match{Stage: st}, Action: a}}
}

func answers(status int, retryAfter string) func(flow, emulator.Stage) []emulator.Fault {
	return func(flow, emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Times: 2, Action: emulator.Answer{Status: status, RetryAfter: retryAfter}}}
	}
}

func resumableOnly(err error) func(flow) error {
	return func(f flow) error {
		if f.method == upload.Resumable {
			return err
		}
		return nil
	}
}

var faults = []fault{
	{name: "none", faults: func(flow, emulator.Stage) []emulator.Fault { return nil }},
	{name: "cut at a chunk boundary", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.CutBody{After: 512 * kib}, st)
	}},
	{name: "cut mid-chunk", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.CutBody{After: 300_001}, st)
	}},
	{name: "cut twice", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: 2, Action: emulator.CutBody{After: 100_003}}}
	}},
	{name: "cut session start", faults: func(_ flow, _ emulator.Stage) []emulator.Fault {
		return one(emulator.CutBody{After: 3}, emulator.StageStart)
	}},
	{name: "500", faults: answers(500, ""), mayBeLost: true},
	{name: "502", faults: answers(502, ""), mayBeLost: true},
	{name: "503", faults: answers(503, ""), mayBeLost: true},
	{name: "503 with Retry-After", faults: answers(503, "2"), mayBeLost: true},
	{name: "504", faults: answers(504, ""), mayBeLost: true},
	{name: "429", faults: answers(429, "")},
	{name: "429 with Retry-After", faults: answers(429, "1")},
	{name: "persist less", sessionOnly: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: 2, Action: emulator.KeepLess{Align: 256 * kib, Drop: 1000}}}
	}},
	{name: "stall", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.Stall{}, st)
	}},
	{name: "stall status query", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{
			{Match: emulator.Match{Stage: st}, Action: emulator.CutBody{After: 10_000}},
			{Match: emulator.Match{Stage: emulator.StageQuery}, Action: emulator.Stall{}},
		}
	}},
	{name: "answer lost", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.DropAnswer{}, st)
	}, wantErr: func(f flow) error {
		if f.method != upload.Resumable {
			return upload.ErrAnswerLost // sent in full; sending again could make a copy
		}
		return nil
	}},
	{name: "expire session now", sessionOnly: true, faults: func(f flow, st emulator.Stage) []emulator.Fault {
		skip := 0
		if f.chunk > 0 {
			skip = 1
		}
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Skip: skip, Action: emulator.ExpireSession{}}}
	}},
	{name: "expired as 410", sessionOnly: true, opts: emulator.Options{ExpiredStatus: http.StatusGone}, faults: func(f flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.ExpireSession{}, st)
	}},
	{name: "garbage Range", sessionOnly: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.GarbageRange{Value: "bytes=0-999999999"}, st)
	}},
	{name: "foreign Location", faults: func(_ flow, _ emulator.Stage) []emulator.Fault {
		return one(emulator.ForeignLocation{}, emulator.StageStart)
	}, wantErr: resumableOnly(upload.ErrForeignHost)},
	{name: "no Location", faults: func(_ flow, _ emulator.Stage) []emulator.Fault {
		return one(emulator.NoLocation{}, emulator.StageStart)
	}, wantErr: resumableOnly(upload.ErrBadResponse)},
	{name: "resumable refused, fall back", fall: true, faults: func(_ flow, _ emulator.Stage) []emulator.Fault {
		return one(emulator.Answer{Status: http.StatusBadRequest, Message: "Resumable uploads are not supported."}, emulator.StageStart)
	}},
	{name: "resumable refused", faults: func(_ flow, _ emulator.Stage) []emulator.Fault {
		return one(emulator.Answer{Status: http.StatusBadRequest, Message: "Resumable uploads are not supported."}, emulator.StageStart)
	}, wantErr: resumableOnly(&upload.APIError{Status: http.StatusBadRequest})},
	{name: "finish early", sessionOnly: true, only: chunked, wrongObject: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return one(emulator.FinishEarly{}, st)
	}, wantErr: func(flow) error { return upload.ErrIncomplete }},
	{name: "finish on status query", wrongObject: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{
			{Match: emulator.Match{Stage: st}, Action: emulator.CutBody{After: 10_000}},
			{Match: emulator.Match{Stage: emulator.StageQuery}, Action: emulator.FinishOnQuery{}},
		}
	}, wantErr: resumableOnly(upload.ErrIncomplete)},
	// As fake-gcs-server does: the session ends when a status query finishes
	// it, and is not found when asked again. Starting a new one would make a
	// second copy beside the short one.
	{name: "finish on status query, then forget the session", wrongObject: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{
			{Match: emulator.Match{Stage: st}, Action: emulator.CutBody{After: 10_000}},
			{Match: emulator.Match{Stage: emulator.StageQuery}, Action: emulator.FinishOnQuery{}},
			{Match: emulator.Match{Stage: emulator.StageQuery}, Times: -1, Action: emulator.Answer{Status: http.StatusNotFound}},
		}
	}, wantErr: resumableOnly(upload.ErrIncomplete)},
	{name: "HTML success", unreadable: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: -1, Action: emulator.BadSuccess{Body: emulator.SuccessHTML}}}
	}},
	{name: "cut JSON success", unreadable: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: -1, Action: emulator.BadSuccess{Body: emulator.SuccessCutJSON}}}
	}},
	{name: "huge success", unreadable: true, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: -1, Action: emulator.BadSuccess{Body: emulator.SuccessHuge}}}
	}},
	{name: "keeps a chunk, then forgets it", sessionOnly: true, only: chunked, faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st, Func: everyOther()}, Times: -1, Action: emulator.Forget{Bytes: 1024 * kib}}}
	}, wantErr: func(flow) error { return upload.ErrTooManyRetries }},
	{name: "slow reader", faults: func(_ flow, st emulator.Stage) []emulator.Fault {
		return []emulator.Fault{{Match: emulator.Match{Stage: st}, Times: -1, Action: emulator.SlowRead{BytesPerSecond: 4096 * kib}}}
	}},
}

// isClass reports whether err is of want's class: the sentinel itself, or a
// refusal with want's status when want is an *upload.APIError.
func isClass(err, want error) bool {
	if err == nil {
		return false
	}
	var wantAPI *upload.APIError
	if errors.As(want, &wantAPI) {
		var got *upload.APIError
		return errors.As(err, &got) && got.Status == wantAPI.Status
	}
	return errors.Is(err, want)
}

func TestFaultMatrix(t *testing.T) { faultMatrix(t, flows, plainLoopback) }

// serveFunc serves h on loopback for one case of the matrix and gives its
// base URL and a client that reaches it, recording hosts in log.
type serveFunc func(t *testing.T, h http.Handler, log *hostLog) (url string, client *http.Client, stop func())

func plainLoopback(t *testing.T, h http.Handler, log *hostLog) (string, *http.Client, func()) {
	ts := httptest.NewServer(h)
	return ts.URL, smallBufferClient(t, log), ts.Close
}

func faultMatrix(t *testing.T, flows []flow, serve serveFunc) {
	file := make([]byte, 3*1024*kib+123)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range file {
		file[i] = byte(r.Uint32())
	}
	sum := sha256.Sum256(file)
	want := hex.EncodeToString(sum[:])

	for _, f := range flows {
		for _, fl := range faults {
			if fl.only != nil && !fl.only(f) {
				continue // the fault means nothing to this flow
			}
			t.Run(f.name+"/"+fl.name, func(t *testing.T) {
				srv, err := emulator.New(fl.opts)
				if err != nil {
					t.Fatal(err)
				}
				hosts := &hostLog{}
				base, client, stop := serve(t, srv, hosts)
				t.Cleanup(func() {
					_ = srv.Close() // first: it lets go of stalled requests
					stop()
				})
				data := emulator.StageUpload
				if f.method == upload.Resumable {
					data = emulator.StageChunk
				}
				var injected []*emulator.Injected
				for _, x := range fl.faults(f, data) {
					inj := srv.Inject(x)
					if f.method == upload.Resumable || (!fl.sessionOnly && (x.Match.Stage == emulator.StageUpload || x.Match.Stage == emulator.StageAny)) {
						injected = append(injected, inj)
					}
				}
				defer func() {
					for i, inj := range injected {
						if inj.Count() == 0 {
							t.Errorf("fault %d never applied", i)
						}
					}
				}()
				up := &upload.Uploader{
					Client:       client,
					ChunkSize:    f.chunk,
					Clock:        testclock.At(time.Now()),
					StallTimeout: time.Second, // a stall, yet room for a loaded 2-CPU machine
				}
				target := upload.Target{
					URL:                 base + "/upload/files/v1/things?name=report.png",
					ContentType:         "image/png",
					Metadata:            f.meta,
					FallbackToMultipart: fl.fall,
				}
				res, err := up.Upload(context.Background(), target, memSource(file), f.method, nil, nil)

				objects := srv.Objects()
				for _, o := range objects {
					if (o.SHA256 != want || o.Size != int64(len(file))) && (!fl.wrongObject || err == nil) {
						t.Errorf("the emulator holds a wrong object: %d bytes, sha256 %s (err %v)", o.Size, o.SHA256, err)
					}
				}
				if len(objects) > 1 {
					t.Errorf("%d objects for one file", len(objects))
				}
				for _, h := range hosts.list() {
					if h != base[strings.Index(base, "://")+3:] {
						t.Errorf("a request went to %s", h)
					}
				}
				if fl.mayBeLost && f.method != upload.Resumable && errors.Is(err, upload.ErrAnswerLost) {
					if len(objects) != 0 {
						t.Errorf("the answer was called lost, and the emulator holds %d objects", len(objects))
					}
					return
				}
				var wantErr error
				if fl.wantErr != nil {
					wantErr = fl.wantErr(f)
				}
				if wantErr != nil {
					if !isClass(err, wantErr) {
						t.Fatalf("err = %v, want %v", err, wantErr)
					}
					if strings.Contains(err.Error(), "upload_id") {
						t.Errorf("error shows the session: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("upload failed: %v", err)
				}
				if len(objects) != 1 {
					t.Fatalf("done, but the emulator holds %d objects", len(objects))
				}
				if fl.unreadable && !json.Valid(res.Body) {
					// (A status query after an answer that broke off may get the resource itself.)
					if res.Verified != "" {
						t.Errorf("verified %q by an answer that is not the resource: %.200s (%d bytes)", res.Verified, res.Body, len(res.Body))
					}
					return
				}
				var got struct {
					SHA256 string `json:"sha256Hash"`
				}
				if err := json.Unmarshal(res.Body, &got); err != nil || got.SHA256 != want {
					t.Errorf("result %s does not describe the file (%v)", res.Body, err)
				}
				if res.Verified != upload.VerifiedCRC32C {
					t.Errorf("verified %q, want the server's crc32c", res.Verified)
				}
			})
		}
	}
}

// memSource is a file in memory.
type memSource []byte

func (m memSource) Size() int64 { return int64(len(m)) }

func (m memSource) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

type hostLog struct {
	mu    sync.Mutex
	hosts []string
}

func (h *hostLog) add(s string) {
	h.mu.Lock()
	h.hosts = append(h.hosts, s)
	h.mu.Unlock()
}

func (h *hostLog) list() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.hosts...)
}

type recordHosts struct {
	next http.RoundTripper
	log  *hostLog
}

func (r recordHosts) RoundTrip(req *http.Request) (*http.Response, error) {
	r.log.add(req.URL.Host)
	return r.next.RoundTrip(req)
}

// smallBufferClient keeps the kernel from swallowing a whole file before a
// cut connection is noticed, as on a real network.
func smallBufferClient(t *testing.T, log *hostLog) *http.Client {
	return &http.Client{Transport: recordHosts{next: smallBufferTransport(t), log: log}}
}

func smallBufferTransport(t *testing.T) *http.Transport {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if tc, ok := c.(*net.TCPConn); ok {
				_ = tc.SetWriteBuffer(32 * kib)
			}
			return c, err
		},
	}
	t.Cleanup(tr.CloseIdleConnections)
	return tr
}
