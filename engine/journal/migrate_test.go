package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// v1Record is a record as version 1 wrote it, spelled out here so the test
// does not depend on the code under test.
type v1Record struct {
	ID            string          `json:"id"`
	Path          string          `json:"path,omitempty"`
	Name          string          `json:"name,omitempty"`
	Size          int64           `json:"size,omitempty"`
	Destination   json.RawMessage `json:"destination,omitempty"`
	Method        string          `json:"method,omitempty"`
	UploadURL     string          `json:"upload_url,omitempty"`
	UploadStarted time.Time       `json:"upload_started,omitzero"`
	Committed     int64           `json:"committed,omitempty"`
	State         string          `json:"state,omitempty"`
	Created       time.Time       `json:"created,omitzero"`
	Future        string          `json:"future_field,omitempty"` // a field this build does not know
}

func writeV1(t *testing.T, path string, recs []v1Record, raw map[string]string) {
	t.Helper()
	withBolt(t, path, func(tx *bbolt.Tx) error {
		meta, err := tx.CreateBucket([]byte("meta"))
		if err != nil {
			return err
		}
		if err := meta.Put([]byte("version"), []byte("1")); err != nil {
			return err
		}
		jobs, err := tx.CreateBucket([]byte("jobs"))
		if err != nil {
			return err
		}
		for _, r := range recs {
			b, err := json.Marshal(r)
			if err != nil {
				return err
			}
			if err := jobs.Put([]byte(r.ID), b); err != nil {
				return err
			}
		}
		for k, v := range raw {
			if err := jobs.Put([]byte(k), []byte(v)); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestMigrations(t *testing.T) {
	if len(migrations) != SchemaVersion-1 {
		t.Fatalf("%d migrations for schema version %d; each version needs one step from the one before", len(migrations), SchemaVersion)
	}
	day := func(d int) time.Time { return time.Date(2025, 1, d, 12, 0, 0, 0, time.UTC) }
	v1 := []v1Record{
		{ID: "zeta", Path: "/a/zeta.png", Name: "zeta.png", Size: 10, Method: "media", State: "done", Created: day(1)},
		{ID: "alpha", Path: "/a/alpha.eml", Name: "alpha.eml", Size: 30 << 20, Method: "resumable",
			UploadURL: "https://www.googleapis.com/upload/x?upload_id=AAA", UploadStarted: day(2),
			Committed: 8 << 20, State: "paused", Created: day(3), Future: "kept",
			Destination: json.RawMessage(`{"kind":"gmail"}`)},
		{ID: "mid", Name: "mid.png", State: "waiting", Created: day(2)},
		{ID: "beta", Name: "beta.png", State: "waiting", Created: day(2)},
	}

	t.Run("version 1 becomes the current version and keeps the data", func(t *testing.T) {
		path := tempPath(t)
		writeV1(t, path, v1, nil)
		j := openAt(t, path, nil)
		if b, r := j.Recovered(); b != "" || r != nil {
			t.Fatalf("migration was treated as damage: %v", r)
		}
		recs, err := j.List()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ids(recs), "zeta,beta,mid,alpha"; got != want {
			t.Errorf("order = %s, want %s (creation time, then id)", got, want)
		}
		alpha, err := j.Get("alpha")
		if err != nil {
			t.Fatal(err)
		}
		want := Record{ID: "alpha", Path: "/a/alpha.eml", Name: "alpha.eml", Size: 30 << 20, Method: "resumable",
			SessionURI: "https://www.googleapis.com/upload/x?upload_id=AAA", SessionStarted: day(2),
			Committed: 8 << 20, State: "paused", Created: day(3), Order: 4,
			Destination: json.RawMessage(`{"kind":"gmail"}`)}
		if !reflect.DeepEqual(alpha, want) {
			t.Errorf("migrated\n got %+v\nwant %+v", alpha, want)
		}
		if err := j.Put(Record{ID: "new"}); err != nil {
			t.Fatal(err)
		}
		if n, err := j.Get("new"); err != nil || n.Order != 5 {
			t.Errorf("a job added after migration has order %d (%v), want 5", n.Order, err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		withBolt(t, path, func(tx *bbolt.Tx) error {
			if v := string(tx.Bucket(metaBucket).Get(versionKey)); v != fmt.Sprint(SchemaVersion) {
				t.Errorf("version after migration = %q, want %d", v, SchemaVersion)
			}
			var fields map[string]any
			if err := json.Unmarshal(tx.Bucket(jobsBucket).Get([]byte("alpha")), &fields); err != nil {
				return err
			}
			if fields["future_field"] != "kept" || fields["upload_url"] != nil {
				t.Errorf("stored record after migration = %v; want unknown fields kept and old names gone", fields)
			}
			return nil
		})
	})

	t.Run("a version 2 list becomes version 3 with its records as they were", func(t *testing.T) {
		// A version 2 Hoist reads a record of one email of a mailbox as the
		// whole mailbox file: once this build has written such records, a
		// version 2 Hoist must set the list aside, which it does for any
		// version above its own.
		path := tempPath(t)
		stored := map[string]string{
			"one":  `{"id":"one","name":"a.png","state":"done","order":1,"future_field":"kept"}`,
			"mail": `{"id":"mail","name":"box.mbox","state":"waiting","order":2,"part":{"index":3,"offset":10,"length":20,"sum":7,"file_size":99}}`,
		}
		withBolt(t, path, func(tx *bbolt.Tx) error {
			meta, err := tx.CreateBucket(metaBucket)
			if err != nil {
				return err
			}
			if err := meta.Put(versionKey, []byte("2")); err != nil {
				return err
			}
			jobs, err := tx.CreateBucket(jobsBucket)
			if err != nil {
				return err
			}
			for k, v := range stored {
				if err := jobs.Put([]byte(k), []byte(v)); err != nil {
					return err
				}
			}
			return nil
		})
		j := openAt(t, path, nil)
		if b, r := j.Recovered(); b != "" || r != nil {
			t.Fatalf("migration was treated as damage: %v", r)
		}
		if mail, err := j.Get("mail"); err != nil || mail.Part == nil || mail.Part.Index != 3 {
			t.Errorf("the mailbox's email after migration: %+v, %v", mail, err)
		}
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		withBolt(t, path, func(tx *bbolt.Tx) error {
			if v := string(tx.Bucket(metaBucket).Get(versionKey)); v != "3" {
				t.Errorf("version after opening a version 2 list = %q, want 3", v)
			}
			for k, v := range stored {
				if got := string(tx.Bucket(jobsBucket).Get([]byte(k))); got != v {
					t.Errorf("record %s after migration = %s, want it unchanged: %s", k, got, v)
				}
			}
			return nil
		})
	})

	t.Run("an empty version 1 journal", func(t *testing.T) {
		path := tempPath(t)
		writeV1(t, path, nil, nil)
		j := openAt(t, path, nil)
		if err := j.Put(Record{ID: "a"}); err != nil {
			t.Fatal(err)
		}
		if a, _ := j.Get("a"); a.Order != 1 {
			t.Errorf("first order = %d, want 1", a.Order)
		}
	})

	t.Run("a version 1 journal that cannot be migrated is set aside whole", func(t *testing.T) {
		path := tempPath(t)
		writeV1(t, path, v1, map[string]string{"broken": `{"id":"broken","created":"yesterday"}`})
		j := openAt(t, path, nil)
		backup, reason := j.Recovered()
		if !errors.Is(reason, ErrCorrupt) || backup == "" {
			t.Fatalf("Recovered() = %q, %v; want a backup and ErrCorrupt", backup, reason)
		}
		recs, err := j.List()
		if err != nil || len(recs) != 0 {
			t.Errorf("List = %d records, %v; want an empty journal", len(recs), err)
		}
		withBolt(t, backup, func(tx *bbolt.Tx) error {
			if v := string(tx.Bucket(metaBucket).Get(versionKey)); v != "1" || tx.Bucket(jobsBucket).Get([]byte("alpha")) == nil {
				t.Errorf("the backup is not the version 1 file as it was (version %q)", v)
			}
			return nil
		})
	})
}
