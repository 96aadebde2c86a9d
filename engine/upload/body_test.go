package upload

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"
)

// sentLog keeps every offset reported through Sent.
type sentLog struct {
	nopObserver
	mu   sync.Mutex
	sent []int64
}

func (l *sentLog) Sent(off int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sent = append(l.sent, off)
}

// TestPayloadReadsFramingAndSection reads bodies in every small read size
// and checks the bytes, the end of the body and the progress reported.
func TestPayloadReadsFramingAndSection(t *testing.T) {
	file := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	for _, tc := range []struct {
		name       string
		head, tail []byte
		off, n     int64
	}{
		{name: "raw section", off: 5, n: 20},
		{name: "whole file", n: int64(len(file))},
		{name: "framed", head: []byte("--b\r\n\r\n{}\r\n--b\r\n\r\n"), tail: []byte("\r\n--b--\r\n"), off: 0, n: int64(len(file))},
		{name: "framing only", head: []byte(`{"name":"x"}`)},
	} {
		for size := 1; size <= 8; size++ {
			log := &sentLog{}
			p := &payload{src: bytes.NewReader(file), off: tc.off, n: tc.n, head: tc.head, tail: tc.tail, obs: log}
			want := append(append(append([]byte{}, tc.head...), file[tc.off:tc.off+tc.n]...), tc.tail...)
			got, err := io.ReadAll(struct{ io.Reader }{&oneReadSize{r: p.open(), size: size}})
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s, reads of %d: got %q, %v; want %q", tc.name, size, got, err, want)
			}
			if int64(len(want)) != p.length() {
				t.Fatalf("%s: length %d, body %d bytes", tc.name, p.length(), len(want))
			}
			if delivered, _, srcErr := p.detach(); !delivered || srcErr != nil {
				t.Fatalf("%s: detach = %v, %v", tc.name, delivered, srcErr)
			}
			if tc.n > 0 {
				last := log.sent[len(log.sent)-1]
				if last != tc.off+tc.n {
					t.Fatalf("%s, reads of %d: progress ended at %d, want %d", tc.name, size, last, tc.off+tc.n)
				}
				for i := 1; i < len(log.sent); i++ {
					if log.sent[i] <= log.sent[i-1] {
						t.Fatalf("%s: progress %v does not move forward", tc.name, log.sent)
					}
				}
			} else if len(log.sent) != 0 {
				t.Fatalf("%s: progress %v reported without file bytes", tc.name, log.sent)
			}
		}
	}
}

type oneReadSize struct {
	r    io.Reader
	size int
}

func (o *oneReadSize) Read(b []byte) (int, error) { return o.r.Read(b[:min(len(b), o.size)]) }

func TestPayloadFileShorterThanQueued(t *testing.T) {
	p := &payload{src: bytes.NewReader(make([]byte, 10)), n: 20, head: []byte("h"), obs: nopObserver{}}
	_, err := io.ReadAll(p.open())
	if !errors.Is(err, ErrFileChanged) {
		t.Fatalf("err %v, want a file-changed error", err)
	}
	if delivered, _, srcErr := p.detach(); delivered || !errors.Is(srcErr, ErrFileChanged) {
		t.Fatalf("detach = %v, %v; want not delivered and the file-changed error", delivered, srcErr)
	}
	if _, err := p.open().Read(make([]byte, 4)); !errors.Is(err, errDetached) {
		t.Fatalf("read after detach: %v, want the request-is-over error", err)
	}
}
