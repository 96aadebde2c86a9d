//go:build !windows && !darwin

package auth

import (
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"
)

// openWithPortal asks the desktop's portal (xdg-desktop-portal, on the
// session bus) to open u in the default browser: how Hoist opens the
// browser where xdg-open is not installed.
func openWithPortal(u string) error {
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return fmt.Errorf("neither xdg-open nor the desktop's portal is there to open the browser: %w", err)
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop")
	call := obj.Go("org.freedesktop.portal.OpenURI.OpenURI", 0, nil, "", u, map[string]dbus.Variant{})
	select {
	case <-call.Done:
	case <-time.After(5 * time.Second):
		return fmt.Errorf("the desktop's portal did not answer")
	}
	if call.Err != nil {
		return fmt.Errorf("the desktop's portal could not open the browser: %w", call.Err)
	}
	return nil
}
