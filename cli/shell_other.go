//go:build !windows

package cli

// windowsShell is only asked on Windows.
func windowsShell() shell { return posixShell }
