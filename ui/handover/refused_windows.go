package handover

import (
	"errors"

	"golang.org/x/sys/windows"
)

// isRefused reports a channel nobody listens on (left by a crashed window).
func isRefused(err error) bool { return errors.Is(err, windows.WSAECONNREFUSED) }
