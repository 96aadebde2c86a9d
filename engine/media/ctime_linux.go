package media

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the file's status change time (ctime), or zero when unknown.
func changeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return time.Time{}
}
