//go:build !windows

package handover

import (
	"errors"
	"syscall"
)

// isRefused reports a channel nobody listens on (left by a crashed window).
func isRefused(err error) bool { return errors.Is(err, syscall.ECONNREFUSED) }
