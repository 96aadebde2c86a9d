//go:build !windows

package handover

import (
	"errors"
	"syscall"
)

// processEnded reports whether process pid has ended.
func processEnded(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
