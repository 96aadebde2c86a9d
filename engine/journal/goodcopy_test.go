package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
