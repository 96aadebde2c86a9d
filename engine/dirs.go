package engine

import (
	"os"
	"path/filepath"
	"runtime"
)

// appDir is the folder name Hoist uses under the system's config and data folders.
const appDir = "Hoist"

// ConfigDir is where Hoist keeps its settings, journal and destinations:
// the system's per-user config folder (XDG_CONFIG_HOME on Linux).
func ConfigDir() string {
	base, err := os.UserConfigDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, appDir)
}

// DataDir is where Hoist keeps bulky data such as the sandbox's received
// files: XDG_DATA_HOME (or ~/.local/share) on Linux, the config folder elsewhere.
func DataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, appDir)
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" || runtime.GOOS == "openbsd" {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, ".local", "share", appDir)
		}
	}
	return ConfigDir()
}
