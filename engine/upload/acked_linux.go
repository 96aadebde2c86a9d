package upload

import (
	"net"

	"golang.org/x/sys/unix"
)

// ackedBytes returns a probe of the bytes the peer has acknowledged on
// conn (tcpi_bytes_acked), or nil when conn is not a TCP socket.
func ackedBytes(conn net.Conn) func() (uint64, bool) {
	raw, ok := socket(conn)
	if !ok {
		return nil
	}
	return func() (uint64, bool) {
		var info *unix.TCPInfo
		var infoErr error
		err := raw.Control(func(fd uintptr) {
			info, infoErr = unix.GetsockoptTCPInfo(int(fd), unix.SOL_TCP, unix.TCP_INFO)
		})
		if err != nil || infoErr != nil {
			return 0, false
		}
		return info.Bytes_acked, true
	}
}
