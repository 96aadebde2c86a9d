//go:build (linux || freebsd || netbsd || openbsd || dragonfly) && !wayland && !android

// Package display says whether a desktop is there for the window to open
// on, before the toolkit is started (it cannot say so itself).
package display

import (
	"net"
	"strconv"
	"strings"
	"time"
)

// Found reports whether an X server answers at $DISPLAY, where the
// window toolkit will open its window. Without one the toolkit does not
// start, and its first call stops the program with a stack trace: over
// SSH, in a text console, or in a session whose display is gone.
func Found(getenv func(string) string) bool {
	display := getenv("DISPLAY")
	if display == "" {
		return false
	}
	host, rest, ok := strings.Cut(display, ":")
	if !ok || strings.HasPrefix(rest, ":") { // DECnet ("host::0"): leave it to the toolkit
		return true
	}
	number, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(number)
	if err != nil || n < 0 {
		return true // a form this check does not know: leave it to the toolkit
	}
	const wait = 2 * time.Second
	try := func(network, address string) bool {
		c, err := net.DialTimeout(network, address, wait)
		if err != nil {
			return false
		}
		_ = c.Close()
		return true
	}
	if host == "" || host == "unix" {
		socket := "/tmp/.X11-unix/X" + number
		return try("unix", "@"+socket) || try("unix", socket)
	}
	return try("tcp", net.JoinHostPort(host, strconv.Itoa(6000+n)))
}
