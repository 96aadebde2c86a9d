package upload

import (
	"crypto/tls"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
)

// Conn is a connection that sends request bodies in large writes, so a
// chunk streams from the file to the socket in few system calls. net/http
// hands a body to the connection's ReadFrom as soon as its write buffer is
// empty, bypassing that buffer, and a TCP connection's ReadFrom copies in
// 32 KiB steps.
type Conn struct{ net.Conn }

// NetConn is the connection underneath, as tls.Conn names it: the stall
// watch asks it what the peer acknowledged.
func (c *Conn) NetConn() net.Conn { return c.Conn }

// ReadFrom writes r to the connection in sendBlock steps.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	return copyBlocks(c.Conn, r)
}

// copyBlocks copies r to w in sendBlock steps.
func copyBlocks(w io.Writer, r io.Reader) (int64, error) {
	bp := sendBlocks.Get().(*[]byte)
	defer sendBlocks.Put(bp)
	// Hide ReadFrom and WriteTo so that CopyBuffer uses this buffer.
	return io.CopyBuffer(struct{ io.Writer }{w}, struct{ io.Reader }{r}, *bp)
}

// sendBlock is the size of the writes that carry a request body.
const sendBlock = 256 << 10

var sendBlocks = sync.Pool{New: func() any { b := make([]byte, sendBlock); return &b }}

// TLSConn is a TLS client connection that sends request bodies in large
// writes too. A tls.Conn writes every record (at most 16 KiB) to the socket
// in a system call of its own, 65,536 of them per GiB, each one a trip
// through the TCP stack of both ends; TLSConn gathers the records of up to
// sendBlock bytes into one write, and reads bodies in sendBlock steps.
type TLSConn struct {
	*tls.Conn
	out     *gatherConn
	wmu     sync.Mutex // one Write gathers at a time
	err     error      // a Write that failed fails every later one; under wmu
	writing atomic.Bool
}

// ClientTLS is tls.Client(conn, cfg) with its records written in blocks.
// The handshake has not happened yet.
func ClientTLS(conn net.Conn, cfg *tls.Config) *TLSConn {
	g := &gatherConn{Conn: conn}
	return &TLSConn{Conn: tls.Client(g, cfg), out: g}
}

// Write encrypts p and sends its records in writes of up to sendBlock bytes.
func (c *TLSConn) Write(p []byte) (int, error) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if c.err != nil {
		// The records the TLS layer counted as sent may not have left.
		return 0, c.err
	}
	c.writing.Store(true)
	defer c.writing.Store(false)
	var written int
	for len(p) > 0 {
		n := min(len(p), sendBlock)
		c.out.gather()
		m, err := c.Conn.Write(p[:n])
		if ferr := c.out.flush(); err == nil {
			err = ferr
		}
		written += m
		if err != nil {
			c.err = err
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// Close closes the connection. A Close while a Write is under way breaks
// the Write at once, as tls.Conn's does, rather than waiting to send the
// closing alert after it: a write blocked on a stalled link must not hold
// up a pause or the stall watch.
func (c *TLSConn) Close() error {
	if c.writing.Load() {
		return c.out.Conn.Close()
	}
	return c.Conn.Close()
}

// ReadFrom writes r to the connection in sendBlock steps.
func (c *TLSConn) ReadFrom(r io.Reader) (int64, error) { return copyBlocks(c, r) }

// gatherConn is the connection under a TLSConn: between gather and flush
// it keeps what the TLS layer writes, and sends it in one write at flush.
// Outside those, during the handshake or an alert, it writes at once.
type gatherConn struct {
	net.Conn
	mu  sync.Mutex
	on  bool
	buf *[]byte
}

// NetConn is the connection underneath (see Conn.NetConn).
func (g *gatherConn) NetConn() net.Conn { return g.Conn }

func (g *gatherConn) gather() {
	g.mu.Lock()
	g.on = true
	g.mu.Unlock()
}

func (g *gatherConn) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.on {
		// Whatever TLS writes outside a gathered Write (the handshake, a
		// reply to the peer's key update, the closing alert) goes out now,
		// after anything gathered before it.
		return g.Conn.Write(p)
	}
	if g.buf == nil {
		g.buf = gatherBufs.Get().(*[]byte)
		*g.buf = (*g.buf)[:0]
	}
	*g.buf = append(*g.buf, p...)
	return len(p), nil
}

// flush sends what was gathered and stops gathering.
func (g *gatherConn) flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.on = false
	if g.buf == nil {
		return nil
	}
	b := g.buf
	g.buf = nil
	_, err := g.Conn.Write(*b)
	gatherBufs.Put(b)
	return err
}

// gatherBufs hold the records of one sendBlock: its bytes and, for each
// record, a header, a content type and a tag (about 22 bytes per 16 KiB; a
// new connection's first records are smaller).
var gatherBufs = sync.Pool{New: func() any { b := make([]byte, 0, sendBlock+16<<10); return &b }}

// unsentLimit is how many bytes a socket may hold not yet sent beyond those
// in flight (see KeepSendQueueShort): half a sendBlock, so the next block is
// written while the last one is still leaving.
const unsentLimit = sendBlock / 2

// socket is the system's socket under conn and the wrappers around it
// (Conn, TLS), or false when there is none.
func socket(conn net.Conn) (syscall.RawConn, bool) {
	for {
		inner, ok := conn.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		conn = inner.NetConn()
	}
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return nil, false
	}
	raw, err := sc.SyscallConn()
	return raw, err == nil
}
