package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"go.etcd.io/bbolt"
)

// SchemaVersion is the layout of the journal this build writes.
//
// Version 1: bucket "jobs" keyed by job id, JSON records whose session URI is
// "upload_url" and its start "upload_started", without "order" (rows were
// sorted by creation time).
// Version 2: the session fields are "session_uri" and "session_started", and
// every record carries "order", a sequence number of the jobs bucket.
// Version 3: a record may be one email of a mailbox file ("part": its place
// in the file) and a Gmail upload may carry the mailbox's history id from
// just before its send ("since"). The records are read as before, but a
// Hoist that knows only version 2 would send a mailbox's email as the whole
// mailbox file and look for a lost answer without the history id, so the
// version goes up: such a Hoist sets the list aside instead of using it.
const SchemaVersion = 3

var (
	metaBucket = []byte("meta")
	jobsBucket = []byte("jobs")
	versionKey = []byte("version")
)

// migrations[i] turns a version i+1 journal into version i+2, inside the
// same write transaction as the others, so a crash leaves the old version.
var migrations = []func(tx *bbolt.Tx) error{
	migrate1to2,
	migrate2to3,
}

// readVersion returns the schema version, or 0 for a file with no buckets at
// all (a new journal).
func readVersion(tx *bbolt.Tx) (int, error) {
	meta := tx.Bucket(metaBucket)
	if meta == nil {
		empty := true
		_ = tx.ForEach(func([]byte, *bbolt.Bucket) error {
			empty = false
			return nil
		})
		if empty {
			return 0, nil
		}
		return 0, fmt.Errorf("the file is not a list of uploads: %w", ErrCorrupt)
	}
	raw := meta.Get(versionKey)
	v, err := strconv.Atoi(string(raw))
	if err != nil || v < 1 {
		return 0, fmt.Errorf("unreadable version %q: %w", raw, ErrCorrupt)
	}
	if v <= SchemaVersion && tx.Bucket(jobsBucket) == nil {
		return 0, fmt.Errorf("version %d without its jobs: %w", v, ErrCorrupt)
	}
	return v, nil
}

func writeVersion(tx *bbolt.Tx, v int) error {
	meta, err := tx.CreateBucketIfNotExists(metaBucket)
	if err != nil {
		return err
	}
	return meta.Put(versionKey, []byte(strconv.Itoa(v)))
}

// initSchema lays out a new journal at the current version.
func initSchema(tx *bbolt.Tx) error {
	if _, err := tx.CreateBucketIfNotExists(jobsBucket); err != nil {
		return err
	}
	return writeVersion(tx, SchemaVersion)
}

// migrate brings a journal from version from up to SchemaVersion.
func migrate(tx *bbolt.Tx, from int) error {
	for v := from; v < SchemaVersion; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("upgrading the list of uploads from version %d: %w", v, err)
		}
		if err := writeVersion(tx, v+1); err != nil {
			return err
		}
	}
	return nil
}

// migrate2to3 changes no record: version 3 only adds fields (see
// SchemaVersion), and migrate writes the new version.
func migrate2to3(tx *bbolt.Tx) error {
	if tx.Bucket(jobsBucket) == nil {
		return fmt.Errorf("no jobs bucket: %w", ErrCorrupt)
	}
	return nil
}

// migrate1to2 renames the session fields and numbers the jobs in the order
// version 1 showed them (creation time, then id). It works on raw JSON so it
// keeps fields it does not know about.
func migrate1to2(tx *bbolt.Tx) error {
	jobs := tx.Bucket(jobsBucket)
	if jobs == nil {
		return fmt.Errorf("no jobs bucket: %w", ErrCorrupt)
	}
	type entry struct {
		key     []byte
		fields  map[string]json.RawMessage
		created time.Time
	}
	var all []entry
	err := jobs.ForEach(func(k, v []byte) error {
		e := entry{key: bytes.Clone(k)}
		if err := json.Unmarshal(v, &e.fields); err != nil || e.fields == nil {
			return fmt.Errorf("job %q cannot be read: %w", k, ErrCorrupt)
		}
		if raw, ok := e.fields["created"]; ok {
			if err := json.Unmarshal(raw, &e.created); err != nil {
				return fmt.Errorf("job %q has an unreadable creation time: %w", k, ErrCorrupt)
			}
		}
		all = append(all, e)
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		if c := a.created.Compare(b.created); c != 0 {
			return c
		}
		return bytes.Compare(a.key, b.key)
	})
	renames := map[string]string{"upload_url": "session_uri", "upload_started": "session_started"}
	for i, e := range all {
		for old, now := range renames {
			if raw, ok := e.fields[old]; ok {
				e.fields[now] = raw
				delete(e.fields, old)
			}
		}
		e.fields["order"] = json.RawMessage(strconv.Itoa(i + 1))
		raw, err := json.Marshal(e.fields)
		if err != nil {
			return err
		}
		if err := jobs.Put(e.key, raw); err != nil {
			return err
		}
	}
	return jobs.SetSequence(uint64(len(all)))
}
