package filechooser

import (
	"os"
	"path/filepath"
	"strings"
)

// Kinds of place a file dialog offers beside its list.
const (
	Home      = "home"
	Desktop   = "desktop"
	Documents = "documents"
	Downloads = "downloads"
	Pictures  = "pictures"
	Drive     = "drive" // a drive's root, on Windows
)

// Place is a folder a file dialog offers to go to in one click.
type Place struct {
	Kind string // Home, Desktop, Documents, Downloads, Pictures or Drive
	Path string
}

// Places are the user's home, desktop, documents, downloads and pictures
// folders, as the system names them (on Linux and the BSDs the XDG user
// folders, ~/.config/user-dirs.dirs, so a Persian "دانلودها" is found; on
// Windows the known folders, wherever they were moved), then the drives
// on Windows. Only folders that exist are given.
func Places() []Place {
	home, _ := os.UserHomeDir()
	return append(userPlaces(home, os.Getenv, os.ReadFile, isDir), drives()...)
}

// PlaceOf is the path of the first of kinds among the user's places, else
// the home folder.
func PlaceOf(kinds ...string) string {
	places := Places()
	for _, k := range kinds {
		for _, p := range places {
			if p.Kind == k {
				return p.Path
			}
		}
	}
	home, _ := os.UserHomeDir()
	return home
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// xdgKeys are the user-dirs.dirs names of each kind.
var xdgKeys = []struct{ kind, key, fallback string }{
	{Desktop, "XDG_DESKTOP_DIR", "Desktop"},
	{Documents, "XDG_DOCUMENTS_DIR", "Documents"},
	{Downloads, "XDG_DOWNLOAD_DIR", "Downloads"},
	{Pictures, "XDG_PICTURES_DIR", "Pictures"},
}

// xdgPlaces reads the XDG user folders (user-dirs.dirs in the settings
// folder); a folder not named there is the usual English one under home.
// A folder set to home itself is turned off, as the specification says.
func xdgPlaces(home string, getenv func(string) string, readFile func(string) ([]byte, error), exists func(string) bool) []Place {
	if home == "" {
		return nil
	}
	places := []Place{{Home, home}}
	config := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(config) {
		config = filepath.Join(home, ".config")
	}
	named := map[string]string{}
	if b, err := readFile(filepath.Join(config, "user-dirs.dirs")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			key, value, ok := strings.Cut(line, "=")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			value = strings.Trim(strings.TrimSpace(value), `"`)
			switch {
			case strings.HasPrefix(value, "$HOME/"):
				value = filepath.Join(home, strings.TrimPrefix(value, "$HOME/"))
			case value == "$HOME":
				value = home
			case !filepath.IsAbs(value):
				continue
			}
			named[strings.TrimSpace(key)] = filepath.Clean(value)
		}
	}
	for _, k := range xdgKeys {
		path, ok := named[k.key]
		if !ok {
			path = filepath.Join(home, k.fallback)
		}
		if path != filepath.Clean(home) && exists(path) {
			places = append(places, Place{k.kind, path})
		}
	}
	return places
}
