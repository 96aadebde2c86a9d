//go:build !windows

package filechooser

// userPlaces are the XDG user folders (on macOS the same English names
// under home, which is what they are there).
func userPlaces(home string, getenv func(string) string, readFile func(string) ([]byte, error), exists func(string) bool) []Place {
	return xdgPlaces(home, getenv, readFile, exists)
}

// drives are the roots a dialog offers besides the user's folders: none
// here, where everything is under "/".
func drives() []Place { return nil }
