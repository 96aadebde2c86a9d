package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/internal/testproc"
)

// Tests that need a second process run this test binary again with
// helperEnv naming the part it plays.
const (
	helperEnv = "HOIST_JOURNAL_TEST_HELPER"
	dirEnv    = "HOIST_JOURNAL_TEST_DIR"
	roundEnv  = "HOIST_JOURNAL_TEST_ROUND"
)

func TestMain(m *testing.M) {
	if part := os.Getenv(helperEnv); part != "" {
		os.Exit(runHelper(part, os.Getenv(dirEnv)))
	}
	os.Exit(m.Run())
}

// runHelper plays one part in the other process. It reports on stdout, one
// line per event, and holds what it opened until stdin closes.
func runHelper(part, dir string) int {
	var mu sync.Mutex
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stdout, format+"\n", args...)
	}
	waitForStdin := func() { _, _ = io.Copy(io.Discard, os.Stdin) }
	path := filepath.Join(dir, FileName)

	switch part {
	case "hold":
		j, err := Open(path, Options{})
		if err != nil {
			say("error %v", err)
			return 1
		}
		say("open")
		waitForStdin()
		if err := j.Close(); err != nil {
			say("error %v", err)
			return 1
		}
		return 0

	case "try":
		j, err := Open(path, Options{LockTimeout: 50 * time.Millisecond})
		switch {
		case errors.Is(err, ErrInUse):
			say("in use")
		case err != nil:
			say("error %v", err)
		default:
			say("open")
			_ = j.Close()
		}
		return 0

	case "writer":
		round, _ := strconv.Atoi(os.Getenv(roundEnv))
		j, err := Open(path, Options{})
		if err != nil {
			say("error %v", err)
			return 1
		}
		for gen := round * 1_000_000; ; gen++ {
			for _, id := range crashIDs {
				if err := j.Put(generation(id, gen)); err != nil {
					say("error %v", err)
					return 1
				}
				say("put %s %d", id, gen)
				if err := j.UpdateProgress(id, int64(gen)*1000+1); err != nil {
					say("error %v", err)
					return 1
				}
				say("progress %s %d", id, gen)
			}
			// Churn that frees pages and rewrites the whole file now and then.
			scratch := fmt.Sprintf("scratch-%d", gen)
			if err := j.Put(Record{ID: scratch, SessionURI: "https://x.test/?upload_id=" + scratch}); err != nil {
				say("error %v", err)
				return 1
			}
			if gen%5 == 0 {
				if _, err := j.DeleteWhere(func(r Record) bool { return strings.HasPrefix(r.ID, "scratch-") }); err != nil {
					say("error %v", err)
					return 1
				}
				say("cleared %d", gen)
			}
		}

	case "powercut":
		return powerCutChild(path, say)
	}
	say("error unknown part %q", part)
	return 2
}

var crashIDs = []string{"alpha", "beta", "gamma", "delta"}

// generation is the record id holds at generation gen: every field is
// derived from gen, so a record mixing two writes is visible.
func generation(id string, gen int) Record {
	g := strconv.Itoa(gen)
	return Record{
		ID:            id,
		Name:          id + "-" + g,
		Size:          int64(gen),
		Committed:     int64(gen) * 1000,
		State:         "uploading",
		SessionURI:    "https://x.test/upload?upload_id=" + id + "-" + g,
		Metadata:      []byte(strings.Repeat(g+",", 50+gen%400)), // sizes vary, so records move between pages
		ResultSummary: g,
		Restarts:      gen,
		Destination:   json.RawMessage(`{"gen":` + g + `}`),
	}
}

// consistent says whether rec is whole: every field from one generation,
// with or without the progress written after it.
func consistent(rec Record) (gen int, ok bool) {
	gen, err := strconv.Atoi(rec.ResultSummary)
	if err != nil {
		return 0, false
	}
	want := generation(rec.ID, gen)
	want.Order, want.Created, want.Updated = rec.Order, rec.Created, rec.Updated
	if rec.Committed == int64(gen)*1000+1 {
		want.Committed = rec.Committed
	}
	return gen, reflect.DeepEqual(rec, want)
}

// startHelper runs this test binary again to play part with dir, env added.
func startHelper(t *testing.T, part, dir string, env ...string) *testproc.Helper {
	t.Helper()
	return testproc.Start(t, append(env, helperEnv+"="+part, dirEnv+"="+dir)...)
}

func TestInUseByAnotherProcess(t *testing.T) {
	tests := []struct {
		name string
		end  func(h *testproc.Helper, t testing.TB)
	}{
		{"the other closes", (*testproc.Helper).Finish},
		{"the other is killed", (*testproc.Helper).Kill},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			h := startHelper(t, "hold", dir)
			h.Expect(t, "open")

			if _, err := Open(path, Options{LockTimeout: 50 * time.Millisecond}); !errors.Is(err, ErrInUse) {
				t.Fatalf("Open while another process holds the journal = %v, want ErrInUse", err)
			}
			if entries, _ := filepath.Glob(path + backupInfix + "*"); len(entries) != 0 {
				t.Errorf("a journal in use was taken for damaged: %v", entries)
			}
			tt.end(h, t)
			j := openAt(t, path, nil)
			if b, r := j.Recovered(); b != "" || r != nil {
				t.Errorf("Recovered() = %q, %v after the other process ended", b, r)
			}

			// And the other way round: this process holds it.
			try := startHelper(t, "try", dir)
			try.Expect(t, "in use")
			try.Finish(t)
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			try = startHelper(t, "try", dir)
			try.Expect(t, "open")
			try.Finish(t)
		})
	}
}

// TestCrashConsistency kills a process in the middle of many writes, again
// and again, and checks that the journal opens, untouched by recovery, with
// every record whole and nothing lost that a write had reported done.
func TestCrashConsistency(t *testing.T) {
	mixed := generation("alpha", 7)
	mixed.Name = generation("alpha", 8).Name
	if _, ok := consistent(mixed); ok {
		t.Fatal("consistent() accepts a record mixing two writes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	for round, lines := range []int{57, 203, 401, 151, 333} {
		t.Run(fmt.Sprintf("round %d", round+1), func(t *testing.T) {
			h := startHelper(t, "writer", dir, fmt.Sprintf("%s=%d", roundEnv, round+1))
			done := map[string]int{}    // last generation whose Put returned
			counted := map[string]int{} // last generation whose progress returned
			for range lines {
				f := strings.Fields(h.Next(t))
				if len(f) == 3 {
					gen, _ := strconv.Atoi(f[2])
					switch f[0] {
					case "put":
						done[f[1]] = gen
					case "progress":
						counted[f[1]] = gen
					}
				}
			}
			h.Kill(t)

			j := openAt(t, path, nil)
			if b, r := j.Recovered(); b != "" || r != nil {
				t.Fatalf("the journal needed recovery after a kill: %v", r)
			}
			recs, err := j.List()
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for _, rec := range recs {
				if strings.HasPrefix(rec.ID, "scratch-") {
					continue
				}
				seen++
				gen, ok := consistent(rec)
				if !ok {
					t.Errorf("record %s mixes writes: %+v", rec.ID, rec)
					continue
				}
				if gen < done[rec.ID] {
					t.Errorf("record %s is at generation %d, but generation %d had been written", rec.ID, gen, done[rec.ID])
				}
				if gen == counted[rec.ID] && rec.Committed != int64(gen)*1000+1 {
					t.Errorf("record %s lost its confirmed progress", rec.ID)
				}
			}
			if want := len(done); seen < want {
				t.Errorf("%d job records, want at least %d", seen, want)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
