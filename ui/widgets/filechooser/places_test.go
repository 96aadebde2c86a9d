package filechooser

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestPlacesFollowTheUsersFolderSettings: the folders come from the
// system's own settings (XDG user-dirs.dirs), in the user's language and
// wherever they were moved; one set to home is off; one not named is the
// usual English folder; a folder that is not there is not offered.
func TestPlacesFollowTheUsersFolderSettings(t *testing.T) {
	home := t.TempDir()
	config := filepath.Join(home, ".config")
	elsewhere := t.TempDir()
	for _, d := range []string{"میز کار", "اسناد", "Downloads", filepath.Join(elsewhere, "تصاویر")} {
		p := d
		if !filepath.IsAbs(d) {
			p = filepath.Join(home, d)
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(config, 0o755)
	dirs := `# written by xdg-user-dirs-update
XDG_DESKTOP_DIR="$HOME/میز کار"
XDG_DOCUMENTS_DIR="$HOME/اسناد"
XDG_PICTURES_DIR="` + filepath.Join(elsewhere, "تصاویر") + `"
XDG_MUSIC_DIR="$HOME/موسیقی"
XDG_TEMPLATES_DIR="$HOME/"
`
	os.WriteFile(filepath.Join(config, "user-dirs.dirs"), []byte(dirs), 0o644)
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return config
		}
		return ""
	}
	got := xdgPlaces(home, getenv, os.ReadFile, isDir)
	want := []Place{
		{Home, home},
		{Desktop, filepath.Join(home, "میز کار")},
		{Documents, filepath.Join(home, "اسناد")},
		{Downloads, filepath.Join(home, "Downloads")},
		{Pictures, filepath.Join(elsewhere, "تصاویر")},
	}
	if !slices.Equal(got, want) {
		t.Errorf("places = %q\nwant     %q", got, want)
	}

	// Without the settings file: the English folders that exist.
	os.Remove(filepath.Join(config, "user-dirs.dirs"))
	os.MkdirAll(filepath.Join(home, "Pictures"), 0o755)
	got = xdgPlaces(home, getenv, os.ReadFile, isDir)
	want = []Place{{Home, home}, {Downloads, filepath.Join(home, "Downloads")}, {Pictures, filepath.Join(home, "Pictures")}}
	if !slices.Equal(got, want) {
		t.Errorf("without user-dirs.dirs, places = %q, want %q", got, want)
	}
}
