package harness

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// faultProxy is a TCP proxy between a client and the emulator. It can add a
// delay before every request (latency) and cut the client's connection each
// time another cutEvery bytes have gone from clients to the server (faults).
// Requests are told apart the way HTTP/1.1 without pipelining allows: bytes
// from the client after bytes from the server start a new request. Location
// headers point back at the proxy because the emulator builds them from the
// Host header, which the proxy does not touch.
type faultProxy struct {
	URL    string
	ln     net.Listener
	target string

	mu        sync.Mutex
	cutEvery  int64
	latency   time.Duration
	forwarded int64 // bytes from clients to the server since set
	nextCut   int64
	cuts      int
	requests  int
	cutAt     time.Time
	afterCut  bool          // a cut happened and no request has come since
	waits     time.Duration // from each cut to the client's next request
	conns     map[*proxyConn]struct{}
	wg        sync.WaitGroup
	pace      *pacer        // nil: no bandwidth limit from clients to the server
	delay     time.Duration // one way, every write, both directions
}

// proxyStats is what the proxy saw of one run.
type proxyStats struct {
	Forwarded int64
	Cuts      int
	Requests  int
	Waits     time.Duration
}

func startProxy(target string) (*faultProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &faultProxy{URL: "http://" + ln.Addr().String(), ln: ln, target: target, conns: map[*proxyConn]struct{}{}}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		p.accept()
	}()
	return p, nil
}

// close stops listening, closes every connection and waits for their goroutines.
func (p *faultProxy) close() {
	_ = p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

// set chooses the faults of the next run and resets the counters.
func (p *faultProxy) set(cutEvery int64, latency time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cutEvery, p.latency = cutEvery, latency
	p.forwarded, p.nextCut, p.cuts, p.requests, p.waits, p.afterCut = 0, cutEvery, 0, 0, 0, false
}

// setLink makes the connections opened from now on a link of bps bytes per
// second from clients to the server (0: unlimited, shared by every
// connection) on which every write arrives delay later, both ways.
func (p *faultProxy) setLink(bps int64, delay time.Duration) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pace, p.delay = nil, delay
	if bps > 0 {
		p.pace = &pacer{bps: float64(bps)}
	}
}

func (p *faultProxy) stats() proxyStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	return proxyStats{Forwarded: p.forwarded, Cuts: p.cuts, Requests: p.requests, Waits: p.waits}
}

func (p *faultProxy) accept() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		u, err := net.Dial("tcp", p.target)
		if err != nil {
			_ = c.Close()
			continue
		}
		pc := &proxyConn{client: c, server: u, up: u, down: c}
		pc.answered.Store(true)
		p.mu.Lock()
		if p.pace != nil || p.delay > 0 {
			pc.upLink, pc.downLink = newLinkWriter(u, p.pace, p.delay), newLinkWriter(c, nil, p.delay)
			pc.up, pc.down = pc.upLink, pc.downLink
		}
		p.conns[pc] = struct{}{}
		p.mu.Unlock()
		p.wg.Add(2)
		go func() {
			defer p.wg.Done()
			p.upstream(pc)
			pc.close()
			p.mu.Lock()
			delete(p.conns, pc)
			p.mu.Unlock()
		}()
		go func() {
			defer p.wg.Done()
			p.downstream(pc)
		}()
	}
}

type proxyConn struct {
	client, server net.Conn
	up, down       io.Writer   // to the server, to the client
	upLink         *linkWriter // set on a far or slow link
	downLink       *linkWriter
	answered       atomic.Bool // the server sent bytes since the client last did
	once           sync.Once
}

func (c *proxyConn) close() {
	c.once.Do(func() {
		if c.upLink != nil {
			c.upLink.close()
			c.downLink.close()
		}
		_ = c.client.Close()
		_ = c.server.Close()
	})
}

// closeWrite closes the writing side of w's connection (after its delay on a link).
func closeWrite(l *linkWriter, c net.Conn) {
	if l != nil {
		l.CloseWrite()
		return
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}

// upstream forwards the client's bytes, delaying each request and cutting
// the connection at the proxy's next cut.
func (p *faultProxy) upstream(c *proxyConn) {
	buf := make([]byte, 256<<10)
	for {
		n, err := c.client.Read(buf)
		if n > 0 {
			if c.answered.Swap(false) {
				if !p.newRequest() {
					return
				}
			}
			data := buf[:n]
			for len(data) > 0 {
				k, cut := p.take(int64(len(data)))
				if k > 0 {
					if _, werr := c.up.Write(data[:k]); werr != nil {
						return
					}
				}
				if cut {
					return // the caller closes both sides; the client sees a reset
				}
				data = data[k:]
			}
		}
		if err != nil {
			closeWrite(c.upLink, c.server)
			return
		}
	}
}

// newRequest counts a request, notes the wait since a cut, and applies the
// latency; false when the proxy is closing.
func (p *faultProxy) newRequest() bool {
	p.mu.Lock()
	p.requests++
	if p.afterCut {
		p.waits += time.Since(p.cutAt)
		p.afterCut = false
	}
	latency := p.latency
	p.mu.Unlock()
	if latency > 0 {
		time.Sleep(latency)
	}
	return true
}

// take reserves up to n bytes to forward; cut says the connection must be
// cut once the k bytes are written.
func (p *faultProxy) take(n int64) (k int64, cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cutEvery <= 0 {
		p.forwarded += n
		return n, false
	}
	left := p.nextCut - p.forwarded
	k = min(n, left)
	p.forwarded += k
	if p.forwarded == p.nextCut {
		p.nextCut += p.cutEvery
		p.cuts++
		p.cutAt, p.afterCut = time.Now(), true
		return k, true
	}
	return k, false
}

// downstream forwards the server's answers.
func (p *faultProxy) downstream(c *proxyConn) {
	buf := make([]byte, 64<<10)
	for {
		n, err := c.server.Read(buf)
		if n > 0 {
			c.answered.Store(true)
			if _, werr := c.down.Write(buf[:n]); werr != nil {
				c.close()
				return
			}
		}
		if err != nil {
			closeWrite(c.downLink, c.client)
			return
		}
	}
}
