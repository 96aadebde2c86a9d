package journal

import (
	"reflect"
	"testing"
	"time"
)

// TestListAfterOpen: the records Open read to check them serve the first
// List only while nothing was written since; a write in between is listed.
func TestListAfterOpen(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, newClock())
	for _, id := range []string{"job-1", "job-2"} {
		if err := j.Put(fullRecord(id)); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened: the first List (from what Open read) equals the next (from the file).
	j = openAt(t, path, newClock())
	first, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	again, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 2 || !reflect.DeepEqual(first, again) {
		t.Errorf("the first List after opening gave %d records, different from the next (%d)", len(first), len(again))
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	// Reopened and written to before the first List: the write shows.
	j = openAt(t, path, newClock())
	changed := fullRecord("job-1")
	changed.State = "paused"
	if err := j.PutAll(changed, fullRecord("job-3")); err != nil {
		t.Fatal(err)
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, r := range recs {
		states[r.ID] = r.State
	}
	if len(recs) != 3 || states["job-1"] != "paused" {
		t.Errorf("after writes, List gave %v", states)
	}
}

// TestListAfterTidy: a record written between opening and the tidy-up is
// listed after it; the records Open read do not stand in for the tidied
// file once a write made them old.
func TestListAfterTidy(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	if err := j.Put(fullRecord("job-1")); err != nil {
		t.Fatal(err)
	}
	done := fullRecord("job-1")
	done.Finished = time.Now() // blanks the session: a freed page to scrub
	if err := j.Put(done); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	j, err := Open(path, Options{TidyLater: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.Put(fullRecord("job-2")); err != nil {
		t.Fatal(err)
	}
	if err := j.Tidy(); err != nil {
		t.Fatal(err)
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(recs); got != "job-1,job-2" {
		t.Errorf("after the tidy-up, List gave %q, want both uploads", got)
	}
}
