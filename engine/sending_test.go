package engine

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The notes of uploads under way: what a killed Hoist left is read back,
// settled notes are not, and a long file starts afresh when nothing is in
// doubt.
func TestSendingLog(t *testing.T) {
	list := filepath.Join(t.TempDir(), "uploads.db")
	l, found := openSendingLog(list)
	if len(found) != 0 {
		t.Fatalf("notes without a file: %v", found)
	}
	if err := l.start(true); err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1_800_000_000, 123)
	for _, n := range []struct {
		id   JobID
		sent time.Time
	}{{"a", at}, {"b", at}, {"a", time.Time{}}, {"c", at.Add(time.Second)}, {"c", at.Add(2 * time.Second)}} {
		if err := l.note(n.id, n.sent); err != nil {
			t.Fatal(err)
		}
	}
	// Killed here: the file holds the notes.
	_, found = openSendingLog(list)
	if len(found) != 2 || !found["b"].Equal(at) || !found["c"].Equal(at.Add(2*time.Second)) {
		t.Errorf("read back %v; want b and c in doubt", found)
	}
	if info, err := os.Stat(list + sendingSuffix); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("the notes' file: %v, %v", info, err)
	}
	l.lines = tidyLines
	_ = l.note("b", time.Time{})
	_ = l.note("c", time.Time{})
	if _, found = openSendingLog(list); len(found) != 0 {
		t.Errorf("settled notes read back: %v", found)
	}
	if info, _ := os.Stat(list + sendingSuffix); info.Size() != 0 {
		t.Errorf("a long file with nothing in doubt kept %d bytes", info.Size())
	}
	l.close(true)
	if _, err := os.Stat(list + sendingSuffix); !os.IsNotExist(err) {
		t.Errorf("the file stays after a clean close: %v", err)
	}
}
