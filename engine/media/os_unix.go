//go:build unix

package media

import (
	"errors"
	"io/fs"
	"syscall"
)

func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// fileKey identifies a file independently of the path it was reached by.
type fileKey struct {
	dev, ino uint64
	path     string
}

func keyOf(path string, fi fs.FileInfo) fileKey {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fileKey{dev: uint64(st.Dev), ino: uint64(st.Ino)}
	}
	return fileKey{path: absClean(path)}
}
