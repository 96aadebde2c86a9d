//go:build !windows

package ui

import (
	"context"

	"github.com/godbus/dbus/v5"

	"hoist/ui/widgets/filechooser"
)

// systemChooser asks the desktop's file dialog through the portal on the
// session bus.
func systemChooser(ctx context.Context, o filechooser.Options) ([]string, error) {
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return nil, filechooser.ErrNoPortal // no session bus: no portal either
	}
	defer conn.Close()
	return filechooser.Open(ctx, conn, o)
}
