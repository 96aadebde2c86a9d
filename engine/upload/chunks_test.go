package upload_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"hoist/engine/emulator"
	"hoist/engine/upload"
	"hoist/internal/testclock"
)

// exchangeLog records, in order, the byte ranges a client sends to a session
// and the offsets the server answers with.
type exchangeLog struct {
	next http.RoundTripper

	mu   sync.Mutex
	list []rangeExchange
}

type rangeExchange struct {
	chunk       bool  // bytes were sent (else a status query or a session start)
	first, n    int64 // the bytes sent
	total       int64
	answered    bool  // a 308 with a Range came back
	serverNext  int64 // the first byte the server does not have, per its answer
	rangeHeader string
}

func (l *exchangeLog) RoundTrip(req *http.Request) (*http.Response, error) {
	var x rangeExchange
	if cr := req.Header.Get("Content-Range"); cr != "" {
		if c, err := upload.ParseContentRange(cr); err == nil && c.Length > 0 {
			x.chunk, x.first, x.n, x.total = true, c.First, c.Length, c.Total
		}
	}
	resp, err := l.next.RoundTrip(req)
	if err == nil && resp.StatusCode == upload.StatusResumeIncomplete {
		x.rangeHeader = resp.Header.Get("Range")
		if next, _, perr := upload.ParseRange(x.rangeHeader); perr == nil {
			x.answered, x.serverNext = true, next
		}
	}
	if req.Header.Get("Content-Range") != "" {
		l.mu.Lock()
		l.list = append(l.list, x)
		l.mu.Unlock()
	}
	return resp, err
}

func (l *exchangeLog) all() []rangeExchange {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]rangeExchange(nil), l.list...)
}

// autoUpload uploads a 6 MiB file with automatic chunk sizes over real
// loopback to the emulator, which applies f to the requests with bytes
// bigger than 1 MiB times times; it checks that the emulator holds the file
// and that the fault applied, and returns the exchanges and the emulator's
// request log.
func autoUpload(t *testing.T, seed uint64, f emulator.Action, times int, stall time.Duration) ([]rangeExchange, []emulator.Request) {
	t.Helper()
	file := make([]byte, 6<<20+123)
	rnd := rand.New(rand.NewPCG(seed, 4))
	for i := range file {
		file[i] = byte(rnd.Uint32())
	}
	sum := sha256.Sum256(file)
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		_ = srv.Close() // ends any stall first
		ts.Close()
	})
	big := func(r *http.Request) bool { return r.ContentLength > 1<<20 }
	faults := srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk, Func: big}, Times: times, Action: f})

	client := smallBufferClient(t, &hostLog{})
	log := &exchangeLog{next: client.Transport}
	client.Transport = log
	up := &upload.Uploader{Client: client, ChunkSize: upload.ChunkAuto, Clock: testclock.At(time.Now()), StallTimeout: stall}
	target := upload.Target{URL: ts.URL + "/upload/files/v1/things?name=auto.bin", ContentType: "application/octet-stream"}
	if _, err := up.Upload(context.Background(), target, memSource(file), upload.Resumable, nil, nil); err != nil {
		t.Fatalf("upload failed: %v", err)
	}
	if objects := srv.Objects(); len(objects) != 1 || objects[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("the emulator holds %+v, want the file", objects)
	}
	if faults.Count() != times {
		t.Fatalf("the fault applied %d times, want %d", faults.Count(), times)
	}
	reqs := srv.Requests()
	resentWithinUnconfirmed(t, reqs, int64(len(file)))
	return log.all(), reqs
}

// Automatic chunk sizes stay multiples of 256 KiB, start every request where
// the server said it stands, grow while the server confirms whole requests,
// finish a request cut off and shrink after a second cut in a row, over real
// loopback against the emulator.
func TestAutoChunksThroughCuts(t *testing.T) {
	// Cut three requests big enough to be cut in their middle, at an
	// offset that is no multiple of 256 KiB.
	exchanges, _ := autoUpload(t, 3, emulator.CutBody{After: 300<<10 + 777}, 3, 0)
	var at int64 // where the server last said it stands
	var chunks, grown, shrunk, inRow int
	var prev *rangeExchange
	for i, x := range exchanges {
		if !x.chunk {
			if x.answered {
				at = x.serverNext
			}
			continue
		}
		chunks++
		if x.first != at {
			t.Errorf("request %d starts at %d, but the server stands at %d", i, x.first, at)
		}
		if last := x.first+x.n == x.total; !last && x.n%upload.ChunkAlign != 0 {
			t.Errorf("request %d carries %d bytes, not a multiple of 256 KiB", i, x.n)
		}
		if prev != nil {
			switch {
			case prev.answered && prev.serverNext == prev.first+prev.n:
				// Confirmed in full: the next is at least twice as big, or the rest.
				if x.n < 2*prev.n && x.first+x.n != x.total {
					t.Errorf("request %d carries %d bytes after %d confirmed in full", i, x.n, prev.n)
				}
				grown, inRow = grown+1, 0
			case prev.rangeHeader == "" && !prev.answered:
				inRow++
				switch {
				case inRow == 1 && x.first+x.n != prev.first+prev.n:
					// A first cut: the next finishes the cut request.
					t.Errorf("request %d ends at %d after a cut, not where the cut request would have (%d)", i, x.first+x.n, prev.first+prev.n)
				case inRow > 1 && x.n > max(prev.n/2, upload.ChunkAlign) && x.first+x.n != x.total:
					// Cut again: at most half as big (at least 256 KiB), or the rest.
					t.Errorf("request %d carries %d bytes after a second cut in a row, of %d", i, x.n, prev.n)
				}
				shrunk++
			}
		}
		if x.answered {
			at = x.serverNext
		}
		prev = &x
	}
	if chunks == 0 || grown == 0 || shrunk != 3 {
		t.Errorf("%d requests with bytes, %d after a confirmed one, %d after a cut (want 3)", chunks, grown, shrunk)
	}
	if first := exchanges; len(first) == 0 || !first[0].chunk || first[0].n != upload.ChunkAlign {
		t.Errorf("the first request is %+v, want 256 KiB of bytes", first)
	}
}

// A request cut off before the server kept any of it is finished by the next
// request, which ends where the cut one would have ended: the upload stays on
// its grid and no short request is left for later.
func TestAutoChunksFinishTheCutRequest(t *testing.T) {
	exchanges, _ := autoUpload(t, 5, emulator.CutBody{After: 100<<10 + 777}, 1, 0)
	var chunks []rangeExchange
	at := int64(-1)
	for _, x := range exchanges {
		switch {
		case x.chunk:
			chunks = append(chunks, x)
		case at < 0 && len(chunks) > 0 && x.answered:
			at = x.serverNext // the status query after the cut
		}
	}
	cut := slices.IndexFunc(chunks, func(x rangeExchange) bool { return !x.answered })
	if cut < 0 || cut+1 >= len(chunks) {
		t.Fatalf("no request after a cut one in %+v", chunks)
	}
	was, after := chunks[cut], chunks[cut+1]
	if after.first != at {
		t.Errorf("the request after the cut starts at %d, but the server said %d", after.first, at)
	}
	if end, want := after.first+after.n, was.first+was.n; end != want {
		t.Errorf("the request after the cut ends at %d, want %d where the cut request would have ended", end, want)
	}
	if len(chunks) != cut+2 {
		t.Errorf("%d requests with bytes after the one finishing the cut, want none", len(chunks)-cut-2)
	}
}

// A request that stalls is a sign of a slow or broken link: the next request
// is at most half as big, and starts where the server said it stands.
func TestAutoChunksShrinkAfterAStall(t *testing.T) {
	// A stall, yet room for a loaded 2-CPU machine.
	exchanges, _ := autoUpload(t, 7, emulator.Stall{For: time.Hour}, 1, time.Second)
	var chunks []rangeExchange
	var ats []int64 // the server's offsets, in order
	for _, x := range exchanges {
		if x.chunk {
			chunks = append(chunks, x)
		}
		if x.answered {
			ats = append(ats, x.serverNext)
		}
	}
	i := slices.IndexFunc(chunks, func(x rangeExchange) bool { return !x.answered })
	if i < 0 || i+1 >= len(chunks) {
		t.Fatalf("no request after a stalled one in %+v", chunks)
	}
	was, after := chunks[i], chunks[i+1]
	// The stalled request is the whole rest and the server keeps nothing of
	// it, so half of it is no tail to take along.
	if after.n > max(was.n/2, upload.ChunkAlign) {
		t.Errorf("the request after a stalled one of %d bytes carries %d", was.n, after.n)
	}
	if len(ats) == 0 || !slices.Contains(ats, after.first) {
		t.Errorf("the request after the stall starts at %d, where the server never said it stood (%v)", after.first, ats)
	}
}

// resentWithinUnconfirmed checks, from the emulator's request log, that the
// bytes received beyond the file's size are no more than, at every cut, the
// bytes the emulator had received of the cut request but not kept (it keeps
// whole 256 KiB units).
func resentWithinUnconfirmed(t *testing.T, reqs []emulator.Request, size int64) {
	t.Helper()
	var received, unconfirmed int64
	for _, r := range reqs {
		if r.Stage != emulator.StageChunk {
			continue
		}
		received += r.BodyBytes
		if r.Status != 0 {
			continue
		}
		c, err := upload.ParseContentRange(r.ContentRange)
		if err != nil {
			t.Fatalf("a cut request's Content-Range %q: %v", r.ContentRange, err)
		}
		end := c.First + r.BodyBytes
		unconfirmed += end - max(end-end%upload.ChunkAlign, c.First)
	}
	if resent := received - size; resent > unconfirmed {
		t.Errorf("%d bytes sent again, more than the %d the server had not kept", resent, unconfirmed)
	}
}

// TestAutoChunksLastAFewSeconds: on a link that moves 4 MB a second, no
// automatic request carries more than a few seconds of it, however long
// the upload goes on, so that pausing (which throws away what the server
// has not confirmed) costs no more than that. Doubling each confirmed
// request alone grew them to hundreds of megabytes on a fast link: a
// paused 1.6 GB file went back from 208 MB to 262 KB.
func TestAutoChunksLastAFewSeconds(t *testing.T) {
	const rate = 4 << 20
	file := make([]byte, 20<<20)
	rnd := rand.New(rand.NewPCG(11, 4))
	for i := range file {
		file[i] = byte(rnd.Uint32())
	}
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		_ = srv.Close()
		ts.Close()
	})
	srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Times: -1, Action: emulator.SlowRead{BytesPerSecond: rate}})
	client := smallBufferClient(t, &hostLog{})
	log := &exchangeLog{next: client.Transport}
	client.Transport = log
	up := &upload.Uploader{Client: client, ChunkSize: upload.ChunkAuto, Clock: testclock.At(time.Now())}
	target := upload.Target{URL: ts.URL + "/upload/files/v1/things?name=long.bin", ContentType: "application/octet-stream"}
	if _, err := up.Upload(context.Background(), target, memSource(file), upload.Resumable, nil, nil); err != nil {
		t.Fatalf("upload failed: %v", err)
	}
	// The link is never faster than the emulator reads, so the speed a
	// request shows (on a busy machine, less) bounds what a request holds:
	// a few seconds' worth, and a request that takes the rest along half
	// as much again.
	const most = 3 * rate * 3 / 2
	var sizes []int64
	for _, x := range log.all() {
		if x.chunk {
			sizes = append(sizes, x.n)
			if x.n > most+upload.ChunkAlign {
				t.Errorf("a request carries %d bytes, %.1f seconds of a link of 4 MB/s", x.n, float64(x.n)/rate)
			}
		}
	}
	if len(sizes) < 3 {
		t.Errorf("the file went in requests of %v, want several", sizes)
	}
	t.Logf("requests: %v", sizes)
}
