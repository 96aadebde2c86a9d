//go:build windows

package ui

import (
	"context"

	"hoist/ui/widgets/filechooser"
)

// systemChooser is the system's open dialog.
func systemChooser(ctx context.Context, o filechooser.Options) ([]string, error) {
	return filechooser.OpenWindows(ctx, o)
}
