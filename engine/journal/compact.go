package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"go.etcd.io/bbolt"
)

// Compact rewrites the journal into a new file holding only the live records
// and puts it in place of the old one in a single rename, so that bytes of
// deleted records and blanked session URIs, which bbolt leaves in free pages,
// are no longer in the file. A crash at any point leaves either file whole.
// The list is read as usual while it is copied; writes wait.
func (j *Journal) Compact() error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	if err := j.writable(); err != nil {
		return err
	}
	return j.classify((listFile{j}).compactLocked())
}

// compactReplaced, when set (by tests), runs while no bbolt file is open:
// the old one closed, the new one in its place and not yet opened. Only the
// journal's own lock keeps another Open out then.
var compactReplaced func()

// compactTxBytes bounds the bytes one transaction of the copy writes.
const compactTxBytes = 1 << 20

// compactLocked does Compact; the caller holds j.wmu and not j.mu, or is
// Open. It copies holding j.mu shared, so that reads go on, and holds it
// exclusively only to put the copy in place.
func (j listFile) compactLocked() error {
	tmp := j.path + compactSuffix
	if err := j.copyTo(tmp); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("journal: tidying the file: %w", err)
	}
	// Nothing was written since the copy began: j.wmu is held.
	current := j.openedCurrent()
	j.mu.Lock()
	defer j.mu.Unlock()
	defer func() { j.reopened(current) }()
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
	if compactReplaced != nil {
		compactReplaced()
	}
	if closeErr != nil {
		return j.reopen(fmt.Errorf("journal: tidying the file: %w", closeErr))
	}
	return j.reopen(nil)
}

// copyTo writes a copy of the list, marked tidied, into a new file at tmp,
// synced and private.
func (j listFile) copyTo(tmp string) error {
	j.mu.RLock()
	defer j.mu.RUnlock()
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	// The copy is written in transactions of bounded size, synced once at
	// the end: one transaction for the whole list would hold all of it in
	// memory, and copy it again at every growth of the file.
	dst, err := bbolt.Open(tmp, fileMode, &bbolt.Options{Timeout: j.opts.LockTimeout, NoSync: true})
	if err != nil {
		return err // begun, on a disk too full to begin it
	}
	err = safely(func() error { return copyAll(dst, j.db, compactTxBytes) })
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
	return err
}

// compactReleaseBytes is how much of src the copy reads before it lets go
// of the pages read (see copyAll).
const compactReleaseBytes = 16 << 10

// compactCommitted, when set (by tests), runs after each transaction of the
// copy is written, src still open.
var compactCommitted func(src *bbolt.DB)

// copyAll copies every bucket of src into the empty dst, pages filled, in
// write transactions of about txBytes each. It lets go of the pages of src
// read so far (see release) after every compactReleaseBytes of records:
// the copy reads every live page, tens of megabytes for a long list, and
// the system maps the pages around each page read too (64 KiB of a file
// scattered with freed pages for a few hundred bytes of records), all of
// which would otherwise stay in the window's memory until the old file is
// closed: 18 MiB between two letting-goes a megabyte apart for a list of
// 10,000 uploads. For the same reason each record is put into dst as a
// copy: bbolt writes a value when the transaction commits, from where it
// was given, which would read all of the transaction's records from src
// again; the copies are made in one buffer the size of a transaction,
// used again for the next, so that copying a long list makes little
// garbage.
func copyAll(dst, src *bbolt.DB, txBytes int) error {
	return src.View(func(stx *bbolt.Tx) error {
		tx, err := dst.Begin(true)
		if err != nil {
			return err
		}
		defer func() { _ = tx.Rollback() }()
		size, read := 0, 0
		// buf holds the copies of the transaction's records; bbolt reads
		// them until it commits.
		buf := make([]byte, 0, txBytes)
		copied := func(b []byte) []byte {
			if len(buf)+len(b) > cap(buf) {
				buf = make([]byte, 0, max(txBytes, len(b)))
			}
			buf = append(buf, b...)
			return buf[len(buf)-len(b) : len(buf) : len(buf)]
		}
		// path names the bucket being copied, from the top.
		var copyBucket func(path [][]byte, from *bbolt.Bucket) error
		copyBucket = func(path [][]byte, from *bbolt.Bucket) error {
			return from.ForEach(func(k, v []byte) error {
				if size+len(k)+len(v) > txBytes {
					if err := tx.Commit(); err != nil {
						return err
					}
					if compactCommitted != nil {
						compactCommitted(src)
					}
					buf = buf[:0]
					if tx, err = dst.Begin(true); err != nil {
						return err
					}
					size = 0
				}
				size += len(k) + len(v)
				if read += len(k) + len(v); read >= compactReleaseBytes {
					release(src, stx.Size())
					read = 0
				}
				to := tx.Bucket(path[0])
				for _, name := range path[1:] {
					to = to.Bucket(name)
				}
				to.FillPercent = 1.0
				if v != nil {
					return to.Put(copied(k), copied(v))
				}
				inner := from.Bucket(k)
				made, err := to.CreateBucket(k)
				if err != nil {
					return err
				}
				if err := made.SetSequence(inner.Sequence()); err != nil {
					return err
				}
				return copyBucket(append(slices.Clip(path), k), inner)
			})
		}
		err = stx.ForEach(func(name []byte, b *bbolt.Bucket) error {
			made, err := tx.CreateBucket(name)
			if err != nil {
				return err
			}
			if err := made.SetSequence(b.Sequence()); err != nil {
				return err
			}
			return copyBucket([][]byte{name}, b)
		})
		if err != nil {
			return err
		}
		release(src, stx.Size())
		return tx.Commit()
	})
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
func (j listFile) reopen(cause error) error {
	db, err := bbolt.Open(j.path, fileMode, j.boltOptions())
	if err != nil {
		j.broken = fmt.Errorf("journal: the list of uploads cannot be opened again: %w", err)
		return j.broken
	}
	j.db = db
	return cause
}
