//go:build windows

// Package systemchooser opens the system's own file dialog: the desktop's
// portal over the session bus, or Windows' dialog.
package systemchooser

import (
	"context"

	"hoist/ui/widgets/filechooser"
)

// Open is the system's open dialog.
func Open(ctx context.Context, o filechooser.Options) ([]string, error) {
	return filechooser.OpenWindows(ctx, o)
}
