//go:build !windows && !darwin

package media

import "io/fs"

// hiddenAttr: elsewhere only a leading dot hides a file.
func hiddenAttr(fs.FileInfo) bool { return false }
