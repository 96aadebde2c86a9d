//go:build unix

package media

import (
	"path/filepath"
	"syscall"
	"testing"
)

func specialFile(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
