//go:build windows || darwin

package auth

import "errors"

// openWithPortal is for Linux and BSD desktops only.
func openWithPortal(string) error { return errors.New("no desktop portal on this system") }
