package upload

import (
	"io"
	"net"
	"sync"
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
	bp := sendBlocks.Get().(*[]byte)
	defer sendBlocks.Put(bp)
	// Hide ReadFrom and WriteTo so that CopyBuffer uses this buffer.
	return io.CopyBuffer(struct{ io.Writer }{c.Conn}, struct{ io.Reader }{r}, *bp)
}

// sendBlock is the size of the writes that carry a request body.
const sendBlock = 256 << 10

var sendBlocks = sync.Pool{New: func() any { b := make([]byte, sendBlock); return &b }}
