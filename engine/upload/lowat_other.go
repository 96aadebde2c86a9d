//go:build !linux && !darwin

package upload

import "syscall"

// KeepSendQueueShort does nothing where the system has no limit on the
// bytes waiting unsent in a socket (see the Linux and macOS version).
func KeepSendQueueShort(network, address string, c syscall.RawConn) error { return nil }
