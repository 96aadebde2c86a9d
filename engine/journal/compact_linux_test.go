package journal

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.etcd.io/bbolt"
	"golang.org/x/sys/unix"
)

// TestTheCopyLetsGoOfTheOldFile: tidying a long list copies it into a new
// file while the window runs; of the old file, which the copy reads
// through bbolt's mapping of it, at most a few megabytes stay in the
// window's memory at any time, not the whole list.
func TestTheCopyLetsGoOfTheOldFile(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	// 6,000 uploads written as the window writes them: queued together,
	// then finished a few at a time, in the order they happen to end, with
	// the server's answer, which scatters the records over the file among
	// freed pages.
	const n, batches = 6000, 300
	answer := json.RawMessage(`{"id":"` + strings.Repeat("a", 2000) + `"}`)
	var recs []Record
	for i := range n {
		recs = append(recs, fullRecord(fmt.Sprintf("job-%05d", i)))
	}
	if err := j.PutAll(recs...); err != nil {
		t.Fatal(err)
	}
	for b := range batches {
		var done []Record
		for i := b; i < n; i += batches {
			rec := recs[i]
			rec.State, rec.Finished, rec.Result = "done", time.Now(), answer
			done = append(done, rec)
		}
		if err := j.PutAll(done...); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	// As at a start after the file left the system's cache: read again
	// from the disk, it comes in large pieces.
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
		t.Fatal(err)
	}
	f.Close()
	j, err = Open(path, Options{TidyLater: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()

	var most int64
	commits := 0
	compactCommitted = func(*bbolt.DB) {
		commits++
		most = max(most, residentKiB(t, path))
	}
	defer func() { compactCommitted = nil }()
	if err := j.Tidy(); err != nil {
		t.Fatal(err)
	}
	if commits < 5 {
		t.Fatalf("the copy was written in %d transactions; the test proves nothing", commits)
	}
	if most > 4<<10 {
		t.Errorf("while it was copied, %.1f MiB of the old file stayed in memory", float64(most)/1024)
	}
	t.Logf("at most %d KiB of the old file in memory over %d transactions", most, commits)
}

// residentKiB is how much of the file at path this process holds in memory
// through its mappings of it.
func residentKiB(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var n int64
	mapped := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) == 0:
		case !strings.HasSuffix(fields[0], ":"): // a mapping's header
			mapped = len(fields) >= 6 && fields[5] == path
		case mapped && fields[0] == "Rss:":
			kib, _ := strconv.ParseInt(fields[1], 10, 64)
			n += kib
		}
	}
	return n
}
