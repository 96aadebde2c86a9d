package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// SystemConfigEnv names a variable that, when set, replaces the system-wide
// configuration folder (for administrators trying a set-up, and tests).
const SystemConfigEnv = "HOIST_SYSTEM_CONFIG"

// SystemConfigDir is the organisation's folder for Hoist, the same for
// everyone on the computer: the OAuth client file and managed destinations
// an administrator deploys. It follows each system's convention:
// $XDG_CONFIG_DIRS/hoist on Linux (/etc/xdg/hoist), %ProgramData%\Hoist on
// Windows, /Library/Application Support/Hoist on macOS. The folder may not exist.
func SystemConfigDir() string {
	if d := os.Getenv(SystemConfigEnv); d != "" {
		return d
	}
	return systemConfigDir(runtime.GOOS, os.Getenv, exists)
}

func systemConfigDir(goos string, getenv func(string) string, exists func(string) bool) string {
	switch goos {
	case "windows":
		base := getenv("ProgramData")
		if base == "" {
			base = `C:\ProgramData`
		}
		return base + `\Hoist`
	case "darwin":
		return "/Library/Application Support/Hoist"
	}
	dirs := getenv("XDG_CONFIG_DIRS")
	if dirs == "" {
		dirs = "/etc/xdg"
	}
	var first string
	for _, d := range strings.Split(dirs, ":") {
		if !filepath.IsAbs(d) {
			continue // the specification says relative entries are to be ignored
		}
		c := filepath.Join(d, "hoist")
		if first == "" {
			first = c
		}
		if exists(c) {
			return c
		}
	}
	if first == "" {
		first = "/etc/xdg/hoist"
	}
	return first
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
