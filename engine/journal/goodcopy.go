package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"
)

// goodSuffix names the last good copy of the list, beside it: written at
// quiet moments (KeepCopy), put back by Open when the list is damaged.
const goodSuffix = ".good"

// KeepCopy writes a copy of the list, as it is now, beside it: the last
// good copy, which Open puts back if the list is ever found damaged. It
// is meant for quiet moments (a batch of uploads ended, Hoist opened a list
// it checked whole); a list unchanged since the last copy is not copied
// again. The copy replaces the one before only once it is whole on disk.
func (j *Journal) KeepCopy() error { return j.write((listFile{j}).keepCopyLocked) }

// keepCopyLocked does KeepCopy; the caller holds j.wmu and j.mu, or is Open.
func (j listFile) keepCopyLocked() error {
	good, tmp := j.path+goodSuffix, j.path+goodSuffix+".tmp"
	var txID int
	_ = j.db.View(func(tx *bbolt.Tx) error {
		txID = tx.ID()
		return nil
	})
	if j.kept.db == j.db && j.kept.tx == txID {
		return nil
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: keeping a copy of the list of uploads: %w", err)
	}
	// Copied record by record, as a compaction does: what was freed in the
	// list (old session addresses among it) stays out of the copy.
	dst, err := bbolt.Open(tmp, fileMode, &bbolt.Options{Timeout: j.opts.LockTimeout, NoSync: true})
	if err == nil {
		err = safely(func() error { return copyAll(dst, j.db, compactTxBytes) })
		if err == nil {
			err = dst.Sync()
		}
		if cerr := dst.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		now := j.opts.Now()
		err = os.Chtimes(tmp, now, now) // when the copy was made, for Open to say
	}
	if err == nil {
		err = os.Rename(tmp, good)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("journal: keeping a copy of the list of uploads: %w", err)
	}
	if err := syncDir(filepath.Dir(j.path)); err != nil {
		return err
	}
	j.kept.db, j.kept.tx = j.db, txID
	return nil
}

// putBackGood puts the last good copy in place of the list (which was set
// aside) and says how old the copy is; ok is false when there is none.
func (j listFile) putBackGood() (age time.Duration, ok bool, err error) {
	good := j.path + goodSuffix
	info, err := os.Stat(good)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	src, err := os.Open(good)
	if err != nil {
		return 0, false, err
	}
	defer src.Close()
	dst, err := os.OpenFile(j.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if err != nil {
		return 0, false, err
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(filepath.Dir(j.path))
	}
	if err != nil {
		_ = os.Remove(j.path)
		return 0, false, err
	}
	return j.goodAge(info), true, nil
}

// goodAge is how old the last good copy, whose file is info, is.
func (j listFile) goodAge(info fs.FileInfo) time.Duration {
	return max(j.opts.Now().Sub(info.ModTime()), 0)
}

// fromGoodCopy looks up the records under keys in the list's last good
// copy and returns, as stored there, those it can read, with the copy's
// age. The copy is only read, and only for the lookup: nothing is written
// to it and nothing holds it after, so the next KeepCopy replaces it as
// usual. A copy that is missing, damaged, or laid out by another version
// gives nothing.
func (j listFile) fromGoodCopy(keys [][]byte) (found map[string][]byte, age time.Duration) {
	good := j.path + goodSuffix
	info, err := os.Stat(good)
	if err != nil || !info.Mode().IsRegular() {
		return nil, 0
	}
	var file *os.File
	var db *bbolt.DB
	err = safely(func() error {
		var err error
		db, err = bbolt.Open(good, fileMode, &bbolt.Options{
			ReadOnly: true,
			Timeout:  j.opts.LockTimeout,
			OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
				f, err := os.OpenFile(name, flag, perm)
				file = f
				return f, err
			},
		})
		if err != nil {
			return err
		}
		if err := inspect(db, good); err != nil {
			return err
		}
		return db.View(func(tx *bbolt.Tx) error {
			if v, err := readVersion(tx); err != nil || v != SchemaVersion {
				return fmt.Errorf("the last good copy is not a list of this version: %w", ErrCorrupt)
			}
			jobs := tx.Bucket(jobsBucket)
			for _, k := range keys {
				if raw := jobs.Get(k); raw != nil {
					if _, err := decodeRecord(k, raw); err == nil {
						if found == nil {
							found = map[string][]byte{}
						}
						found[string(k)] = bytes.Clone(raw) // the copy's pages go when it is closed
					}
				}
			}
			return nil
		})
	})
	switch {
	case db != nil:
		_ = db.Close()
	case file != nil:
		_ = file.Close() // bbolt panicked before it could close the file
	}
	if err != nil {
		return nil, 0
	}
	return found, j.goodAge(info)
}
