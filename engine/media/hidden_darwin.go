//go:build darwin

package media

import (
	"io/fs"
	"syscall"
)

// ufHidden is macOS's UF_HIDDEN flag: Finder does not show the file.
const ufHidden = 0x8000

func hiddenAttr(fi fs.FileInfo) bool {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Flags&ufHidden != 0
	}
	return false
}
