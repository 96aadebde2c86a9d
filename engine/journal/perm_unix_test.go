//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package journal

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

// TestPermissions runs with umask 0, so nothing private happens by accident.
func TestPermissions(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0))

	t.Run("a new journal and its folder are private", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "Hoist")
		path := filepath.Join(dir, FileName)
		j := openAt(t, path, nil)
		if err := j.Put(Record{ID: "a", SessionURI: "https://x.test/?upload_id=1"}); err != nil {
			t.Fatal(err)
		}
		for p, want := range map[string]fs.FileMode{dir: 0o700, path: 0o600, path + lockSuffix: 0o600} {
			if got := mode(t, p); got != want {
				t.Errorf("%s: mode %o, want %o", filepath.Base(p), got, want)
			}
		}
		if err := j.Delete("a"); err != nil { // rewrites the file
			t.Fatal(err)
		}
		if got := mode(t, path); got != 0o600 {
			t.Errorf("after compaction: mode %o, want 600", got)
		}
	})

	t.Run("a journal left readable by others is made private", func(t *testing.T) {
		path := tempPath(t)
		j := openAt(t, path, nil)
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{path, path + lockSuffix} {
			if err := os.Chmod(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		openAt(t, path, nil)
		for _, p := range []string{path, path + lockSuffix} {
			if got := mode(t, p); got != 0o600 {
				t.Errorf("%s: mode %o after Open, want 600", filepath.Base(p), got)
			}
		}
	})

	t.Run("a folder the caller made is left alone", func(t *testing.T) {
		dir := t.TempDir()
		if err := os.Chmod(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, FileName)
		openAt(t, path, nil)
		if got := mode(t, dir); got != 0o755 {
			t.Errorf("folder mode %o, want it left at 755", got)
		}
		if got := mode(t, path); got != 0o600 {
			t.Errorf("journal mode %o, want 600", got)
		}
	})

	t.Run("a backup of a damaged journal is private", func(t *testing.T) {
		path := tempPath(t)
		if err := os.WriteFile(path, randomBytes(9000, 7), 0o666); err != nil {
			t.Fatal(err)
		}
		j := openAt(t, path, nil)
		backup, _ := j.Recovered()
		if backup == "" {
			t.Fatal("no backup")
		}
		if got := mode(t, backup); got != 0o600 {
			t.Errorf("backup mode %o, want 600", got)
		}
		if got := mode(t, path); got != 0o600 {
			t.Errorf("new journal mode %o, want 600", got)
		}
	})
}
