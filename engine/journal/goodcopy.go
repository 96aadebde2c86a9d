package journal

import (
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
func (j *Journal) KeepCopy() error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	j.mu.RLock()
	defer j.mu.RUnlock()
	if err := j.writable(); err != nil {
		return err
	}
	return j.classify(j.keepCopyLocked())
}

// keepCopyLocked does KeepCopy; the caller holds j.wmu and j.mu, or is Open.
func (j *Journal) keepCopyLocked() error {
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
func (j *Journal) putBackGood() (age time.Duration, ok bool, err error) {
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
	return max(j.opts.Now().Sub(info.ModTime()), 0), true, nil
}
