//go:build linux || darwin

package upload

import (
	"net"

	"golang.org/x/sys/unix"
)

// KeepSendQueueShort lets at most unsentLimit bytes wait in conn's send
// queue beyond those on their way (TCP_NOTSENT_LOWAT), for a connection
// whose TLS records leave in large gathered writes (TLSConn). The link still
// has every byte it can carry in flight, while the kernel does not hold
// megabytes of a large write unsent: on a loopback link those would be sent
// from within the server's own reads, on the server's CPU. It only speeds
// things up, so a socket that refuses it is left as it is.
func KeepSendQueueShort(conn net.Conn) {
	if raw, ok := socket(conn); ok {
		_ = raw.Control(func(fd uintptr) {
			_ = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_NOTSENT_LOWAT, unsentLimit)
		})
	}
}
