package engine

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"hoist/engine/upload"
)

// DefaultTransport is tuned for large bodies: big writes so a chunk streams
// from the file to the socket in few system calls.
func DefaultTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = 256 << 10
	t.ReadBufferSize = 64 << 10
	t.MaxIdleConnsPerHost = 16
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &bodyConn{Conn: c}, nil
	}
	return t
}

// bodyWrite is the size of the writes that carry a request body.
const bodyWrite = 256 << 10

var bodyBuffers = sync.Pool{New: func() any { b := make([]byte, bodyWrite); return &b }}

// bodyConn writes request bodies in bodyWrite steps. net/http hands a body to
// the connection's ReadFrom as soon as its write buffer is empty, bypassing
// that buffer, and a TCP connection's ReadFrom copies in 32 KiB steps.
type bodyConn struct{ net.Conn }

func (c *bodyConn) ReadFrom(r io.Reader) (int64, error) {
	bp := bodyBuffers.Get().(*[]byte)
	defer bodyBuffers.Put(bp)
	// Hide ReadFrom and WriteTo so that CopyBuffer uses this buffer.
	return io.CopyBuffer(struct{ io.Writer }{c.Conn}, struct{ io.Reader }{r}, *bp)
}

// bandwidth caps the bytes per second of all uploads together.
type bandwidth struct {
	mu  sync.RWMutex
	lim *rate.Limiter // nil: no cap
}

// burst is the most bytes one read may take from the limiter at once.
const burst = 256 << 10

func newBandwidth(bps int64) *bandwidth {
	b := &bandwidth{}
	b.set(bps)
	return b
}

func (b *bandwidth) set(bps int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if bps <= 0 {
		b.lim = nil
		return
	}
	if b.lim == nil {
		b.lim = rate.NewLimiter(rate.Limit(bps), burst)
		return
	}
	b.lim.SetLimit(rate.Limit(bps))
}

func (b *bandwidth) limiter() *rate.Limiter {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.lim
}

// source wraps f so its reads wait for the cap. The context lives only as
// long as one run of one job: it is what makes a pause cut the wait short.
func (b *bandwidth) source(ctx context.Context, f sourceChecker) upload.Source {
	return &limitedSource{sourceChecker: f, b: b, ctx: ctx}
}

type sourceChecker interface {
	upload.Source
	upload.Checker
}

type limitedSource struct {
	sourceChecker
	b   *bandwidth
	ctx context.Context
}

func (s *limitedSource) ReadAt(p []byte, off int64) (int, error) {
	lim := s.b.limiter()
	if lim == nil {
		return s.sourceChecker.ReadAt(p, off)
	}
	for left := len(p); left > 0; left -= burst {
		if err := lim.WaitN(s.ctx, min(left, burst)); err != nil {
			return 0, err
		}
	}
	return s.sourceChecker.ReadAt(p, off)
}
