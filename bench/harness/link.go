package harness

import (
	"net"
	"sync"
	"time"
)

// pacer shares a bandwidth among every connection through the proxy: each
// write waits its turn, first come first served, so connections that write
// alike get alike shares.
type pacer struct {
	mu   sync.Mutex
	bps  float64
	next time.Time // when the link is free again
}

func (p *pacer) wait(n int) {
	p.mu.Lock()
	// A writer that overslept its turn does not cost the link its time: the
	// link counts as busy up to burstTime back (a token bucket that holds
	// burstTime of bytes), so only real idleness goes unused.
	now := time.Now()
	start := p.next
	if start.Before(now.Add(-burstTime)) {
		start = now.Add(-burstTime)
	}
	p.next = start.Add(time.Duration(float64(n) / p.bps * float64(time.Second)))
	done := p.next
	p.mu.Unlock()
	time.Sleep(time.Until(done))
}

// burstTime bounds the credit a link keeps for time its writers overslept.
const burstTime = 20 * time.Millisecond

// slice is the most bytes one write takes from the pacer at once, so that
// connections take turns finely.
const slice = 16 << 10

// linkWriter writes to a connection as a far or slow link would: at most the
// pacer's bandwidth (shared with other connections), and each write arriving
// delay after it was made, without holding up the writes behind it (the
// delay of a packet, not of a request).
type linkWriter struct {
	conn  net.Conn
	pace  *pacer // nil: no bandwidth limit
	delay time.Duration

	q    chan delayed
	stop chan struct{}
	once sync.Once
	mu   sync.Mutex
	err  error
}

type delayed struct {
	data []byte
	due  time.Time
	eof  bool // close the connection's writing side
}

func newLinkWriter(c net.Conn, pace *pacer, delay time.Duration) *linkWriter {
	w := &linkWriter{conn: c, pace: pace, delay: delay, q: make(chan delayed, 4096), stop: make(chan struct{})}
	go w.drain()
	return w
}

func (w *linkWriter) drain() {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		var d delayed
		select {
		case d = <-w.q:
		case <-w.stop:
			return
		}
		if wait := time.Until(d.due); wait > 0 {
			t.Reset(wait)
			select {
			case <-t.C:
			case <-w.stop:
				return
			}
		}
		if d.eof {
			if tc, ok := w.conn.(*net.TCPConn); ok {
				_ = tc.CloseWrite()
			}
			continue
		}
		if _, err := w.conn.Write(d.data); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
		}
	}
}

func (w *linkWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	err := w.err
	w.mu.Unlock()
	if err != nil {
		return 0, err
	}
	for off := 0; off < len(p); off += slice {
		part := p[off:min(off+slice, len(p))]
		if w.pace != nil {
			w.pace.wait(len(part))
		}
		select {
		case w.q <- delayed{data: append([]byte(nil), part...), due: time.Now().Add(w.delay)}:
		case <-w.stop:
			return off, net.ErrClosed
		}
	}
	return len(p), nil
}

// CloseWrite closes the writing side once what was written before has arrived.
func (w *linkWriter) CloseWrite() {
	select {
	case w.q <- delayed{eof: true, due: time.Now().Add(w.delay)}:
	case <-w.stop:
	}
}

// close stops the writer; what has not arrived yet is lost, as on a cut link.
func (w *linkWriter) close() { w.once.Do(func() { close(w.stop) }) }
