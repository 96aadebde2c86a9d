//go:build !((linux || freebsd || netbsd || openbsd || dragonfly) && !wayland && !android)

// Package display says whether a desktop is there for the window to open
// on, before the toolkit is started (it cannot say so itself).
package display

// Found reports whether the window can be opened: on Windows and
// macOS a desktop is always there; a Wayland build leaves it to the toolkit.
func Found(func(string) string) bool { return true }
