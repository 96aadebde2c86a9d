//go:build !linux && !darwin

package upload

import "net"

// KeepSendQueueShort does nothing where the system has no limit on the
// bytes waiting unsent in a socket (see the Linux and macOS version).
func KeepSendQueueShort(net.Conn) {}
