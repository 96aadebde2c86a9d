package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
)

// waitLong is how long a call that should answer at once is given before a
// test calls it stuck.
const waitLong = 10 * time.Second

// longList fills j with finished uploads enough for several transactions of
// a compaction's copy and returns them as List gives them.
func longList(t *testing.T, j *Journal) []Record {
	t.Helper()
	answer := json.RawMessage(`{"id":"` + strings.Repeat("a", 2000) + `"}`)
	var recs []Record
	for i := range 2000 {
		rec := fullRecord(fmt.Sprintf("job-%05d", i))
		rec.State, rec.Finished, rec.Result = "done", time.Now(), answer
		recs = append(recs, rec)
	}
	if err := j.PutAll(recs...); err != nil {
		t.Fatal(err)
	}
	all, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	return all
}

// heldCompaction starts j.Compact and holds its copy after the copy's first
// transaction. Once it returns, the copy is held; release lets it go on,
// and done gives Compact's answer.
func heldCompaction(t *testing.T, j *Journal) (release func(), done <-chan error) {
	t.Helper()
	held, letGo := make(chan struct{}), make(chan struct{})
	first := true
	compactCommitted = func(*bbolt.DB) {
		if first {
			first = false
			close(held)
			<-letGo
		}
	}
	result, ended := make(chan error, 1), make(chan struct{})
	go func() {
		defer close(ended)
		result <- j.Compact()
	}()
	released := false
	release = func() {
		if !released {
			released = true
			close(letGo)
		}
	}
	t.Cleanup(func() {
		release()
		<-ended
		compactCommitted = nil
	})
	select {
	case <-held:
	case err := <-result:
		t.Fatalf("the compaction ended (%v) before its first transaction was held", err)
	}
	return release, result
}

// within runs fn on its own goroutine and reports whether it returned
// within waitLong.
func within(fn func()) bool {
	returned := make(chan struct{})
	go func() {
		defer close(returned)
		fn()
	}()
	select {
	case <-returned:
		return true
	case <-time.After(waitLong):
		return false
	}
}

// TestReadsGoOnWhileCompactionCopies: while a compaction copies a long
// list into a new file, Get and List answer at once with what the list
// holds; the copy, let go, leaves the whole list in the new file.
func TestReadsGoOnWhileCompactionCopies(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	want := longList(t, j)
	release, done := heldCompaction(t, j)

	var got Record
	var getErr error
	if !within(func() { got, getErr = j.Get("job-01234") }) {
		t.Fatal("Get waited for the compaction's copy")
	}
	if getErr != nil || !reflect.DeepEqual(got, want[1234]) {
		t.Errorf("Get during the copy = %+v, %v; want %+v", got, getErr, want[1234])
	}
	var list []Record
	var listErr error
	if !within(func() { list, listErr = j.List() }) {
		t.Fatal("List waited for the compaction's copy")
	}
	if listErr != nil || !reflect.DeepEqual(list, want) {
		t.Errorf("List during the copy gave %d records (%v), want the %d stored", len(list), listErr, len(want))
	}

	release()
	if err := <-done; err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if list, err := j.List(); err != nil || !reflect.DeepEqual(list, want) {
		t.Errorf("after the compaction List gave %d records (%v), want %d", len(list), err, len(want))
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	again := openAt(t, path, nil)
	if list, err := again.List(); err != nil || !reflect.DeepEqual(list, want) {
		t.Errorf("the compacted file holds %d records (%v), want %d", len(list), err, len(want))
	}
}

// TestWritesWaitForCompactionCopy: a record put while a compaction copies
// waits for the new file and is kept in it, not written into the old file
// that the copy no longer reads; Close waits too, and closes the new file.
func TestWritesWaitForCompactionCopy(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	want := longList(t, j)
	release, done := heldCompaction(t, j)

	added := fullRecord("job-new")
	var putErr, closeErr error
	putReturned, closeReturned := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(putReturned)
		putErr = j.Put(added)
	}()
	time.Sleep(100 * time.Millisecond) // time for the Put to write, were it let
	go func() {
		defer close(closeReturned)
		closeErr = j.Close()
	}()
	time.Sleep(100 * time.Millisecond) // and for Close to close
	select {
	case <-putReturned:
		t.Errorf("Put returned (%v) while the compaction copied", putErr)
	case <-closeReturned:
		t.Errorf("Close returned (%v) while the compaction copied", closeErr)
	default:
	}

	release()
	if err := <-done; err != nil {
		t.Fatalf("Compact: %v", err)
	}
	<-putReturned
	<-closeReturned
	if putErr != nil {
		t.Fatalf("Put: %v", putErr)
	}
	if closeErr != nil {
		t.Fatalf("Close: %v", closeErr)
	}
	if _, err := j.Get("job-new"); !errors.Is(err, ErrClosed) {
		t.Errorf("Get after Close = %v, want ErrClosed", err)
	}
	again := openAt(t, path, nil)
	list, err := again.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(want)+1 || !reflect.DeepEqual(list[:len(want)], want) {
		t.Fatalf("the compacted file holds %d records, want %d and the new one", len(list), len(want))
	}
	if got := list[len(want)]; got.ID != added.ID || got.SessionURI != added.SessionURI {
		t.Errorf("the record put during the compaction came back as %+v", got)
	}
}
