package journal

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"

	"hoist/engine/fact"
)

// damageStart writes seven bytes of rubbish over the start of the file.
func damageStart(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("garbage"), 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedListComesBackFromItsLastGoodCopy: a list damaged at its start
// is set aside and its last good copy put back, with how old it is; a
// damaged copy is not put back.
func TestDamagedListComesBackFromItsLastGoodCopy(t *testing.T) {
	c := newClock()
	path := tempPath(t)
	j := openAt(t, path, c)
	if err := j.PutAll(Record{ID: "a", Path: "/a.png"}, Record{ID: "b", Path: "/b.png", SessionURI: "https://x.test/?upload_id=b"}); err != nil {
		t.Fatal(err)
	}
	if err := j.KeepCopy(); err != nil {
		t.Fatal(err)
	}
	if err := j.Put(Record{ID: "later", Path: "/later.png"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	damageStart(t, path)
	damageStart(t, path) // both meta pages' first bytes, by page size below
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	_, _ = f.WriteAt([]byte("garbage"), int64(os.Getpagesize()))
	f.Close()

	c.Advance(2*time.Hour + 5*time.Minute)
	j = openAt(t, path, c)
	backup, reason := j.Recovered()
	var rec *RecoveryError
	if !errors.As(reason, &rec) || !rec.Restored {
		t.Fatalf("Recovered = %q, %v; want the good copy put back", backup, reason)
	}
	f2 := rec.Fact()
	if f2.Code != fact.ListRestored || f2.Wait != 2*time.Hour+5*time.Minute || f2.File != backup {
		t.Errorf("fact = %+v, want %s, 2h05m old, naming %s", f2, fact.ListRestored, backup)
	}
	if !strings.Contains(backup, backupInfix) {
		t.Errorf("the damaged list is not kept aside: %q", backup)
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if ids(recs) != "a,b" {
		t.Errorf("restored %s, want a,b (as the copy had them)", ids(recs))
	}
	if got, _ := j.Get("b"); got.SessionURI == "" {
		t.Errorf("the restored b lost its session: %+v", got)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	// A damaged copy is no good copy: an empty list, said as damage.
	for _, p := range []string{path, path + goodSuffix} {
		damageStart(t, p)
		f, _ := os.OpenFile(p, os.O_WRONLY, 0)
		_, _ = f.WriteAt([]byte("garbage"), int64(os.Getpagesize()))
		f.Close()
	}
	j = openAt(t, path, c)
	if _, reason := j.Recovered(); !errors.As(reason, &rec) || rec.Restored || rec.Fact().Code != fact.ListDamaged {
		t.Errorf("with the copy damaged too: %v, want an empty list said as damage", reason)
	}
	if recs, _ := j.List(); len(recs) != 0 {
		t.Errorf("%d records from a damaged copy", len(recs))
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestDamagedRecordsComeBackFromTheGoodCopy: records that cannot be read in
// a list that is otherwise whole are put back as its last good copy has
// them; one the copy lacks is left out, as before; the copy itself is left
// as it was, and a later KeepCopy replaces it as usual.
func TestDamagedRecordsComeBackFromTheGoodCopy(t *testing.T) {
	c := newClock()
	path := tempPath(t)
	j := openAt(t, path, c)
	a, b := fullRecord("a"), Record{ID: "b", Path: "/b.png", SessionURI: "https://x.test/?upload_id=b", Committed: 4096}
	if err := j.PutAll(a, b, Record{ID: "c", Path: "/c.png"}); err != nil {
		t.Fatal(err)
	}
	if err := j.KeepCopy(); err != nil {
		t.Fatal(err)
	}
	asKept := map[string]Record{}
	for _, id := range []string{"a", "b"} {
		rec, err := j.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		asKept[id] = rec
	}
	// Changed since the copy, then damaged: it comes back as the copy had it.
	b.Committed = 8192
	if err := j.PutAll(b, Record{ID: "d", Path: "/d.png"}); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	good := path + goodSuffix
	keptBytes, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	keptInfo, err := os.Stat(good)
	if err != nil {
		t.Fatal(err)
	}
	withBolt(t, path, func(tx *bbolt.Tx) error {
		for _, id := range []string{"a", "b", "d"} {
			if err := tx.Bucket(jobsBucket).Put([]byte(id), []byte(`{"id":"`+id+`","size":"big`)); err != nil {
				return err
			}
		}
		return nil
	})

	c.Advance(40 * time.Minute)
	j = openAt(t, path, c)
	backup, reason := j.Recovered()
	var rec *RecoveryError
	if !errors.As(reason, &rec) || rec.Mended != 2 || rec.Dropped != 1 || rec.Backup != backup {
		t.Fatalf("Recovered = %q, %#v; want 2 put back from the copy and 1 left out", backup, reason)
	}
	said := rec.Fact()
	if said.Code != fact.ListMended || said.Count != 2 || said.Wait != 40*time.Minute || said.Arg("dropped") != "1" || said.File != backup {
		t.Errorf("fact = %+v, want %s: 2 put back from a copy 40m old, 1 left out, naming %s", said, fact.ListMended, backup)
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if ids(recs) != "a,b,c" {
		t.Errorf("listed %s, want a,b,c (d was not in the copy)", ids(recs))
	}
	for _, got := range recs {
		if want, ok := asKept[got.ID]; ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s put back as\n %+v\nwant it as the copy had it\n %+v", got.ID, got, want)
		}
	}
	if raw, err := os.ReadFile(backup); err != nil || !bytes.Contains(raw, []byte(`{"id":"d","size":"big`)) {
		t.Errorf("the damaged list is not kept as it was in %s (%v)", backup, err)
	}
	if now, err := os.ReadFile(good); err != nil || !bytes.Equal(now, keptBytes) {
		t.Errorf("the good copy changed (%v)", err)
	}
	if info, err := os.Stat(good); err != nil || !info.ModTime().Equal(keptInfo.ModTime()) {
		t.Errorf("the good copy was touched (%v)", err)
	}

	// The copy is not held: the next one replaces it, with what is listed now.
	if err := j.Put(Record{ID: "e", Path: "/e.png"}); err != nil {
		t.Fatal(err)
	}
	if err := j.KeepCopy(); err != nil {
		t.Fatalf("KeepCopy after the lookup: %v", err)
	}
	v, err := OpenView(good)
	if err != nil {
		t.Fatal(err)
	}
	copied, _ := v.List()
	v.Close()
	if ids(copied) != "a,b,c,e" {
		t.Errorf("the next good copy holds %s, want a,b,c,e", ids(copied))
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = openAt(t, path, c)
	if b, r := j.Recovered(); b != "" || r != nil {
		t.Errorf("the next start reports again: %q, %v", b, r)
	}
}
