package journal

import (
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"go.etcd.io/bbolt"

	"hoist/engine/fact"
)

const (
	lockSuffix    = ".lock"
	compactSuffix = ".compact"
	backupInfix   = ".bad-"
	fileMode      = 0o600
	dirMode       = 0o700
)

// RecoveryError says that Open found the journal unusable and what it did
// about it, as a fact (package words says it). It unwraps to its Cause,
// which matches ErrCorrupt or ErrNewerVersion.
type RecoveryError struct {
	Backup  string // where the old file is kept
	Dropped int    // records left out of a file that was otherwise kept; 0 when the whole file was set aside
	Cause   error  // what was wrong, in technical terms, for a log
	// Restored says the last good copy of the list (see KeepCopy) was put
	// back in its place; Age is how old that copy was.
	Restored bool
	Age      time.Duration
	// Mended is how many records that could not be read were put back as
	// the last good copy (Age old) has them, in a file otherwise kept.
	Mended int
}

func (e *RecoveryError) Error() string { return e.Fact().String() }

// Fact says what Open did: the list set aside (fact.ListNewer,
// fact.ListDamaged), its last good copy put back (fact.ListRestored, Wait:
// the copy's age), damaged uploads put back from that copy (fact.ListMended,
// Wait: its age, Args["dropped"]: those it did not have, left out), or
// damaged uploads left out (fact.ListDropped); File is where the old list
// is kept.
func (e *RecoveryError) Fact() fact.Fact {
	f := fact.Fact{Code: fact.ListDamaged, File: e.Backup}
	switch {
	case errors.Is(e.Cause, ErrNewerVersion):
		f.Code = fact.ListNewer
	case e.Restored:
		f.Code, f.Wait = fact.ListRestored, e.Age
	case e.Mended > 0:
		f.Code, f.Count, f.Wait = fact.ListMended, e.Mended, e.Age
		if e.Dropped > 0 {
			f.Args = map[string]string{"dropped": strconv.Itoa(e.Dropped)}
		}
	case e.Dropped > 0:
		f.Code, f.Count = fact.ListDropped, e.Dropped
	}
	return f
}

func (e *RecoveryError) Unwrap() error { return e.Cause }

// Open opens (or creates) the journal at path and locks it against other
// processes: if one holds it for longer than opts.LockTimeout, Open returns
// ErrInUse. A damaged journal, or one from a newer Hoist, is set aside as
// path.bad-<time> and Open succeeds with an empty journal; Recovered says so.
func Open(path string, opts Options) (*Journal, error) {
	if path == "" {
		if _, err := DefaultDir(); err != nil {
			return nil, fmt.Errorf("journal: no place to keep the list of uploads: %w", err)
		}
		return nil, errors.New("journal: no file name given")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	opts = opts.withDefaults()
	if err := prepareDir(filepath.Dir(abs)); err != nil {
		return nil, err
	}
	lock, err := acquireLock(abs+lockSuffix, opts.LockTimeout)
	if errors.Is(err, errLocked) {
		return nil, ErrInUse
	}
	if err != nil {
		return nil, fmt.Errorf("journal: locking the list of uploads: %w", err)
	}
	j := &Journal{path: abs, opts: opts, lock: lock}
	if err := (listFile{j}).open(); err != nil {
		_ = lock.release()
		return nil, err
	}
	return j, nil
}

// prepareDir makes the journal's folder. A folder Open creates, or Hoist's
// own settings folder, is made private; a folder the caller chose is left as is.
func prepareDir(dir string) error {
	_, statErr := os.Stat(dir)
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("journal: making the folder for the list of uploads: %w", err)
	}
	own, _ := DefaultDir()
	if errors.Is(statErr, fs.ErrNotExist) || dir == own {
		if err := os.Chmod(dir, dirMode); err != nil {
			return fmt.Errorf("journal: protecting the folder for the list of uploads: %w", err)
		}
	}
	return nil
}

// fixMode makes an existing file private again and reports whether it existed.
func fixMode(path string) (bool, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("journal: %w", err)
	}
	if info.Mode().Perm() != fileMode {
		if err := os.Chmod(path, fileMode); err != nil {
			return true, fmt.Errorf("journal: protecting the list of uploads: %w", err)
		}
	}
	return info.Size() > 0, nil
}

func (j listFile) open() error {
	// An interrupted tidy-up leaves its half-made copy; the journal itself is whole.
	if err := os.Remove(j.path + compactSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("journal: removing an old temporary file: %w", err)
	}
	removeStaleViews(j.path, j.opts.Now())
	existed, err := fixMode(j.path)
	if err != nil {
		return err
	}
	db, problem, err := j.openChecked()
	if err != nil {
		if errors.Is(err, ErrDiskFull) && !existed {
			// A list that never held anything leaves no half-made file
			// that the next start would find damaged.
			_ = os.Remove(j.path)
		}
		return err
	}
	if problem != nil {
		backup, err := j.setAside()
		if err != nil {
			return fmt.Errorf("journal: the list of uploads cannot be read and cannot be set aside: %w", err)
		}
		recovered := &RecoveryError{Backup: backup, Cause: problem}
		j.backup, j.recovered = backup, recovered
		if !errors.Is(problem, ErrNewerVersion) {
			// The last good copy, if it is whole, in place of the damaged list.
			if age, ok, err := j.putBackGood(); err == nil && ok {
				db, problem, err = j.openChecked()
				if err == nil && problem == nil {
					// A copy of an empty list puts back nothing: the list
					// starts empty, as said of damage.
					recovered.Restored, recovered.Age = holdsRecords(db), age
				} else if db == nil {
					_ = os.Remove(j.path)
				}
			}
		}
		if db == nil {
			db, problem, err = j.openChecked()
			if err == nil && problem != nil {
				err = fmt.Errorf("journal: a new list of uploads cannot be started: %w", problem)
			}
			if err != nil {
				return err
			}
		}
		existed = recovered.Restored
	}
	j.db = db
	if err := j.dropUnreadable(); err != nil {
		_ = db.Close()
		j.db = nil
		return err
	}
	if _, err := os.Stat(j.path + goodSuffix); errors.Is(err, fs.ErrNotExist) {
		// Just checked whole: a good moment for a first copy. Without
		// one, Hoist starts all the same.
		_ = j.keepCopyLocked()
	}
	if !existed {
		return syncDir(filepath.Dir(j.path))
	}
	if j.opts.TidyLater {
		return j.remap()
	}
	// Failing to tidy up must not keep Hoist from starting, so its error is
	// dropped unless it left the journal unusable.
	if err := j.tidyLocked(); err != nil && j.db == nil {
		return err
	}
	return nil
}

// Tidy scrubs from the file what was freed in it (old session URIs among
// it), as Open does unless Options.TidyLater is set; a file with nothing
// freed is left as it is.
func (j *Journal) Tidy() error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	if err := j.writable(); err != nil {
		return err
	}
	return (listFile{j}).tidyLocked()
}

// tidyLocked does Tidy; the caller holds j.wmu (not j.mu), or is Open.
func (j listFile) tidyLocked() error {
	if st := j.db.Stats(); st.FreePageN+st.PendingPageN == 0 || tidied(j.db) {
		return nil
	}
	return j.compactLocked()
}

// remap opens the file again, letting go of its pages that the checks
// read: of a file the last run left full of freed pages these are many
// megabytes, which would otherwise stay in memory until the tidy-up.
func (j listFile) remap() error {
	current := j.openedCurrent()
	if err := j.db.Close(); err != nil {
		j.db = nil
		return j.reopen(fmt.Errorf("journal: %w", err))
	}
	j.db = nil
	if err := j.reopen(nil); err != nil {
		return err
	}
	j.reopened(current)
	return nil
}

// openedCurrent reports whether the records Open read are still what the
// file holds: nothing was written since. Nothing may write meanwhile (the
// caller holds j.wmu, or is Open).
func (j listFile) openedCurrent() bool {
	current := false
	_ = j.db.View(func(tx *bbolt.Tx) error {
		j.openedMu.Lock()
		defer j.openedMu.Unlock()
		current = j.opened != nil && j.opened.db == tx.DB() && j.opened.tx == tx.ID()
		return nil
	})
	return current
}

// reopened tells the records Open read that the file was opened again:
// compacted (a copy of the same records, in a new file) or remapped. They
// stand for the new file if they were current in the old one (see
// openedCurrent); else they are dropped.
func (j listFile) reopened(current bool) {
	j.openedMu.Lock()
	defer j.openedMu.Unlock()
	if j.opened == nil {
		return
	}
	if !current || j.db == nil {
		j.opened = nil
		return
	}
	err := j.db.View(func(tx *bbolt.Tx) error {
		j.opened.db, j.opened.tx = tx.DB(), tx.ID()
		return nil
	})
	if err != nil {
		j.opened = nil
	}
}

// boltOptions are the settings every opening of the journal's file uses:
// each commit is synced to the disk before it returns (NoSync false), and so
// is each growth of the file (NoGrowSync false), so that what the journal
// said it saved outlives a power cut.
func (j listFile) boltOptions() *bbolt.Options {
	return &bbolt.Options{Timeout: j.opts.LockTimeout}
}

// openChecked opens the bbolt file and checks it whole. problem is non-nil
// when the file is unusable (damaged, or from a newer Hoist); err is for
// failures that setting the file aside would not cure.
func (j listFile) openChecked() (db *bbolt.DB, problem, err error) {
	var file *os.File
	bopts := j.boltOptions()
	bopts.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	err = safely(func() error {
		var err error
		db, err = bbolt.Open(j.path, fileMode, bopts)
		return err
	})
	if err != nil {
		var p *panicError
		if errors.As(err, &p) && file != nil {
			_ = file.Close() // bbolt panicked before it could close the file and drop its lock
		}
		switch {
		case errors.Is(err, bbolt.ErrTimeout):
			return nil, nil, ErrInUse
		case noRoom(err):
			return nil, nil, j.classify(err) // a full disk is no damage
		case errors.Is(err, fs.ErrPermission):
			return nil, nil, fmt.Errorf("journal: %w", err)
		case errors.Is(err, ErrCorrupt):
			return nil, err, nil
		}
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err), nil
	}
	if err := os.Chmod(j.path, fileMode); err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("journal: protecting the list of uploads: %w", err)
	}
	if problem := safely(func() error { return inspect(db, j.path) }); problem != nil {
		_ = db.Close()
		return nil, problem, nil
	}
	var version int
	if problem := safely(func() error {
		return db.View(func(tx *bbolt.Tx) error {
			var err error
			version, err = readVersion(tx)
			return err
		})
	}); problem != nil {
		_ = db.Close()
		return nil, problem, nil
	}
	switch {
	case version > SchemaVersion:
		_ = db.Close()
		return nil, fmt.Errorf("version %d is newer than %d: %w", version, SchemaVersion, ErrNewerVersion), nil
	case version == 0:
		if err := db.Update(initSchema); err != nil {
			_ = db.Close()
			return nil, nil, j.classify(fmt.Errorf("journal: starting the list of uploads: %w", err))
		}
	case version < SchemaVersion:
		if problem := safely(func() error {
			return db.Update(func(tx *bbolt.Tx) error { return migrate(tx, version) })
		}); problem != nil {
			_ = db.Close()
			if noRoom(problem) {
				return nil, nil, j.classify(problem) // the old list waits, whole, for room
			}
			if !errors.Is(problem, ErrCorrupt) {
				problem = fmt.Errorf("%w: %w", ErrCorrupt, problem)
			}
			return nil, problem, nil
		}
	}
	return db, nil, nil
}

// inspect checks the whole file: that it is as long as its pages say, that
// every page can be read, and bbolt's own consistency check.
func inspect(db *bbolt.DB, path string) error {
	return db.View(func(tx *bbolt.Tx) error {
		info, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		if tx.Size() > info.Size() {
			return fmt.Errorf("the file is %d bytes but its pages need %d: %w", info.Size(), tx.Size(), ErrCorrupt)
		}
		// Reading every page here, where a fault is recovered, keeps tx.Check
		// (which reads on a goroutine of its own) from meeting a bad page first.
		if err := tx.ForEach(func(name []byte, b *bbolt.Bucket) error { return touch(b) }); err != nil {
			return err
		}
		var first error
		for err := range tx.Check() {
			if first == nil {
				first = fmt.Errorf("%w: %w", ErrCorrupt, err)
			}
		}
		return first
	})
}

// touch reads every key and value of b and of the buckets inside it.
func touch(b *bbolt.Bucket) error {
	return b.ForEach(func(k, v []byte) error {
		if v == nil {
			child := b.Bucket(k)
			if child == nil {
				return fmt.Errorf("key %x is neither a value nor a bucket: %w", k, ErrCorrupt)
			}
			return touch(child)
		}
		_ = crc32.ChecksumIEEE(v)
		return nil
	})
}

// dropUnreadable puts back, as the last good copy has them, the records
// that cannot be decoded, and removes those the copy cannot give, after
// keeping a copy of the file as it was.
func (j listFile) dropUnreadable() error {
	var bad [][]byte
	var cause error
	opened := &openedRecords{db: j.db}
	err := safely(func() error {
		return j.db.View(func(tx *bbolt.Tx) error {
			opened.tx = tx.ID()
			var err error
			opened.recs, bad, cause, err = decodeAll(tx.Bucket(jobsBucket))
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("journal: reading the list of uploads: %w", err)
	}
	if len(bad) == 0 {
		j.openedMu.Lock()
		j.opened = opened
		j.openedMu.Unlock()
		return nil
	}
	backup, err := j.backupName()
	if err != nil {
		return err
	}
	if err := j.db.View(func(tx *bbolt.Tx) error { return tx.CopyFile(backup, fileMode) }); err != nil {
		return fmt.Errorf("journal: keeping a copy of the damaged list of uploads: %w", err)
	}
	if err := os.Chmod(backup, fileMode); err != nil {
		return fmt.Errorf("journal: protecting the copy of the list of uploads: %w", err)
	}
	kept, age := j.fromGoodCopy(bad)
	err = j.db.Update(func(tx *bbolt.Tx) error {
		jobs := tx.Bucket(jobsBucket)
		for _, k := range bad {
			var err error
			if raw, ok := kept[string(k)]; ok {
				err = jobs.Put(k, raw)
			} else {
				err = jobs.Delete(k)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("journal: leaving out damaged uploads: %w", err)
	}
	recovered := &RecoveryError{Backup: backup, Dropped: len(bad) - len(kept), Cause: cause, Mended: len(kept)}
	if len(kept) > 0 {
		recovered.Age = age
	}
	j.backup, j.recovered = backup, recovered
	return syncDir(filepath.Dir(j.path))
}

// setAside renames the unusable journal to a backup name.
func (j listFile) setAside() (string, error) {
	backup, err := j.backupName()
	if err != nil {
		return "", err
	}
	if err := os.Rename(j.path, backup); err != nil {
		return "", err
	}
	if err := os.Chmod(backup, fileMode); err != nil {
		return "", err
	}
	return backup, syncDir(filepath.Dir(j.path))
}

// backupName is path.bad-<local time>, with a counter if that is taken.
func (j listFile) backupName() (string, error) {
	base := j.path + backupInfix + j.opts.Now().Format("20060102-150405")
	name := base
	for n := 2; ; n++ {
		if _, err := os.Lstat(name); errors.Is(err, fs.ErrNotExist) {
			return name, nil
		} else if err != nil {
			return "", fmt.Errorf("journal: %w", err)
		}
		name = base + "-" + strconv.Itoa(n)
	}
}

// panicError is a panic (or memory fault) inside bbolt, turned into an error.
type panicError struct{ value any }

func (p *panicError) Error() string { return fmt.Sprintf("reading the file failed: %v", p.value) }
func (p *panicError) Unwrap() error { return ErrCorrupt }

// safely runs fn so that a panic, or a memory fault on a damaged mapped page,
// becomes an error matching ErrCorrupt instead of ending the program.
func safely(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{value: r}
		}
	}()
	return fn()
}

// holdsRecords reports whether db's list has any record.
func holdsRecords(db *bbolt.DB) bool {
	found := false
	_ = db.View(func(tx *bbolt.Tx) error {
		if jobs := tx.Bucket(jobsBucket); jobs != nil {
			k, _ := jobs.Cursor().First()
			found = k != nil
		}
		return nil
	})
	return found
}
