package ui

import "errors"

// openPresets opens the saved destinations kept in dir.
func openPresets(dir string) (presetStore, error) {
	return nil, errors.New("saved destinations are not available yet")
}
