//go:build !((linux || freebsd || netbsd || openbsd || dragonfly) && !wayland && !android)

package ui

// desktopFound reports whether the window can be opened: on Windows and
// macOS a desktop is always there; a Wayland build leaves it to the toolkit.
func desktopFound(func(string) string) bool { return true }
