//go:build !windows

// Package systemchooser opens the system's own file dialog: the desktop's
// portal over the session bus, or Windows' dialog.
package systemchooser

import (
	"context"

	"github.com/godbus/dbus/v5"

	"hoist/ui/widgets/filechooser"
)

// Open asks the desktop's file dialog through the portal on the
// session bus.
func Open(ctx context.Context, o filechooser.Options) ([]string, error) {
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return nil, filechooser.ErrNoPortal // no session bus: no portal either
	}
	defer conn.Close()
	return filechooser.Open(ctx, conn, o)
}
