package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestOpenViewBesideWriter reads the list again and again while its holder
// writes, as `hoist queue` does beside a running `hoist send`: every view
// is whole (never torn by a commit landing while it is copied), holds the
// records of some moment in order, refuses changes, and leaves no copy.
func TestOpenViewBesideWriter(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	if err := j.Put(Record{ID: "first", Path: "/a.png"}); err != nil {
		t.Fatal(err)
	}
	// A long list, so that a copy takes a while.
	var many []Record
	for n := range 2000 {
		many = append(many, Record{ID: fmt.Sprintf("old-%05d", n), Metadata: []byte(strings.Repeat("o", 1500))})
	}
	if err := j.PutAll(many...); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := 0; ; n++ {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond): // far busier than uploads write
			}
			id := fmt.Sprintf("rec-%05d", n)
			// Records of changing sizes, and removals: pages are freed and
			// used again, as a long upload's progress does.
			if err := j.Put(Record{ID: id, Metadata: []byte(strings.Repeat("m", 100+n%3000))}); err != nil {
				t.Error(err)
				return
			}
			if n%7 == 0 {
				if err := j.UpdateProgress("first", int64(n)); err != nil {
					t.Error(err)
					return
				}
			}
			if n%5 == 4 {
				if err := j.Delete(fmt.Sprintf("rec-%05d", n-2)); err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	deadline := time.Now().Add(1500 * time.Millisecond)
	views := 0
	for time.Now().Before(deadline) && views < 100 {
		v, err := OpenView(path)
		if err != nil {
			t.Fatalf("view %d: %v", views, err)
		}
		if !v.View() {
			t.Error("a view does not say it is one")
		}
		recs, err := v.List()
		if err != nil {
			t.Fatalf("view %d: List: %v", views, err)
		}
		if len(recs) == 0 || recs[0].ID != "first" {
			t.Fatalf("view %d: %d records, the first %+v", views, len(recs), recs)
		}
		if err := v.Put(Record{ID: "x"}); !errors.Is(err, ErrReadOnly) {
			t.Errorf("Put on a view = %v, want ErrReadOnly", err)
		}
		if err := v.Close(); err != nil {
			t.Fatal(err)
		}
		views++
	}
	close(stop)
	wg.Wait()
	t.Logf("%d views read beside the writer", views)
	entries, _ := os.ReadDir(filepath.Dir(path))
	for _, e := range entries {
		if strings.Contains(e.Name(), viewInfix) {
			t.Errorf("a view's copy was left: %s", e.Name())
		}
	}
	if _, reason := j.Recovered(); reason != nil {
		t.Errorf("the holder's list: %v", reason)
	}
}

// TestOpenRemovesStaleViews: a view's copy that a stopped reader left is
// removed by the next Open; a fresh one, perhaps being read, stays.
func TestOpenRemovesStaleViews(t *testing.T) {
	path := tempPath(t)
	stale, fresh := path+viewInfix+"1", path+viewInfix+"2"
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("copy"), fileMode); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	openAt(t, path, nil)
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale copy is still there: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("the fresh copy was removed: %v", err)
	}
}
