package journal

import (
	"syscall"

	"go.etcd.io/bbolt"
)

// release tells the system that the pages of db's file mapping read so far
// (its first size bytes) are not needed now: they leave the process's
// resident memory and are read again from the file if they are.
func release(db *bbolt.DB, size int64) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, db.Info().Data, uintptr(size), syscall.MADV_DONTNEED)
}
