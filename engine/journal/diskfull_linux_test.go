package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/internal/testproc"
)

// TestDiskFull runs the list on a disk that really fills (a small memory
// file system of its own): a full disk is said as such, is never taken for
// damage, leaves no half-made file, and loses nothing already written.
func TestDiskFull(t *testing.T) {
	dir, inside := testproc.InTmpfs(t, 1<<20)
	if !inside {
		return
	}
	path := filepath.Join(dir, FileName)
	noBackups := func(when string) {
		t.Helper()
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), backupInfix) || e.Name() == FileName+compactSuffix {
				t.Errorf("%s: %s was left in the folder", when, e.Name())
			}
		}
	}

	// Full before there is a list: no list, and nothing called damaged.
	free := testproc.FillDisk(t, dir)
	_, err := Open(path, Options{})
	var full *DiskFullError
	if !errors.Is(err, ErrDiskFull) || !errors.As(err, &full) || full.Dir != dir {
		t.Fatalf("Open on a full disk = %v, want a DiskFullError for %s", err, dir)
	}
	if errors.Is(err, ErrCorrupt) {
		t.Errorf("a full disk was called damage: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a half-made list was left behind (%v): the next start would find it damaged", err)
	}
	noBackups("full at the start")
	free()

	j, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kept []Record
	for i := range 20 {
		kept = append(kept, Record{ID: fmt.Sprintf("kept-%02d", i), Path: "/photos/" + fmt.Sprint(i) + ".png", State: "queued"})
	}
	if err := j.PutAll(kept...); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}

	// Full with a list: it opens whole; what does not fit is refused as
	// a full disk, and what was there stays.
	free = testproc.FillDisk(t, dir)
	j, err = Open(path, Options{})
	if err != nil {
		t.Fatalf("Open of a whole list on a full disk: %v", err)
	}
	if _, reason := j.Recovered(); reason != nil {
		t.Errorf("a whole list on a full disk was called damaged: %v", reason)
	}
	var more []Record
	for i := range 200 {
		more = append(more, Record{ID: fmt.Sprintf("more-%03d", i), Metadata: []byte(strings.Repeat("x", 2000))})
	}
	if err := j.PutAll(more...); !errors.Is(err, ErrDiskFull) || !strings.Contains(err.Error(), dir) {
		t.Fatalf("PutAll on a full disk = %v, want ErrDiskFull naming %s", err, dir)
	}
	check := func(when string, want int) {
		t.Helper()
		recs, err := j.List()
		if err != nil || len(recs) != want {
			t.Fatalf("%s: List = %d records, %v; want %d", when, len(recs), err, want)
		}
		for i, r := range recs[:len(kept)] {
			if r.ID != kept[i].ID || r.Path != kept[i].Path {
				t.Fatalf("%s: record %d is %+v, want %+v", when, i, r, kept[i])
			}
		}
	}
	check("after the refused write", len(kept))
	// Room again, the same list takes it; then the disk fills once more.
	free()
	if err := j.PutAll(more[:50]...); err != nil {
		t.Fatalf("PutAll once there is room: %v", err)
	}
	check("after the write with room", len(kept)+50)
	if err := j.Delete(idsOf(more[:50])...); err != nil {
		t.Fatal(err)
	}
	free = testproc.FillDisk(t, dir)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	noBackups("full with a list")

	// Room again: the list opens whole and takes what did not fit.
	free()
	j, err = Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if _, reason := j.Recovered(); reason != nil {
		t.Errorf("the list was called damaged once there was room: %v", reason)
	}
	check("with room again", len(kept))
	if err := j.PutAll(more...); err != nil {
		t.Fatalf("PutAll with room again: %v", err)
	}
	check("after the write", len(kept)+len(more))
	noBackups("with room again")
}

func idsOf(recs []Record) []string {
	out := make([]string, len(recs))
	for i, r := range recs {
		out[i] = r.ID
	}
	return out
}
