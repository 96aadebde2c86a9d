//go:build windows

package media

import (
	"io/fs"
	"syscall"
)

// hiddenAttr reports whether Windows marks the file hidden or as a system file.
func hiddenAttr(fi fs.FileInfo) bool {
	if a, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return a.FileAttributes&(syscall.FILE_ATTRIBUTE_HIDDEN|syscall.FILE_ATTRIBUTE_SYSTEM) != 0
	}
	return false
}
