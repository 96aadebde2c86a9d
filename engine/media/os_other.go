//go:build !unix

package media

import (
	"errors"
	"io/fs"
	"syscall"
)

// errCantResolveFilename is Windows' ERROR_CANT_RESOLVE_FILENAME, its answer to a link loop.
const errCantResolveFilename = syscall.Errno(1921)

func isLoop(err error) bool { return errors.Is(err, errCantResolveFilename) }

func isNotDir(error) bool { return false }

// fileKey identifies a file; without inode numbers, by its absolute path.
type fileKey struct {
	path string
}

func keyOf(path string, _ fs.FileInfo) fileKey { return fileKey{path: absClean(path)} }
