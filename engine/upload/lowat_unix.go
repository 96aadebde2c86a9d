//go:build linux || darwin

package upload

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// KeepSendQueueShort is a net.Dialer's Control that lets at most
// unsentLimit bytes wait in a socket's send queue beyond those on their way
// (TCP_NOTSENT_LOWAT). The link still has every byte it can carry in
// flight, while the bytes a write has handed over stay close to those that
// left: the kernel does not hold megabytes that a pause, a cut or the time
// left would have to account for, and on a loopback link the server's own
// reads are not made to push the client's queue out on the server's CPU.
func KeepSendQueueShort(network, address string, c syscall.RawConn) error {
	var serr error
	err := c.Control(func(fd uintptr) {
		serr = unix.SetsockoptInt(int(fd), unix.IPPROTO_TCP, unix.TCP_NOTSENT_LOWAT, unsentLimit)
	})
	if err != nil {
		return err
	}
	return serr
}
