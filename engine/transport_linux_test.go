package engine_test

import (
	"context"
	"net"
	"net/http"
	"testing"

	"golang.org/x/sys/unix"

	"hoist/engine"
)

// Every connection the transports dial keeps its queue of bytes not yet
// sent short (TCP_NOTSENT_LOWAT) instead of the system's unlimited default.
func TestTransportsKeepTheSendQueueShort(t *testing.T) {
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
			defer c.Close()
		}
	}()
	for name, tr := range map[string]*http.Transport{
		"HTTP/1.1": engine.DefaultTransport(),
		"HTTP/2":   engine.HTTP2Transport(),
	} {
		c, err := tr.DialContext(context.Background(), "tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
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
		if got <= 0 || got > 1<<20 {
			t.Errorf("%s: TCP_NOTSENT_LOWAT = %d, want a limit of at most 1 MiB", name, got)
		}
		c.Close()
	}
}
