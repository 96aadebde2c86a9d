package upload_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"hoist/engine/emulator"
	"hoist/engine/upload"
)

// countingConn counts the writes that reach the socket.
type countingConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.writes++
	c.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *countingConn) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writes
}

// tlsPeer serves one TLS connection on loopback with a certificate of an
// authority made for the test, handing it to serve, and returns a plain TCP
// connection to it and the client configuration that trusts it.
func tlsPeer(t *testing.T, serve func(net.Conn)) (net.Conn, *tls.Config) {
	t.Helper()
	ca, err := emulator.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", ca.ServerConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		serve(c)
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw, &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"}
}

// A TLSConn sends a body's TLS records in writes of 256 KiB, not one write
// per 16 KiB record, and the server reads exactly the bytes sent, whether
// they come through Write or ReadFrom (net/http's path for bodies).
func TestTLSConnGathersRecords(t *testing.T) {
	got := make(chan []byte, 1)
	raw, cfg := tlsPeer(t, func(c net.Conn) {
		h := sha256.New()
		_, _ = io.Copy(h, c)
		_, _ = c.Write([]byte("ok"))
		got <- h.Sum(nil)
	})
	counted := &countingConn{Conn: raw}
	c := upload.ClientTLS(counted, cfg)
	defer c.Close()
	if err := c.HandshakeContext(t.Context()); err != nil {
		t.Fatal(err)
	}
	const size = 4<<20 + 1000
	body := make([]byte, size)
	_, _ = rand.Read(body)
	handshake := counted.count()

	if n, err := c.Write(body[:1<<20]); n != 1<<20 || err != nil {
		t.Fatalf("Write: %d, %v", n, err)
	}
	// io.Copy takes ReadFrom; bytes.Reader's WriteTo is hidden as net/http's body readers hide it.
	if n, err := io.Copy(c, struct{ io.Reader }{bytes.NewReader(body[1<<20:])}); n != size-1<<20 || err != nil {
		t.Fatalf("ReadFrom: %d, %v", n, err)
	}
	writes := counted.count() - handshake
	// 4 MiB in 16 KiB records is 257 records; in blocks of 256 KiB, 17 writes.
	if writes > 18 {
		t.Errorf("%d writes for %d bytes, want at most 18 (one per 256 KiB)", writes, size)
	}
	if err := c.CloseWrite(); err != nil {
		t.Fatal(err)
	}
	answer, err := io.ReadAll(c)
	if err != nil || string(answer) != "ok" {
		t.Fatalf("answer %q, %v", answer, err)
	}
	want := sha256.Sum256(body)
	if sum := <-got; !bytes.Equal(sum, want[:]) {
		t.Errorf("the server read other bytes than were sent")
	}
}

// stallConn passes writes on until stalled; then a write blocks, as on a
// link that stopped, until the connection is closed.
type stallConn struct {
	net.Conn
	mu      sync.Mutex
	stalled bool
	later   int           // writes tried after the first blocked one
	blocked chan struct{} // closed when a write first blocks
	closed  chan struct{}
	once    sync.Once
}

func (s *stallConn) Write(p []byte) (int, error) {
	s.mu.Lock()
	if !s.stalled {
		s.mu.Unlock()
		return s.Conn.Write(p)
	}
	first := s.blocked != nil
	if first {
		close(s.blocked)
		s.blocked = nil
	} else {
		s.later++
	}
	s.mu.Unlock()
	<-s.closed
	return 0, net.ErrClosed
}

func (s *stallConn) Close() error {
	s.once.Do(func() { close(s.closed) })
	return s.Conn.Close()
}

// Closing a TLSConn whose write is stuck on a stalled link breaks the write
// at once, as a tls.Conn's Close does: it does not wait to send the closing
// alert behind the stuck bytes (a pause or the stall watch closes the
// connection this way).
func TestTLSConnCloseBreaksAStuckWrite(t *testing.T) {
	raw, cfg := tlsPeer(t, func(c net.Conn) { _, _ = io.Copy(io.Discard, c) })
	stall := &stallConn{Conn: raw, blocked: make(chan struct{}), closed: make(chan struct{})}
	blocked := stall.blocked
	c := upload.ClientTLS(stall, cfg)
	if err := c.HandshakeContext(t.Context()); err != nil {
		t.Fatal(err)
	}
	stall.mu.Lock()
	stall.stalled = true
	stall.mu.Unlock()
	wrote := make(chan error, 1)
	go func() {
		_, err := c.Write(make([]byte, 1<<20))
		wrote <- err
	}()
	<-blocked
	closed := make(chan error, 1)
	go func() { closed <- c.Close() }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		stall.Close() // let the test end
		t.Fatal("Close waited behind the stuck write")
	}
	if err := <-wrote; err == nil {
		t.Error("the stuck write reported success after Close")
	}
	stall.mu.Lock()
	defer stall.mu.Unlock()
	if stall.later > 0 {
		t.Errorf("%d writes were tried after the stuck one (a closing alert behind it)", stall.later)
	}
	if _, err := c.Write([]byte("more")); err == nil {
		t.Error("a write after the failed one reported success")
	}
}
