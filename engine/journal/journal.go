// Package journal is the durable record of upload jobs: one Record per job in
// a bbolt file, so that nothing a user queued is lost on pause, quit, crash or
// reboot. Every change is one fsync'd transaction; there is no cache that
// could diverge from the file. One process at a time holds a journal.
//
// LockFile lends the same kind of lock to other parts of Hoist (the window's
// single-window claim, in ui/handover).
package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"go.etcd.io/bbolt"

	"hoist/dirs"
)

// FileName is the journal's file name inside Hoist's settings folder.
const FileName = "journal.db"

// DefaultLockTimeout is how long Open waits for another process to let go.
const DefaultLockTimeout = 200 * time.Millisecond

var (
	// ErrInUse means another Hoist process holds the journal (or the window).
	ErrInUse = errors.New("Hoist is already running. Use the Hoist window that is already open, or close it and try again")
	// ErrNotFound means no job with that id is in the journal.
	ErrNotFound = errors.New("this upload is not in the list")
	// ErrClosed means the journal was closed.
	ErrClosed = errors.New("the list of uploads is closed")
	// ErrCorrupt classifies a journal file that could not be read.
	ErrCorrupt = errors.New("the list of uploads was damaged")
	// ErrNewerVersion classifies a journal written by a newer Hoist.
	ErrNewerVersion = errors.New("the list of uploads was saved by a newer version of Hoist")
	// ErrDiskFull classifies a write the disk had no room for (see DiskFullError).
	ErrDiskFull = errors.New("the disk that holds the list of uploads is full")
)

// DiskFullError is a change to the list that the disk had no room for:
// nothing of it was written, and what the list held before is kept. Dir is
// the folder of the list.
type DiskFullError struct {
	Dir string
	Err error // the system's own error
}

func (e *DiskFullError) Error() string {
	return fmt.Sprintf("journal: no room on the disk for the list of uploads in %s: %v", e.Dir, e.Err)
}

func (e *DiskFullError) Is(target error) bool { return target == ErrDiskFull }
func (e *DiskFullError) Unwrap() error        { return e.Err }

// classify makes an error of a write the disk had no room for a DiskFullError.
func (j *Journal) classify(err error) error {
	if err == nil || errors.Is(err, ErrDiskFull) || !noRoom(err) {
		return err
	}
	return &DiskFullError{Dir: filepath.Dir(j.path), Err: err}
}

// Record is everything the journal keeps about one job. It holds only plain
// values so that the journal imports no other Hoist package.
type Record struct {
	ID          string    `json:"id"`
	Path        string    `json:"path,omitempty"`
	Name        string    `json:"name,omitempty"`
	Size        int64     `json:"size,omitempty"`
	ModTime     time.Time `json:"mod_time,omitzero"`
	Fingerprint string    `json:"fingerprint,omitempty"`
	MIME        string    `json:"mime,omitempty"`
	// FileSize is the file's own size when what is sent is made from it
	// (an Outlook item sent as an email: Size is the email's).
	FileSize int64 `json:"file_size,omitempty"`
	// Destination is the destination's own JSON.
	Destination json.RawMessage `json:"destination,omitempty"`
	Metadata    []byte          `json:"metadata,omitempty"`
	Method      string          `json:"method,omitempty"`
	FellBack    bool            `json:"fell_back,omitempty"`
	// SessionURI is a capability; Put blanks it once Finished is set.
	SessionURI     string    `json:"session_uri,omitempty"`
	SessionStarted time.Time `json:"session_started,omitzero"`
	// SentAt is when a one-request upload of the file last went out whole
	// or was about to, its answer not heard: the file may have arrived,
	// and the destination is asked before it is sent again.
	SentAt time.Time `json:"sent_at,omitzero"`
	// LastByteAt is when a resumable upload's last byte went out, its
	// answer not heard, while it is paused: canceled, it keeps its session,
	// which is asked before anything is sent again.
	LastByteAt time.Time `json:"last_byte_at,omitzero"`
	// Since is where the destination stood just before the upload was
	// first sent (Gmail: the mailbox's historyId), so that a lookup after
	// a lost answer looks only at what was added since.
	Since string `json:"since,omitempty"`
	// RetryAt is when an upload told to wait may try again; it does not
	// start before. RetryAsked: the server asked for the wait (else it is
	// Hoist's own backoff, longer than a run waits).
	RetryAt    time.Time `json:"retry_at,omitzero"`
	RetryAsked bool      `json:"retry_asked,omitempty"`
	Committed  int64     `json:"committed,omitempty"`
	State      string    `json:"state,omitempty"`
	// Result is the server's JSON answer.
	Result json.RawMessage `json:"result,omitempty"`
	// ResultSummary is the sentence an older Hoist wrote of the result;
	// records written now hold ResultFact instead.
	ResultSummary string `json:"result_summary,omitempty"`
	// Verified names the server's checksum (or size) that matched the file.
	Verified string `json:"verified,omitempty"`
	// LastError is the reason's sentence an older Hoist wrote; records
	// written now hold LastFact instead.
	LastError string `json:"last_error,omitempty"`
	Details   string `json:"details,omitempty"` // the server's own words behind the reason
	// LastFact is why the job stopped, as a fact (engine/fact.Fact's JSON),
	// for the window and the command line to say in the user's language.
	LastFact json.RawMessage `json:"last_fact,omitempty"`
	// ResultFact is what the server made of the file, as a fact
	// (engine/fact.Fact's JSON).
	ResultFact json.RawMessage `json:"result_fact,omitempty"`
	// ResultRef is what was read from Result when it was written (the ids,
	// name and link the list shows), so that a long list opens without
	// reading every answer again; nil in a record of an older Hoist.
	ResultRef *ResultRef `json:"result_ref,omitempty"`
	// Email is what an email file's headers said, so that the list shows
	// them without reading the file again; nil when not kept (not an email
	// file, or a record of an older Hoist). Empty: the headers were read and
	// said nothing usable.
	Email *EmailHeaders `json:"email,omitempty"`
	// Part, for one email of a mailbox file (Path), is where it lies in
	// the file; nil for a file sent whole.
	Part *Part `json:"part,omitempty"`
	// ChunkSize is the job's bytes per request; nil: the app's setting.
	ChunkSize   *int64    `json:"chunk_size,omitempty"`
	FileChanged bool      `json:"file_changed,omitempty"` // stopped because the file changed since it was queued
	Restarts    int       `json:"restarts,omitempty"`
	Created     time.Time `json:"created,omitzero"`
	Updated     time.Time `json:"updated,omitzero"`
	// KeepResult makes Put keep the stored Result in place of this record's:
	// the caller did not keep the server's whole answer in memory.
	KeepResult bool `json:"-"`
	// Finished, when set, marks the record as history: it no longer moves.
	Finished time.Time `json:"finished,omitzero"`
	// Order sorts List; Put assigns the next number when it is 0 for a new id.
	Order int64 `json:"order,omitempty"`
}

// ResultRef is what Hoist read from a server's answer.
type ResultRef struct {
	ID       string `json:"id,omitempty"`
	ThreadID string `json:"thread_id,omitempty"`
	Name     string `json:"name,omitempty"`
	URL      string `json:"url,omitempty"`
}

// Part is where one email of a mailbox file lies in it, and how to read it.
type Part struct {
	Index    int      `json:"index"`
	Offset   int64    `json:"offset"`
	Length   int64    `json:"length"`
	Quoting  uint8    `json:"quoting,omitempty"`
	Sum      uint32   `json:"sum"`
	FileSize int64    `json:"file_size"`
	Labels   []string `json:"labels,omitempty"`
}

// EmailHeaders are an email file's sender, subject and date.
type EmailHeaders struct {
	From    string    `json:"from,omitempty"`
	Subject string    `json:"subject,omitempty"`
	Date    time.Time `json:"date,omitzero"`
}

// Options tune Open. The zero value is ready to use.
type Options struct {
	// LockTimeout is how long Open waits for another process to let go of the
	// journal before it returns ErrInUse; 0 means DefaultLockTimeout.
	LockTimeout time.Duration
	// Now stamps Created and Updated and names backups; nil means time.Now.
	Now func() time.Time
	// TidyLater leaves the scrubbing of what the last run freed in the file
	// to Tidy, which the caller runs once it has shown what it opened: a
	// long list is then copied into a new file after the window is up, not
	// before.
	TidyLater bool
}

func (o Options) withDefaults() Options {
	if o.LockTimeout <= 0 {
		o.LockTimeout = DefaultLockTimeout
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Journal is an open journal file. Its methods are safe for concurrent use.
type Journal struct {
	path string
	opts Options
	lock *fileLock

	// wmu is held by whoever writes the list or its files (every write,
	// a compaction for its whole copy, KeepCopy, Close), taken before mu:
	// one writer at a time, and none while a compaction copies the file.
	wmu sync.Mutex
	// mu is held exclusively only to swap db (the end of a compaction,
	// Close); readers and writers hold it shared, so a read waits for a
	// compaction only while the new file is put in place, not while it
	// is copied. db and broken change only under both.
	mu     sync.RWMutex
	db     *bbolt.DB // nil once closed or broken
	broken error     // why db is nil, when it is not a plain Close

	backup    string
	recovered error

	isView bool // a copy for reading (OpenView): no lock, no writes

	// kept is the file and transaction of the last good copy (KeepCopy).
	kept struct {
		db *bbolt.DB
		tx int
	}

	// opened are the records as Open read them to check them, kept for the
	// first List while nothing was written since: a long list is then
	// decoded once at start, not twice.
	openedMu sync.Mutex
	opened   *openedRecords
}

type openedRecords struct {
	db   *bbolt.DB
	tx   int // the transaction they were read in
	recs []Record
}

// takeOpened returns, once, the records Open read, when tx still sees them
// as they were: the same file, and no write committed since.
func (j *Journal) takeOpened(tx *bbolt.Tx) []Record {
	recs := j.peekOpened(tx)
	j.openedMu.Lock()
	j.opened = nil
	j.openedMu.Unlock()
	return recs
}

// peekOpened is takeOpened that leaves them for the first List.
func (j *Journal) peekOpened(tx *bbolt.Tx) []Record {
	j.openedMu.Lock()
	defer j.openedMu.Unlock()
	o := j.opened
	if o == nil || o.db != tx.DB() || o.tx != tx.ID() {
		return nil
	}
	return o.recs
}

// DefaultDir is the folder where Hoist keeps its journal (see dirs).
func DefaultDir() (string, error) {
	dir, err := dirs.Journal()
	if err != nil {
		return "", fmt.Errorf("finding the folder for the list of uploads: %w", err)
	}
	return dir, nil
}

// DefaultPath is where the journal lives unless the caller says otherwise.
// It is "" when the system has no settings folder (no home folder); Open("")
// then says why.
func DefaultPath() string {
	dir, err := DefaultDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, FileName)
}

// Path is the journal file's path.
func (j *Journal) Path() string { return j.path }

// Recovered reports whether Open found the journal damaged, or written by a
// newer Hoist, and set it aside. backup is where the old file was kept;
// reason says what happened in plain words and matches ErrCorrupt or
// ErrNewerVersion with errors.Is. Both are empty when nothing was recovered.
// The answer does not change; the caller tells the user once.
func (j *Journal) Recovered() (backup string, reason error) {
	return j.backup, j.recovered
}

// Close releases the journal and its lock. It is safe to call twice.
func (j *Journal) Close() error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	var err error
	if j.db != nil {
		if cerr := j.db.Close(); cerr != nil {
			err = fmt.Errorf("closing the list of uploads: %w", cerr)
		}
		j.db = nil
	}
	j.broken = ErrClosed
	if j.isView {
		if rerr := j.removeView(); rerr != nil && err == nil {
			err = rerr
		}
	}
	if j.lock != nil {
		if lerr := j.lock.release(); lerr != nil && err == nil {
			err = fmt.Errorf("releasing the list of uploads: %w", lerr)
		}
		j.lock = nil
	}
	return err
}

// Put writes the whole record in one durable transaction. For an id already
// in the journal, a zero Order or Created keeps the stored one. Updated is
// stamped now. A record with Finished set keeps no SessionURI.
func (j *Journal) Put(rec Record) error {
	return j.PutAll(rec)
}

// PutAll writes several records in one durable transaction, as Put does each:
// adding a thousand files costs one write to disk, not a thousand.
func (j *Journal) PutAll(recs ...Record) error {
	for _, rec := range recs {
		if rec.ID == "" {
			return errors.New("journal: a record needs an id")
		}
		if len(rec.ID) > bbolt.MaxKeySize {
			return errors.New("journal: the record id is too long")
		}
	}
	return j.update(func(jobs *bbolt.Bucket) error {
		for _, rec := range recs {
			if err := j.putLocked(jobs, rec); err != nil {
				return err
			}
		}
		return nil
	})
}

// putLocked stores rec inside a write transaction.
func (j *Journal) putLocked(jobs *bbolt.Bucket, rec Record) error {
	key := []byte(rec.ID)
	if old := jobs.Get(key); old != nil {
		prev, err := decodeRecord(key, old)
		if err != nil {
			return err
		}
		if rec.Order == 0 {
			rec.Order = prev.Order
		}
		if rec.Created.IsZero() {
			rec.Created = prev.Created
		}
		if rec.KeepResult {
			rec.Result = prev.Result
		}
	}
	if rec.Order == 0 {
		seq, err := jobs.NextSequence()
		if err != nil {
			return err
		}
		rec.Order = int64(seq)
	} else if rec.Order > 0 && uint64(rec.Order) > jobs.Sequence() {
		// Keep later automatic numbers after the ones the caller chose.
		if err := jobs.SetSequence(uint64(rec.Order)); err != nil {
			return err
		}
	}
	now := j.opts.Now()
	if rec.Created.IsZero() {
		rec.Created = now
	}
	rec.Updated = now
	if !rec.Finished.IsZero() {
		rec.SessionURI = ""
		rec.SessionStarted = time.Time{}
		rec.SentAt = time.Time{}
		rec.LastByteAt = time.Time{}
		rec.RetryAt, rec.RetryAsked = time.Time{}, false
	}
	return putRecord(jobs, normalize(rec))
}

// UpdateProgress records the bytes the server has confirmed for a job. It is
// one small durable transaction, meant to be called per confirmed chunk.
func (j *Journal) UpdateProgress(id string, committed int64) error {
	return j.update(func(jobs *bbolt.Bucket) error {
		key := []byte(id)
		raw := jobs.Get(key)
		if raw == nil {
			return fmt.Errorf("journal: job %q: %w", id, ErrNotFound)
		}
		rec, err := decodeRecord(key, raw)
		if err != nil {
			return err
		}
		rec.Committed = committed
		rec.Updated = j.opts.Now().UTC()
		return putRecord(jobs, rec)
	})
}

// Get returns the record of one job, or an error matching ErrNotFound.
func (j *Journal) Get(id string) (Record, error) {
	var rec Record
	err := j.view(func(jobs *bbolt.Bucket) error {
		key := []byte(id)
		raw := jobs.Get(key)
		if raw == nil {
			return fmt.Errorf("journal: job %q: %w", id, ErrNotFound)
		}
		var err error
		rec, err = decodeRecord(key, raw)
		return err
	})
	return rec, err
}

// List returns every record, sorted by Order (then by id).
func (j *Journal) List() ([]Record, error) {
	var recs []Record
	err := j.view(func(jobs *bbolt.Bucket) error {
		if recs = j.takeOpened(jobs.Tx()); recs != nil {
			return nil
		}
		var cause, err error
		recs, _, cause, err = decodeAll(jobs)
		if err == nil {
			err = cause
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sortRecords(recs)
	return recs, nil
}

// Delete removes the given jobs (ids not in the journal are ignored) and then
// rewrites the file so nothing of them stays readable in it.
func (j *Journal) Delete(ids ...string) error {
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	_, err := j.DeleteWhere(func(r Record) bool { return want[r.ID] })
	return err
}

// DeleteWhere removes, in one transaction, every record for which match
// returns true, and returns how many it removed. When it removed any, it then
// rewrites the file so nothing of them (session URIs included) stays readable
// in it; if that rewrite fails, the records are still gone and n says how
// many. match runs inside the transaction and must not call the Journal.
func (j *Journal) DeleteWhere(match func(Record) bool) (int, error) {
	n := 0
	err := j.update(func(jobs *bbolt.Bucket) error {
		var doomed [][]byte
		err := jobs.ForEach(func(k, v []byte) error {
			rec, err := decodeRecord(k, v)
			if err != nil {
				return err
			}
			if match(rec) {
				doomed = append(doomed, bytes.Clone(k))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range doomed {
			if err := jobs.Delete(k); err != nil {
				return err
			}
		}
		n = len(doomed)
		return nil
	})
	if err != nil || n == 0 {
		return n, err
	}
	return n, j.Compact()
}

// ClearFinished removes finished records: those whose State is one of
// states, or, when no state is given, every record with Finished set.
func (j *Journal) ClearFinished(states ...string) (int, error) {
	if len(states) == 0 {
		return j.DeleteWhere(func(r Record) bool { return !r.Finished.IsZero() })
	}
	return j.DeleteWhere(func(r Record) bool { return slices.Contains(states, r.State) })
}

// Prune removes history: records that finished before olderThan. It looks
// first, in the records Open read while they are current, else reading only
// when each record finished, and writes (a durable transaction, then a
// compaction) only when there is history to forget: opening a long list
// costs no write, and no second reading, when nothing is old.
func (j *Journal) Prune(olderThan time.Time) error {
	old := func(finished time.Time) bool { return !finished.IsZero() && finished.Before(olderThan) }
	found := false
	err := j.view(func(jobs *bbolt.Bucket) error {
		if recs := j.peekOpened(jobs.Tx()); recs != nil {
			found = slices.ContainsFunc(recs, func(r Record) bool { return old(r.Finished) })
			return nil
		}
		return jobs.ForEach(func(k, v []byte) error {
			var r struct {
				Finished time.Time `json:"finished,omitzero"`
			}
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("journal: job %q cannot be read: %w (%w)", k, ErrCorrupt, err)
			}
			if old(r.Finished) {
				found = true
				return errStop
			}
			return nil
		})
	})
	if errors.Is(err, errStop) {
		err = nil
	}
	if err != nil || !found {
		return err
	}
	_, err = j.DeleteWhere(func(r Record) bool { return old(r.Finished) })
	return err
}

// errStop ends a walk of the records early.
var errStop = errors.New("journal: stop")

// view runs fn in a read transaction on the jobs bucket.
func (j *Journal) view(fn func(jobs *bbolt.Bucket) error) error {
	j.mu.RLock()
	defer j.mu.RUnlock()
	if j.db == nil {
		return j.broken
	}
	return safely(func() error {
		return j.db.View(func(tx *bbolt.Tx) error {
			jobs := tx.Bucket(jobsBucket)
			if jobs == nil {
				return fmt.Errorf("journal: no jobs bucket: %w", ErrCorrupt)
			}
			return fn(jobs)
		})
	})
}

// writable is why the list cannot be written now, if it cannot: it was
// closed or found broken, or it is a copy for reading. j.wmu or j.mu must
// be held.
// Whoever lets go of j.mu with no database leaves the reason in j.broken
// (Close, reopen).
func (j *Journal) writable() error {
	if j.db == nil {
		return j.broken
	}
	if j.isView {
		return ErrReadOnly
	}
	return nil
}

// write runs fn as the list's one writer (see wmu), while the list is
// open and writable, and classifies its error.
func (j *Journal) write(fn func() error) error {
	j.wmu.Lock()
	defer j.wmu.Unlock()
	j.mu.RLock()
	defer j.mu.RUnlock()
	if err := j.writable(); err != nil {
		return err
	}
	return j.classify(fn())
}

// update runs fn in one durable write transaction on the jobs bucket.
func (j *Journal) update(fn func(jobs *bbolt.Bucket) error) error {
	return j.write(func() error {
		return safely(func() error {
			return j.db.Update(func(tx *bbolt.Tx) error {
				jobs := tx.Bucket(jobsBucket)
				if jobs == nil {
					return fmt.Errorf("journal: no jobs bucket: %w", ErrCorrupt)
				}
				return fn(jobs)
			})
		})
	})
}

// stored is a record as the file holds it: a path or name that is not
// UTF-8 (a file named on a system in another encoding, or with a broken
// name on Windows) is also kept as its exact bytes, which JSON's strings
// cannot carry, so that the file is found again.
type stored struct {
	Record
	PathBytes []byte `json:"path_bytes,omitempty"`
	NameBytes []byte `json:"name_bytes,omitempty"`
}

func putRecord(jobs *bbolt.Bucket, rec Record) error {
	s := stored{Record: rec}
	if !utf8.ValidString(rec.Path) {
		s.PathBytes = []byte(rec.Path)
	}
	if !utf8.ValidString(rec.Name) {
		s.NameBytes = []byte(rec.Name)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("journal: encoding job %q: %w", rec.ID, err)
	}
	return jobs.Put([]byte(rec.ID), raw)
}

func decodeRecord(key, raw []byte) (Record, error) {
	var s stored
	if err := json.Unmarshal(raw, &s); err != nil {
		return Record{}, fmt.Errorf("journal: job %q cannot be read: %w (%w)", key, ErrCorrupt, err)
	}
	rec := s.Record
	if s.PathBytes != nil {
		rec.Path = string(s.PathBytes)
	}
	if s.NameBytes != nil {
		rec.Name = string(s.NameBytes)
	}
	if rec.ID != string(key) {
		return Record{}, fmt.Errorf("journal: job %q carries another id: %w", key, ErrCorrupt)
	}
	return rec, nil
}

// decodeBatch is how many records a goroutine of decodeAll takes at a time.
const decodeBatch = 256

// decodeAll decodes every record of jobs, in key order, on as many
// goroutines as there are processors: a long list is read in a fraction of
// the time. bad are the keys of the records that cannot be read, cause why
// the first of them cannot; err is a fault in the file itself.
func decodeAll(jobs *bbolt.Bucket) (recs []Record, bad [][]byte, cause, err error) {
	var keys, vals [][]byte
	err = jobs.ForEach(func(k, v []byte) error {
		keys, vals = append(keys, k), append(vals, v)
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	all := make([]Record, len(keys))
	errs := make([]error, len(keys))
	var next atomic.Int64
	decode := func() error {
		for {
			from := int(next.Add(decodeBatch)) - decodeBatch
			if from >= len(keys) {
				return nil
			}
			for i := from; i < min(from+decodeBatch, len(keys)); i++ {
				all[i], errs[i] = decodeRecord(keys[i], vals[i])
			}
		}
	}
	workers := min(runtime.GOMAXPROCS(0), (len(keys)+decodeBatch-1)/decodeBatch)
	faults := make([]error, max(workers, 1))
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(func() { faults[w] = safely(decode) })
	}
	faults[0] = safely(decode)
	wg.Wait()
	if err := errors.Join(faults...); err != nil {
		return nil, nil, nil, err
	}
	recs = all[:0]
	for i := range all {
		if errs[i] != nil {
			bad = append(bad, append([]byte(nil), keys[i]...))
			if cause == nil {
				cause = errs[i]
			}
			continue
		}
		recs = append(recs, all[i])
	}
	clear(all[len(recs):])
	return recs, bad, cause, nil
}

// normalize stores times in UTC without monotonic readings, so a record reads
// back exactly as it was written.
func normalize(r Record) Record {
	for _, t := range []*time.Time{&r.ModTime, &r.SessionStarted, &r.Created, &r.Updated, &r.Finished} {
		if t.IsZero() {
			*t = time.Time{}
		} else {
			*t = t.UTC()
		}
	}
	return r
}

func sortRecords(recs []Record) {
	slices.SortStableFunc(recs, func(a, b Record) int {
		if a.Order != b.Order {
			if a.Order < b.Order {
				return -1
			}
			return 1
		}
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
}

// listFile is the list's file on disk: opened and checked, set aside or put
// back from its last good copy when damaged, tidied and mapped again. Its
// methods keep to the file; the Journal's own keep to the records.
type listFile struct{ *Journal }
