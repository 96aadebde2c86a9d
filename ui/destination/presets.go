package destination

import (
	"path/filepath"

	"hoist/engine/dest"
)

// OpenPresets opens the saved destinations kept in dir, Hoist's settings folder.
func OpenPresets(dir string) (PresetStore, error) {
	p, err := dest.OpenPresets(filepath.Join(dir, dest.PresetsFile))
	if err != nil {
		return nil, err
	}
	return p, nil
}

// OpenLibrary opens the saved destinations kept in dir with the
// organisation's, from the system-wide folder. Problems with the
// organisation's file are returned as sentences; the rest is used.
func OpenLibrary(dir, systemDir string) (PresetStore, []error, error) {
	managed, problems := dest.LoadManaged(systemDir)
	p, err := dest.OpenPresets(filepath.Join(dir, dest.PresetsFile))
	if err != nil {
		if len(managed) == 0 {
			return nil, problems, err
		}
		return &dest.Library{Managed: managed}, problems, err
	}
	return &dest.Library{Saved: p, Managed: managed}, problems, nil
}
