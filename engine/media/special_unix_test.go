//go:build unix

package media

import (
	"errors"
	"os"
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

// A file that says 0 bytes but has content (as in /proc) is refused: what is
// sent could not be checked against its size.
func TestInspectRefusesFilesOfUnknownSize(t *testing.T) {
	const path = "/proc/self/status"
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 {
		t.Skipf("no /proc file of size 0 here (%v)", err)
	}
	_, err = Inspect(path)
	var p *Problem
	if !errors.As(err, &p) || !errors.Is(err, ErrNotRegular) ||
		SayEnglish(p) != "status is not a regular file with a known size (it says 0 bytes but has content, like the files in /proc), so it cannot be uploaded." {
		t.Fatalf("err = %v", err)
	}
}
