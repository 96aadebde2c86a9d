//go:build windows

package filechooser

import (
	"golang.org/x/sys/windows"
)

// userPlaces are the user's known folders, wherever they were moved
// (OneDrive, another drive).
func userPlaces(home string, _ func(string) string, _ func(string) ([]byte, error), exists func(string) bool) []Place {
	var places []Place
	if home != "" {
		places = append(places, Place{Home, home})
	}
	for _, k := range []struct {
		kind string
		id   *windows.KNOWNFOLDERID
	}{
		{Desktop, windows.FOLDERID_Desktop},
		{Documents, windows.FOLDERID_Documents},
		{Downloads, windows.FOLDERID_Downloads},
		{Pictures, windows.FOLDERID_Pictures},
	} {
		if p, err := windows.KnownFolderPath(k.id, 0); err == nil && p != "" && exists(p) {
			places = append(places, Place{k.kind, p})
		}
	}
	return places
}

// drives are the drives that are there now (C:\, D:\, …).
func drives() []Place {
	mask, err := windows.GetLogicalDrives()
	if err != nil {
		return nil
	}
	var out []Place
	for i := 0; i < 26; i++ {
		if mask&(1<<i) != 0 {
			root := string(rune('A'+i)) + `:\`
			if isDir(root) {
				out = append(out, Place{Drive, root})
			}
		}
	}
	return out
}
