package upload

import (
	"bytes"
	"crypto/rand"
	"errors"
	"hash/crc32"
	"io"
	"sync"
	"sync/atomic"
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

// countingReaderAt fails the test when the file is read after the request
// is over.
type countingReaderAt struct {
	t    *testing.T
	src  io.ReaderAt
	over atomic.Bool
}

func (c *countingReaderAt) ReadAt(b []byte, off int64) (int, error) {
	if c.over.Load() {
		c.t.Error("the file was read after the request was over")
	}
	return c.src.ReadAt(b, off)
}

// TestPayloadWritesItself writes bodies through WriteTo, after reading a
// first part of them through Read as net/http does, and checks the bytes,
// the end of the body, the progress and the sum of the file's bytes.
func TestPayloadWritesItself(t *testing.T) {
	file := make([]byte, 3*sendBlock+12345)
	if _, err := rand.Read(file); err != nil {
		t.Fatal(err)
	}
	head, tail := []byte("--b\r\n\r\n{}\r\n--b\r\n\r\n"), []byte("\r\n--b--\r\n")
	for _, tc := range []struct {
		name       string
		head, tail []byte
		off, n     int64
		pre        int // bytes read through Read first
	}{
		{name: "whole file", n: int64(len(file))},
		{name: "whole file after a first read", n: int64(len(file)), pre: sendBlock - 300},
		{name: "section", off: 2 * sendBlock, n: sendBlock + 5},
		{name: "framed", head: head, tail: tail, n: int64(len(file)), pre: 3},
		{name: "framed, head read", head: head, tail: tail, n: int64(len(file)), pre: len(head)},
		{name: "framed, section read", head: head, tail: tail, n: int64(len(file)), pre: len(head) + int(file[0])},
		{name: "framing only", head: head, tail: tail},
	} {
		log := &sentLog{}
		var sum fileSum
		p := &payload{src: bytes.NewReader(file), off: tc.off, n: tc.n, head: tc.head, tail: tc.tail, obs: log, sum: &sum}
		want := append(append(append([]byte{}, tc.head...), file[tc.off:tc.off+tc.n]...), tc.tail...)
		r := p.open().(*payloadReader)
		got := make([]byte, tc.pre)
		if _, err := io.ReadFull(r, got); err != nil {
			t.Fatalf("%s: first read: %v", tc.name, err)
		}
		if r.Len() != int64(len(want)-tc.pre) {
			t.Fatalf("%s: Len %d after %d of %d bytes", tc.name, r.Len(), tc.pre, len(want))
		}
		var rest bytes.Buffer
		n, err := r.WriteTo(&rest)
		got = append(got, rest.Bytes()...)
		if err != nil || n != int64(rest.Len()) || !bytes.Equal(got, want) {
			t.Fatalf("%s: WriteTo = %d, %v; body equal: %v", tc.name, n, err, bytes.Equal(got, want))
		}
		if r.Len() != 0 {
			t.Fatalf("%s: Len %d after the whole body", tc.name, r.Len())
		}
		if delivered, handed, srcErr := p.detach(); !delivered || handed != tc.off+tc.n || srcErr != nil {
			t.Fatalf("%s: detach = %v, %d, %v", tc.name, delivered, handed, srcErr)
		}
		if tc.n > 0 && log.sent[len(log.sent)-1] != tc.off+tc.n {
			t.Fatalf("%s: progress ended at %d, want %d", tc.name, log.sent[len(log.sent)-1], tc.off+tc.n)
		}
		for i := 1; i < len(log.sent); i++ {
			if log.sent[i] <= log.sent[i-1] {
				t.Fatalf("%s: progress %v does not move forward", tc.name, log.sent)
			}
		}
		if tc.off == 0 && tc.n > 0 {
			crc, err := sum.crc32c(bytes.NewReader(file[:tc.n]))
			if err != nil || crc != crc32.Checksum(file[:tc.n], crcTable) {
				t.Fatalf("%s: sum %08x, %v; want %08x", tc.name, crc, err, crc32.Checksum(file[:tc.n], crcTable))
			}
		}
	}
}

func TestPayloadWriteToFileShorterThanQueued(t *testing.T) {
	p := &payload{src: bytes.NewReader(make([]byte, sendBlock+10)), n: 2 * sendBlock, obs: nopObserver{}}
	var got bytes.Buffer
	n, err := p.open().(*payloadReader).WriteTo(&got)
	if !errors.Is(err, ErrFileChanged) || n != sendBlock {
		t.Fatalf("WriteTo = %d, %v; want the first block, then a file-changed error", n, err)
	}
	if delivered, _, srcErr := p.detach(); delivered || !errors.Is(srcErr, ErrFileChanged) {
		t.Fatalf("detach = %v, %v; want not delivered and the file-changed error", delivered, srcErr)
	}
}

// detachingWriter ends the request, as a returning Do does, once it has
// taken its first bytes.
type detachingWriter struct {
	p   *payload
	src *countingReaderAt
	n   int
}

func (w *detachingWriter) Write(b []byte) (int, error) {
	w.n += len(b)
	w.p.detach()
	w.src.over.Store(true)
	return len(b), nil
}

// TestPayloadWriteToEndsWithTheRequest: once detach returns, a body writing
// itself reads no more of the file, reports no more progress and stops.
func TestPayloadWriteToEndsWithTheRequest(t *testing.T) {
	src := &countingReaderAt{t: t, src: bytes.NewReader(make([]byte, 8*sendBlock))}
	log := &sentLog{}
	p := &payload{src: src, n: 8 * sendBlock, obs: log}
	w := &detachingWriter{p: p, src: src}
	n, err := p.open().(*payloadReader).WriteTo(w)
	if !errors.Is(err, errDetached) || n != sendBlock || w.n != sendBlock {
		t.Fatalf("WriteTo = %d, %v after writing %d; want one block and the request-is-over error", n, err, w.n)
	}
	if len(log.sent) != 1 || log.sent[0] != sendBlock {
		t.Fatalf("progress %v; want only the first block's, reported before it was written", log.sent)
	}
}

// failingWriter takes limit bytes, then fails like a broken connection.
type failingWriter struct{ limit int }

var errBroken = errors.New("connection broke")

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) > w.limit {
		n := w.limit
		w.limit = 0
		return n, errBroken
	}
	w.limit -= len(b)
	return len(b), nil
}

func TestPayloadWriteToConnectionBreaks(t *testing.T) {
	log := &sentLog{}
	p := &payload{src: bytes.NewReader(make([]byte, 8*sendBlock)), n: 8 * sendBlock, obs: log}
	n, err := p.open().(*payloadReader).WriteTo(&failingWriter{limit: 2*sendBlock + 7})
	if !errors.Is(err, errBroken) || n != 2*sendBlock+7 {
		t.Fatalf("WriteTo = %d, %v; want %d bytes and the connection's error", n, err, 2*sendBlock+7)
	}
	// The block the connection broke in was handed to it whole.
	if delivered, handed, _ := p.detach(); delivered || handed != 3*sendBlock {
		t.Fatalf("detach = %v, %d; want not delivered, %d handed", delivered, handed, 3*sendBlock)
	}
}
