package upload

import (
	"crypto/tls"
	"io"
	"net"
	"testing"
)

// TestAckedBytesThroughWrappers: the stall watch reads what the peer
// acknowledged through the connections uploads really use: Conn, TLS over
// Conn, and TLSConn (the default over HTTPS).
func TestAckedBytesThroughWrappers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	raw, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for name, conn := range map[string]net.Conn{
		"Conn":        &Conn{Conn: raw},
		"TLS on Conn": tls.Client(&Conn{Conn: raw}, &tls.Config{ServerName: "localhost"}), // no handshake is needed
		"TLSConn":     ClientTLS(&Conn{Conn: raw}, &tls.Config{ServerName: "localhost"}),
	} {
		probe := ackedBytes(conn)
		if probe == nil {
			t.Fatalf("%s: no probe of the acknowledged bytes", name)
		}
		if _, ok := probe(); !ok {
			t.Fatalf("%s: the probe cannot read the socket", name)
		}
	}
}
