package engine_test

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/sys/unix"

	"hoist/engine"
	"hoist/engine/emulator"
)

// An HTTPS connection of the default transport, whose TLS records leave in
// large gathered writes, keeps its queue of bytes not yet sent short
// (TCP_NOTSENT_LOWAT); a plain one, whose 256 KiB writes need
// no such limit, keeps the system's default.
func TestTLSConnectionsKeepTheSendQueueShort(t *testing.T) {
	ca, err := emulator.NewAuthority()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.TLS = ca.ServerConfig()
	srv.StartTLS()
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	tr := engine.DefaultTransport()
	tr.TLSClientConfig = &tls.Config{RootCAs: ca.Pool()}
	tlsConn, err := tr.DialTLSContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer tlsConn.Close()
	plain, err := tr.DialContext(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()

	if got := unsentLowWater(t, tlsConn); got <= 0 || got > 1<<20 {
		t.Errorf("HTTPS: TCP_NOTSENT_LOWAT = %d, want a limit of at most 1 MiB", got)
	}
	if got := unsentLowWater(t, plain); got != 0 {
		t.Errorf("plain HTTP: TCP_NOTSENT_LOWAT = %d, want none set (the system's default)", got)
	}
}

func unsentLowWater(t *testing.T, c net.Conn) int {
	t.Helper()
	for {
		u, ok := c.(interface{ NetConn() net.Conn })
		if !ok {
			break
		}
		c = u.NetConn()
	}
	raw, err := c.(*net.TCPConn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var got int
	var gerr error
	if err := raw.Control(func(fd uintptr) {
		got, gerr = unix.GetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_NOTSENT_LOWAT)
	}); err != nil || gerr != nil {
		t.Fatal(err, gerr)
	}
	return got
}
