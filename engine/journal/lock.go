package journal

import (
	"errors"
	"fmt"
	"os"
	"time"
)

// errLocked means another open file holds the lock.
var errLocked = errors.New("journal: locked by another process")

// fileLock is an exclusive lock on a small file of its own beside the
// journal. It outlives the journal file's replacement by compaction, which a
// lock on the journal file itself would not.
type fileLock struct{ f *os.File }

// acquireLock locks path, waiting up to timeout; errLocked when it cannot.
// The lock goes with the process, so a crash never leaves it behind.
func acquireLock(path string, timeout time.Duration) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, fileMode)
	if err != nil {
		return nil, err
	}
	if err := f.Chmod(fileMode); err != nil {
		_ = f.Close()
		return nil, err
	}
	deadline := time.Now().Add(timeout)
	for {
		ok, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("journal: %w", err)
		}
		if ok {
			return &fileLock{f: f}, nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			_ = f.Close()
			return nil, errLocked
		}
		time.Sleep(min(left, 20*time.Millisecond))
	}
}

func (l *fileLock) release() error {
	err := unlock(l.f)
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Lock is an exclusive lock on a file of its own, held until Release or the
// process's end (a crash never leaves it behind).
type Lock struct{ l *fileLock }

// LockFile takes path's lock without waiting, making the file (0600) if
// needed; ErrInUse when another open file holds it. Other parts of Hoist use
// it to claim something for one process, as the journal does for itself.
func LockFile(path string) (*Lock, error) {
	l, err := acquireLock(path, 0)
	if errors.Is(err, errLocked) {
		return nil, ErrInUse
	}
	if err != nil {
		return nil, err
	}
	return &Lock{l: l}, nil
}

// Release gives the lock up.
func (l *Lock) Release() error { return l.l.release() }
