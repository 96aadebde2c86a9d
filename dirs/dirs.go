// Package dirs is the one place that says where Hoist keeps its files on each
// system: settings, the upload list, bulky data, caches, and the folders an
// administrator fills for everyone. It imports no other Hoist package, so
// every part of Hoist (engine, auth, the command line, the window) can use it.
//
// The choice is a pure function of the system's name, its environment and the
// user's home folder (Choose), so each system's choice is tested on any.
package dirs

import (
	"errors"
	"os"
	"path"
	"runtime"
	"strings"
)

// App is the name of Hoist's folder inside each of the system's folders.
const App = "Hoist"

// systemApp is the folder name under XDG_CONFIG_DIRS, lower-case as the
// other programs' folders there are.
const systemApp = "hoist"

// ErrNoFolder means the system gives no place for Hoist's files: no home
// folder and none of the variables that name the per-user folders.
var ErrNoFolder = errors.New("the system gives no folder for Hoist's files (no home folder is set)")

// Folders are where Hoist keeps its files.
type Folders struct {
	// Config holds the settings, the saved destinations, the sign-in
	// index and the single-window hand-over.
	Config string
	// Journal holds the upload list (journal.db): machine-specific, so on
	// Windows it stays out of the roaming profile.
	Journal string
	// Data holds bulky data such as the sandbox's received files.
	Data string
	// Cache holds what can be made again (thumbnails).
	Cache string
	// System are the folders an administrator fills for every user of the
	// computer, the most important first.
	System []string
}

// Choose returns the folders Hoist uses on goos (a runtime.GOOS value), given
// the environment (getenv, as os.Getenv) and the user's home folder ("" when
// unknown). It returns ErrNoFolder when neither names a per-user folder.
//
//   - Linux and the BSDs follow the XDG base directories: $XDG_CONFIG_HOME
//     (~/.config)/Hoist holds settings and the upload list, $XDG_DATA_HOME
//     (~/.local/share)/Hoist the data, $XDG_CACHE_HOME (~/.cache)/Hoist the
//     cache, and each of $XDG_CONFIG_DIRS (/etc/xdg) /hoist is the system's.
//   - Windows: %APPDATA%\Hoist (roaming) holds settings; %LOCALAPPDATA%\Hoist
//     the upload list and the data, its Cache folder the cache;
//     %ProgramData%\Hoist is the system's.
//   - macOS: ~/Library/Application Support/Hoist holds settings, the upload
//     list and the data, ~/Library/Caches/Hoist the cache, and
//     /Library/Application Support/Hoist is the system's.
func Choose(goos string, getenv func(string) string, home string) (Folders, error) {
	switch goos {
	case "windows":
		return chooseWindows(getenv, home)
	case "darwin", "ios":
		if home == "" {
			return Folders{}, ErrNoFolder
		}
		support := path.Join(home, "Library", "Application Support", App)
		return Folders{
			Config:  support,
			Journal: support,
			Data:    support,
			Cache:   path.Join(home, "Library", "Caches", App),
			System:  []string{path.Join("/Library", "Application Support", App)},
		}, nil
	}
	return chooseXDG(getenv, home)
}

func chooseXDG(getenv func(string) string, home string) (Folders, error) {
	// A relative path in an XDG variable is to be ignored (XDG base directory
	// specification), as is an empty one.
	base := func(env string, underHome ...string) string {
		if d := getenv(env); path.IsAbs(d) {
			return path.Join(d, App)
		}
		if home == "" {
			return ""
		}
		return path.Join(append(append([]string{home}, underHome...), App)...)
	}
	f := Folders{
		Config: base("XDG_CONFIG_HOME", ".config"),
		Data:   base("XDG_DATA_HOME", ".local", "share"),
		Cache:  base("XDG_CACHE_HOME", ".cache"),
	}
	f.Journal = f.Config
	for _, d := range strings.Split(getenv("XDG_CONFIG_DIRS"), ":") {
		if path.IsAbs(d) {
			f.System = append(f.System, path.Join(d, systemApp))
		}
	}
	if len(f.System) == 0 {
		f.System = []string{path.Join("/etc/xdg", systemApp)}
	}
	if f.Config == "" {
		return Folders{}, ErrNoFolder
	}
	// Without a home folder, only the variables that are set say where to
	// go; the settings folder stands in for the others.
	if f.Data == "" {
		f.Data = f.Config
	}
	if f.Cache == "" {
		f.Cache = path.Join(f.Config, "Cache")
	}
	return f, nil
}

func chooseWindows(getenv func(string) string, home string) (Folders, error) {
	// Each variable is normally set; the home folder's usual layout stands in
	// for a missing one.
	base := func(env string, underHome ...string) string {
		if d := getenv(env); winAbs(d) {
			return d
		}
		if home == "" {
			return ""
		}
		return winJoin(append([]string{home}, underHome...)...)
	}
	roaming := base("APPDATA", "AppData", "Roaming")
	local := base("LOCALAPPDATA", "AppData", "Local")
	if roaming == "" || local == "" {
		return Folders{}, ErrNoFolder
	}
	system := getenv("ProgramData")
	if !winAbs(system) {
		system = `C:\ProgramData`
	}
	data := winJoin(local, App)
	return Folders{
		Config:  winJoin(roaming, App),
		Journal: data,
		Data:    data,
		Cache:   winJoin(data, "Cache"),
		System:  []string{winJoin(system, App)},
	}, nil
}

// winAbs reports a Windows path that starts at a drive or a share.
func winAbs(p string) bool {
	if strings.HasPrefix(p, `\\`) {
		return len(p) > 2
	}
	return len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

// winJoin joins Windows path parts with backslashes, whatever system runs it.
func winJoin(parts ...string) string {
	out := strings.TrimRight(parts[0], `\/`)
	for _, p := range parts[1:] {
		out += `\` + strings.Trim(p, `\/`)
	}
	return out
}

// Current returns the folders Hoist uses on this computer.
func Current() (Folders, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		home = ""
	}
	return Choose(runtime.GOOS, os.Getenv, home)
}

// Config is the folder of Hoist's settings on this computer.
func Config() (string, error) {
	f, err := Current()
	return f.Config, err
}

// Journal is the folder of Hoist's upload list on this computer.
func Journal() (string, error) {
	f, err := Current()
	return f.Journal, err
}

// Data is the folder of Hoist's bulky data on this computer.
func Data() (string, error) {
	f, err := Current()
	return f.Data, err
}

// SystemEnv names a variable that, when set, replaces the system-wide folder
// (for administrators trying a set-up, and for tests).
const SystemEnv = "HOIST_SYSTEM_CONFIG"

// System is the organisation's folder for Hoist on this computer, the same for
// everyone: the OAuth client file and managed destinations an administrator
// deploys. It is the first of Folders.System that exists, else the first one;
// the folder may not exist.
func System() string {
	if d := os.Getenv(SystemEnv); d != "" {
		return d
	}
	f, _ := Current() // the system-wide folders do not depend on a home folder
	return firstExisting(f.System, exists)
}

func firstExisting(folders []string, exists func(string) bool) string {
	for _, d := range folders {
		if exists(d) {
			return d
		}
	}
	if len(folders) == 0 {
		return ""
	}
	return folders[0]
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
