package ui

import (
	"path/filepath"

	"hoist/engine/dest"
)

// openPresets opens the saved destinations kept in dir, Hoist's settings folder.
func openPresets(dir string) (presetStore, error) {
	p, err := dest.OpenPresets(filepath.Join(dir, dest.PresetsFile))
	if err != nil {
		return nil, err
	}
	return p, nil
}
