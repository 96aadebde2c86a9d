package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hoist/engine/fact"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	"go.etcd.io/bbolt"
)

// seedJournal writes n records of about size bytes each and closes the file.
func seedJournal(t *testing.T, path string, n, size int) {
	t.Helper()
	j := openAt(t, path, nil)
	for i := range n {
		rec := fullRecord(fmt.Sprintf("job-%03d", i))
		rec.LastError = strings.Repeat("x", size)
		if err := j.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
}

// withBolt edits a journal file directly, as another program (or an older
// or newer Hoist) would.
func withBolt(t *testing.T, path string, fn func(tx *bbolt.Tx) error) {
	t.Helper()
	db, err := bbolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(fn); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// rewritePages lets edit change, in place, every page of type typ ("leaf",
// "branch") that the journal file uses.
func rewritePages(t *testing.T, path, typ string, edit func(p []byte, i int)) {
	t.Helper()
	var ids []int
	db, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	err = db.View(func(tx *bbolt.Tx) error {
		for id := 2; ; id++ {
			info, err := tx.Page(id)
			if err != nil || info == nil {
				return err
			}
			if info.Type == typ {
				ids = append(ids, id)
			}
		}
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		t.Fatalf("no %s pages in the journal", typ)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	size := os.Getpagesize()
	for i, id := range ids {
		edit(raw[id*size:(id+1)*size], i)
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// setBranchChildren points every element of a branch page at page id.
func setBranchChildren(p []byte, id uint64) {
	const header, element = 16, 16
	count := int(binary.LittleEndian.Uint16(p[10:12]))
	for e := range count {
		binary.LittleEndian.PutUint64(p[header+e*element+8:], id)
	}
}

func randomBytes(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func TestDamagedJournal(t *testing.T) {
	page := os.Getpagesize()
	tests := []struct {
		name    string
		damage  func(t *testing.T, path string)
		kind    error // nil: not recovered at all
		dropped int   // records left out of a file that was kept
		remain  int   // records readable afterwards
	}{
		{
			name: "truncated to a few bytes",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 10, 100)
				if err := os.Truncate(path, 100); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "truncated to half",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 200, 2000)
				info, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(path, info.Size()/2); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "garbage bytes",
			damage: func(t *testing.T, path string) {
				if err := os.WriteFile(path, randomBytes(64<<10, 1), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "garbage pages behind valid meta pages",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				copy(raw[2*page:], randomBytes(len(raw)-2*page, 2))
				if err := os.WriteFile(path, raw, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "zeroed pages behind valid meta pages",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				clear(raw[2*page:])
				if err := os.WriteFile(path, raw, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "branch page pointing past the end of the file",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				// Every page id field in data pages becomes huge: a reader that
				// follows one lands outside the mapped file.
				for off := 2 * page; off+page <= len(raw); off += page {
					copy(raw[off:off+8], []byte{0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0})
				}
				if err := os.WriteFile(path, raw, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "leaf pages garbled",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				rewritePages(t, path, "leaf", func(p []byte, i int) { copy(p, randomBytes(len(p), uint64(100+i))) })
			},
			kind: ErrCorrupt,
		},
		{
			name: "branch pointing past the last page",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				info, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				beyond := uint64(info.Size()/int64(page)) + 3
				rewritePages(t, path, "branch", func(p []byte, _ int) { setBranchChildren(p, beyond) })
			},
			kind: ErrCorrupt,
		},
		{
			name: "branch pointing far outside the mapped file",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 100, 2000)
				rewritePages(t, path, "branch", func(p []byte, _ int) { setBranchChildren(p, 1<<36) })
			},
			kind: ErrCorrupt,
		},
		{
			name: "keys out of order",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 3, 10)
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				// A leaf stores each key right before its value.
				a, b := []byte(`job-000{"id"`), []byte(`job-001{"id"`)
				i, k := bytes.Index(raw, a), bytes.Index(raw, b)
				if i < 0 || k < 0 {
					t.Fatal("keys not found in the file")
				}
				copy(raw[i:], b[:7])
				copy(raw[k:], a[:7])
				if err := os.WriteFile(path, raw, 0o600); err != nil {
					t.Fatal(err)
				}
			},
			kind: ErrCorrupt,
		},
		{
			name: "newer schema",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 3, 10)
				withBolt(t, path, func(tx *bbolt.Tx) error {
					return tx.Bucket(metaBucket).Put(versionKey, []byte(fmt.Sprint(SchemaVersion+1)))
				})
			},
			kind: ErrNewerVersion,
		},
		{
			name: "unreadable version",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 3, 10)
				withBolt(t, path, func(tx *bbolt.Tx) error {
					return tx.Bucket(metaBucket).Put(versionKey, []byte("two"))
				})
			},
			kind: ErrCorrupt,
		},
		{
			name: "another program's database",
			damage: func(t *testing.T, path string) {
				withBolt(t, path, func(tx *bbolt.Tx) error {
					_, err := tx.CreateBucket([]byte("invoices"))
					return err
				})
			},
			kind: ErrCorrupt,
		},
		{
			name: "one damaged record",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 3, 10)
				withBolt(t, path, func(tx *bbolt.Tx) error {
					return tx.Bucket(jobsBucket).Put([]byte("job-001"), []byte(`{"id":"job-001","size":"big`))
				})
			},
			kind:    ErrCorrupt,
			dropped: 1,
			remain:  2,
		},
		{
			name: "record under another id",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 3, 10)
				withBolt(t, path, func(tx *bbolt.Tx) error {
					return tx.Bucket(jobsBucket).Put([]byte("job-002"), []byte(`{"id":"job-000"}`))
				})
			},
			kind:    ErrCorrupt,
			dropped: 1,
			remain:  2,
		},
		{
			name: "empty file (crash right after creation)",
			damage: func(t *testing.T, path string) {
				if err := os.WriteFile(path, nil, 0o600); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "half-made copy from an interrupted tidy-up",
			damage: func(t *testing.T, path string) {
				seedJournal(t, path, 5, 10)
				if err := os.WriteFile(path+compactSuffix, randomBytes(10000, 3), 0o600); err != nil {
					t.Fatal(err)
				}
			},
			remain: 5,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tempPath(t)
			tt.damage(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c := newClock()
			j := openAt(t, path, c)

			backup, reason := j.Recovered()
			recs, err := j.List()
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if len(recs) != tt.remain {
				t.Errorf("%d records readable, want %d", len(recs), tt.remain)
			}
			if tt.kind == nil {
				if backup != "" || reason != nil {
					t.Fatalf("Recovered() = %q, %v; want nothing", backup, reason)
				}
				if _, err := os.Stat(path + compactSuffix); !os.IsNotExist(err) {
					t.Errorf("the half-made copy is still there: %v", err)
				}
				return
			}

			if !errors.Is(reason, tt.kind) {
				t.Fatalf("Recovered() reason = %v, want one matching %v", reason, tt.kind)
			}
			var re *RecoveryError
			if !errors.As(reason, &re) || re.Dropped != tt.dropped || re.Backup != backup {
				t.Errorf("reason = %#v, want a RecoveryError with Dropped %d and Backup %s", reason, tt.dropped, backup)
			}
			wantBackup := path + ".bad-" + c.Now().Format("20060102-150405")
			if backup != wantBackup {
				t.Errorf("backup = %s, want %s", backup, wantBackup)
			}
			// What happened is a fact naming where the old list is kept
			// (package words says it); its Error is that fact, for logs.
			t.Logf("cause: %v", errors.Unwrap(reason))
			said := re.Fact()
			wantCode := fact.ListDamaged
			switch {
			case errors.Is(reason, ErrNewerVersion):
				wantCode = fact.ListNewer
			case tt.dropped > 0:
				wantCode = fact.ListDropped
			}
			if said.Code != wantCode || said.File != backup || said.Count != tt.dropped {
				t.Errorf("fact %+v, want %s naming %s and %d dropped", said, wantCode, backup, tt.dropped)
			}
			msg := reason.Error()
			words := strings.ToLower(strings.ReplaceAll(msg, backup, ""))
			for _, jargon := range []string{"bbolt", "page", "panic", "checksum", "version 3", "json", "%!"} {
				if strings.Contains(words, jargon) {
					t.Errorf("message %q speaks of %q", msg, jargon)
				}
			}

			info, err := os.Stat(backup)
			if err != nil {
				t.Fatalf("backup: %v", err)
			}
			if info.Mode().Perm() != 0o600 {
				t.Errorf("backup mode = %o, want 600", info.Mode().Perm())
			}
			kept, err := os.ReadFile(backup)
			if err != nil {
				t.Fatal(err)
			}
			if tt.dropped == 0 && !bytes.Equal(kept, before) {
				t.Error("the backup differs from the file that was set aside")
			}

			// The new journal works, and the next start has nothing to report.
			if err := j.Put(Record{ID: "new"}); err != nil {
				t.Fatalf("Put after recovery: %v", err)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			j = openAt(t, path, c)
			if b, r := j.Recovered(); b != "" || r != nil {
				t.Errorf("second Open reports again: %q, %v", b, r)
			}
			if _, err := j.Get("new"); err != nil {
				t.Errorf("record written after recovery: %v", err)
			}
		})
	}
}

func TestRecoveryKeepsEveryBackup(t *testing.T) {
	path := tempPath(t)
	c := newClock()
	var backups []string
	for i := range 3 {
		if err := os.WriteFile(path, randomBytes(8192, uint64(10+i)), 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := Open(path, Options{Now: c.Now})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := j.Recovered()
		backups = append(backups, b)
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
	}
	stamp := path + ".bad-" + c.Now().Format("20060102-150405")
	want := []string{stamp, stamp + "-2", stamp + "-3"}
	for i := range want {
		if backups[i] != want[i] {
			t.Errorf("backup %d = %s, want %s", i, backups[i], want[i])
		}
		raw, err := os.ReadFile(want[i])
		if err != nil || !bytes.Equal(raw, randomBytes(8192, uint64(10+i))) {
			t.Errorf("backup %d does not hold the file it replaced (%v)", i, err)
		}
	}
}

// A long list is decoded on several goroutines: damaged records anywhere in
// it are left out, and every other one is listed, in order.
func TestLongListWithDamagedRecords(t *testing.T) {
	const n = 3*decodeBatch + 17 // fullRecord's all have the same Order: they sort by id
	path := tempPath(t)
	seedJournal(t, path, n, 10)
	damaged := []string{"job-000", "job-300", fmt.Sprintf("job-%03d", n-1)}
	withBolt(t, path, func(tx *bbolt.Tx) error {
		for _, id := range damaged {
			if err := tx.Bucket(jobsBucket).Put([]byte(id), []byte(`{"id":`)); err != nil {
				return err
			}
		}
		return nil
	})
	j := openAt(t, path, nil)
	defer j.Close()
	_, reason := j.Recovered()
	var re *RecoveryError
	if !errors.As(reason, &re) || re.Dropped != len(damaged) {
		t.Fatalf("reason = %v, want %d records left out", reason, len(damaged))
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != n-len(damaged) {
		t.Fatalf("%d records listed, want %d", len(recs), n-len(damaged))
	}
	for i := 1; i < len(recs); i++ {
		if recs[i-1].ID >= recs[i].ID || slices.Contains(damaged, recs[i].ID) {
			t.Fatalf("records %d and %d: %s, %s", i-1, i, recs[i-1].ID, recs[i].ID)
		}
	}
}
