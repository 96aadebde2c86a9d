package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"go.etcd.io/bbolt"
)

// Compact rewrites the journal into a new file holding only the live records
// and puts it in place of the old one in a single rename, so that bytes of
// deleted records and blanked session URIs, which bbolt leaves in free pages,
// are no longer in the file. A crash at any point leaves either file whole.
func (j *Journal) Compact() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.db == nil {
		return j.broken
	}
	return j.compactLocked()
}

// compactTxBytes bounds the bytes one transaction of the copy writes.
const compactTxBytes = 1 << 20

// compactLocked does Compact; the caller holds j.mu exclusively.
func (j *Journal) compactLocked() error {
	tmp := j.path + compactSuffix
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: tidying the file: %w", err)
	}
	// The copy is written in transactions of bounded size, synced once at
	// the end: one transaction for the whole list would hold all of it in
	// memory, and copy it again at every growth of the file.
	dst, err := bbolt.Open(tmp, fileMode, &bbolt.Options{Timeout: j.opts.LockTimeout, NoSync: true})
	if err != nil {
		return fmt.Errorf("journal: tidying the file: %w", err)
	}
	err = safely(func() error { return bbolt.Compact(dst, j.db, compactTxBytes) })
	if err == nil {
		err = dst.Update(markTidied)
	}
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, fileMode)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("journal: tidying the file: %w", err)
	}
	// Windows cannot rename over an open file, so the old one is closed first.
	closeErr := j.db.Close()
	j.db = nil
	if err := os.Rename(tmp, j.path); err != nil {
		_ = os.Remove(tmp)
		return j.reopen(fmt.Errorf("journal: tidying the file: %w", err))
	}
	// The rename must be on disk before anything is written to the new file.
	if err := syncDir(filepath.Dir(j.path)); err != nil {
		return j.reopen(err)
	}
	if closeErr != nil {
		return j.reopen(fmt.Errorf("journal: tidying the file: %w", closeErr))
	}
	return j.reopen(nil)
}

// tidiedKey, in the meta bucket, holds the number of the transaction that
// ended the last tidy-up. The copy leaves a few pages of its own free, which
// hold nothing removed: while no transaction came after it, there is
// nothing to scrub, and the next start copies nothing.
var tidiedKey = []byte("tidied")

func markTidied(tx *bbolt.Tx) error {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		return fmt.Errorf("the copy has no %s bucket: %w", metaBucket, ErrCorrupt)
	}
	return meta.Put(tidiedKey, []byte(strconv.Itoa(tx.ID())))
}

// tidied reports whether nothing was written since the last tidy-up.
func tidied(db *bbolt.DB) bool {
	done := false
	_ = db.View(func(tx *bbolt.Tx) error {
		if meta := tx.Bucket(metaBucket); meta != nil {
			done = string(meta.Get(tidiedKey)) == strconv.Itoa(tx.ID())
		}
		return nil
	})
	return done
}

// reopen opens the journal file again after compaction and returns cause;
// if it cannot, the journal stays unusable and says why.
func (j *Journal) reopen(cause error) error {
	db, err := bbolt.Open(j.path, fileMode, &bbolt.Options{Timeout: j.opts.LockTimeout})
	if err != nil {
		j.broken = fmt.Errorf("journal: the list of uploads cannot be opened again: %w", err)
		return j.broken
	}
	j.db = db
	return cause
}
