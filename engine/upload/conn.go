package upload

import (
	"io"
	"net"
	"sync"
)

// Conn is a connection that sends request bodies well. net/http hands a
// body to the connection's ReadFrom as soon as its write buffer is empty,
// bypassing that buffer, and a TCP connection's ReadFrom copies in 32 KiB
// steps. Conn lets an upload's body write itself instead (it reads and sums
// the file on another goroutine while this one writes), and copies any
// other body in sendBlock steps.
type Conn struct{ net.Conn }

// NetConn is the connection underneath, as tls.Conn names it: the stall
// watch asks it what the peer acknowledged.
func (c *Conn) NetConn() net.Conn { return c.Conn }

// ReadFrom writes r to the connection.
func (c *Conn) ReadFrom(r io.Reader) (int64, error) {
	if n, ok, err := sendBody(c.Conn, r); ok {
		return n, err
	}
	bp := sendBlocks.Get().(*[]byte)
	defer sendBlocks.Put(bp)
	// Hide ReadFrom and WriteTo so that CopyBuffer uses this buffer.
	return io.CopyBuffer(struct{ io.Writer }{c.Conn}, struct{ io.Reader }{r}, *bp)
}

// sendBody writes r to conn when r is what net/http hands ReadFrom for a
// body that writes itself, such as an upload's: the body, limited to
// exactly what is left of it. ok is false, with nothing written, for any
// other r.
func sendBody(conn io.Writer, r io.Reader) (n int64, ok bool, err error) {
	lr, limited := r.(*io.LimitedReader)
	if !limited {
		return 0, false, nil
	}
	body, writes := lr.R.(interface {
		io.WriterTo
		Len() int64
	})
	if !writes || body.Len() != lr.N {
		return 0, false, nil
	}
	n, err = body.WriteTo(conn)
	lr.N -= n
	return n, true, err
}

// sendBlock is the size of the writes that carry a request body, and of the
// file's reads when an upload's body writes itself.
const sendBlock = 256 << 10

var sendBlocks = sync.Pool{New: func() any { b := make([]byte, sendBlock); return &b }}
