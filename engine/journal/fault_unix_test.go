//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package journal

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

var sink byte

// TestSafelyTurnsFaultsIntoErrors reads a mapped page whose file was cut
// short under it, as bbolt would on a truncated journal: the fault must come
// back as an error, not end the program.
func TestSafelyTurnsFaultsIntoErrors(t *testing.T) {
	page := os.Getpagesize()
	f, err := os.Create(filepath.Join(t.TempDir(), "mapped"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(int64(2 * page)); err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, 2*page, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		fn   func() error
	}{
		{"fault on a page past the end of the file", func() error { sink = data[page+1]; return nil }},
		{"panic", func() error { panic("invalid page type") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := safely(tt.fn)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("safely = %v, want an error matching ErrCorrupt", err)
			}
		})
	}
	if err := safely(func() error { return nil }); err != nil {
		t.Errorf("safely(ok) = %v", err)
	}
}
