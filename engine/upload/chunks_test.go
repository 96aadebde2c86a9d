package upload_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"hoist/engine/emulator"
	"hoist/engine/upload"
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

// Automatic chunk sizes stay multiples of 256 KiB, start every request where
// the server said it stands, grow while the server confirms whole requests
// and shrink after a cut, over real loopback against the emulator.
func TestAutoChunksThroughCuts(t *testing.T) {
	file := make([]byte, 6<<20+123)
	rnd := rand.New(rand.NewPCG(3, 4))
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
		_ = srv.Close()
		ts.Close()
	})
	// Cut three requests big enough to be cut in their middle, at an
	// offset that is no multiple of 256 KiB.
	big := func(r *http.Request) bool { return r.ContentLength > 1<<20 }
	cuts := srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk, Func: big}, Times: 3,
		Action: emulator.CutBody{After: 300<<10 + 777}})

	client := smallBufferClient(t, &hostLog{})
	log := &exchangeLog{next: client.Transport}
	client.Transport = log
	up := &upload.Uploader{
		Client:    client,
		ChunkSize: upload.ChunkAuto,
		Clock:     &instantClock{now: time.Now()},
	}
	target := upload.Target{URL: ts.URL + "/upload/files/v1/things?name=auto.bin", ContentType: "application/octet-stream"}
	if _, err := up.Upload(context.Background(), target, memSource(file), upload.Resumable, nil, nil); err != nil {
		t.Fatalf("upload failed: %v", err)
	}
	objects := srv.Objects()
	if len(objects) != 1 || objects[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("the emulator holds %+v, want the file", objects)
	}
	if cuts.Count() != 3 {
		t.Fatalf("%d cuts happened, want 3", cuts.Count())
	}

	var at int64 // where the server last said it stands
	var chunks, grown, shrunk int
	var prev *rangeExchange
	for i, x := range log.all() {
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
				grown++
			case prev.rangeHeader == "" && !prev.answered:
				// Cut: the next is at most half as big (at least 256 KiB), or the rest.
				if x.n > max(prev.n/2, upload.ChunkAlign) && x.first+x.n != x.total {
					t.Errorf("request %d carries %d bytes after a cut one of %d", i, x.n, prev.n)
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
	if first := log.all(); len(first) == 0 || !first[0].chunk || first[0].n != upload.ChunkAlign {
		t.Errorf("the first request is %+v, want 256 KiB of bytes", first)
	}
}
