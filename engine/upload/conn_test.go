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

// A TLSConn sends a body's TLS records in writes of 256 KiB, not one write
// per 16 KiB record, and the server reads exactly the bytes sent, whether
// they come through Write or ReadFrom (net/http's path for bodies).
func TestTLSConnGathersRecords(t *testing.T) {
	ca, err := emulator.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", ca.ServerConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan []byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- nil
			return
		}
		defer c.Close()
		h := sha256.New()
		_, _ = io.Copy(h, c)
		_, _ = c.Write([]byte("ok"))
		got <- h.Sum(nil)
	}()

	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingConn{Conn: raw}
	c := upload.ClientTLS(counted, &tls.Config{RootCAs: ca.Pool(), ServerName: "127.0.0.1"})
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
