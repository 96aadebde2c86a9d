package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable time source for Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2025, 3, 14, 9, 26, 53, 589793000, time.FixedZone("CET", 3600))}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func openAt(t testing.TB, path string, c *clock) *Journal {
	t.Helper()
	opts := Options{}
	if c != nil {
		opts.Now = c.Now
	}
	j, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { _ = j.Close() })
	return j
}

func tempPath(t testing.TB) string {
	return filepath.Join(t.TempDir(), FileName)
}

// fullRecord has every field set (Finished aside, which blanks the session).
func fullRecord(id string) Record {
	return Record{
		ID:             id,
		Path:           "/home/ana/Desktop/Facturas marzo/" + id + ".eml",
		Name:           id + ".eml",
		Size:           7 << 20,
		ModTime:        time.Date(2025, 3, 1, 8, 0, 0, 123456789, time.UTC),
		Fingerprint:    "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		MIME:           "message/rfc822",
		FileSize:       5 << 20,
		Destination:    json.RawMessage(`{"kind":"gmail","account":"ana@example.com","params":{"mode":"import"}}`),
		Metadata:       []byte(`{"labelIds":["INBOX"]}`),
		Method:         "resumable",
		FellBack:       true,
		SessionURI:     "https://www.googleapis.com/upload/gmail/v1/users/me/messages?uploadType=resumable&upload_id=ADPycdu-" + id,
		SessionStarted: time.Date(2025, 3, 14, 8, 0, 0, 0, time.UTC),
		SentAt:         time.Date(2025, 3, 14, 8, 1, 0, 0, time.UTC),
		LastByteAt:     time.Date(2025, 3, 14, 8, 2, 0, 0, time.UTC),
		Since:          "history:4109",
		RetryAt:        time.Date(2025, 3, 14, 9, 0, 0, 0, time.UTC),
		RetryAsked:     true,
		Committed:      4 << 20,
		State:          "paused",
		Result:         json.RawMessage(`{"id":"18c2f","threadId":"18c2f"}`),
		ResultSummary:  "Saved as message 18c2f.",
		Verified:       "crc32c",
		LastError:      "The connection dropped.",
		Details:        "Backend Error",
		LastFact:       json.RawMessage(`{"code":"net.dropped"}`),
		ResultFact:     json.RawMessage(`{"code":"result.gmailInsert","args":{"id":"18c2"}}`),
		ResultRef:      &ResultRef{ID: "18c2f", ThreadID: "18c2f"},
		Email:          &EmailHeaders{From: "Ana <ana@example.com>", Subject: "Facturas de marzo", Date: time.Date(2025, 3, 1, 7, 58, 0, 0, time.UTC)},
		Part:           &Part{Index: 811, Offset: 1 << 31, Length: 4096, Quoting: 1, Sum: 0xdeadbeef, FileSize: 3 << 30, Labels: []string{"Inbox", "Clients, ACME"}},
		ChunkSize:      new(int64(256 << 10)),
		FileChanged:    true,
		Restarts:       2,
		Created:        time.Date(2025, 3, 14, 7, 59, 0, 0, time.UTC),
		Updated:        time.Date(2025, 3, 14, 8, 1, 0, 0, time.UTC),
		Order:          42,
	}
}

func TestRoundTripEveryField(t *testing.T) {
	rec := fullRecord("job-1")
	v := reflect.ValueOf(rec)
	for i := range v.NumField() {
		// KeepResult is not kept: it tells Put what to do.
		if name := v.Type().Field(i).Name; name != "Finished" && name != "KeepResult" && v.Field(i).IsZero() {
			t.Fatalf("fullRecord leaves %s unset; the round trip would not cover it", name)
		}
	}
	finished := fullRecord("job-2")
	finished.Finished = time.Date(2025, 3, 14, 8, 30, 0, 0, time.FixedZone("EST", -5*3600))
	finished.State = "done"

	c := newClock()
	path := tempPath(t)
	j := openAt(t, path, c)
	for _, r := range []Record{rec, finished} {
		if err := j.Put(r); err != nil {
			t.Fatalf("Put: %v", err)
		}
	}
	wantActive := rec
	wantActive.Updated = c.Now().UTC()
	wantFinished := finished
	wantFinished.Updated = c.Now().UTC()
	wantFinished.Finished = finished.Finished.UTC()
	wantFinished.SessionURI = ""
	wantFinished.SessionStarted = time.Time{}
	wantFinished.SentAt = time.Time{}
	wantFinished.LastByteAt = time.Time{}
	wantFinished.RetryAt, wantFinished.RetryAsked = time.Time{}, false

	check := func(t *testing.T, j *Journal) {
		for _, want := range []Record{wantActive, wantFinished} {
			got, err := j.Get(want.ID)
			if err != nil {
				t.Fatalf("Get(%s): %v", want.ID, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Get(%s)\n got %+v\nwant %+v", want.ID, got, want)
			}
		}
	}
	t.Run("same session", func(t *testing.T) { check(t, j) })
	t.Run("after reopening", func(t *testing.T) {
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		check(t, openAt(t, path, c))
	})
}

func TestPutRules(t *testing.T) {
	tests := []struct {
		name    string
		first   Record
		second  Record
		check   func(t *testing.T, got Record, firstOrder int64)
		wantErr bool
	}{
		{
			name:   "zero order and created keep the stored ones",
			first:  Record{ID: "a", State: "waiting"},
			second: Record{ID: "a", State: "uploading"},
			check: func(t *testing.T, got Record, firstOrder int64) {
				if got.Order != firstOrder || got.State != "uploading" {
					t.Errorf("got order %d state %q, want order %d state uploading", got.Order, got.State, firstOrder)
				}
				if !got.Created.Equal(newClock().Now()) {
					t.Errorf("Created = %v, want the first Put's time %v", got.Created, newClock().Now())
				}
			},
		},
		{
			name:   "finishing blanks the session",
			first:  Record{ID: "a", State: "uploading", SessionURI: "https://x.test/u?upload_id=1", SessionStarted: time.Unix(1, 0)},
			second: Record{ID: "a", State: "done", SessionURI: "https://x.test/u?upload_id=1", SessionStarted: time.Unix(1, 0), Finished: time.Unix(2, 0)},
			check: func(t *testing.T, got Record, _ int64) {
				if got.SessionURI != "" || !got.SessionStarted.IsZero() {
					t.Errorf("finished record keeps its session: %q %v", got.SessionURI, got.SessionStarted)
				}
			},
		},
		{
			name:    "invalid destination JSON is refused",
			first:   Record{ID: "a"},
			second:  Record{ID: "a", Destination: json.RawMessage(`{not json`)},
			wantErr: true,
		},
		{
			name:    "empty id is refused",
			first:   Record{ID: "a"},
			second:  Record{},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClock()
			j := openAt(t, tempPath(t), c)
			if err := j.Put(tt.first); err != nil {
				t.Fatal(err)
			}
			first, err := j.Get("a")
			if err != nil {
				t.Fatal(err)
			}
			c.Advance(time.Minute)
			err = j.Put(tt.second)
			if tt.wantErr {
				if err == nil {
					t.Fatal("Put succeeded, want an error")
				}
				if got, _ := j.Get("a"); !reflect.DeepEqual(got, first) {
					t.Errorf("a refused Put changed the record: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got, err := j.Get("a")
			if err != nil {
				t.Fatal(err)
			}
			if !got.Updated.Equal(c.Now()) {
				t.Errorf("Updated = %v, want %v", got.Updated, c.Now())
			}
			tt.check(t, got, first.Order)
		})
	}
}

func ids(recs []Record) string {
	var s []string
	for _, r := range recs {
		s = append(s, r.ID)
	}
	return strings.Join(s, ",")
}

func TestOrdering(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	for _, id := range []string{"m", "c", "x", "a"} {
		if err := j.Put(Record{ID: id, State: "waiting"}); err != nil {
			t.Fatal(err)
		}
	}
	list := func() string {
		t.Helper()
		recs, err := j.List()
		if err != nil {
			t.Fatal(err)
		}
		return ids(recs)
	}
	steps := []struct {
		name string
		do   func() error
		want string
	}{
		{"insertion order", func() error { return nil }, "m,c,x,a"},
		{"rewriting keeps the place", func() error { return j.Put(Record{ID: "m", State: "uploading"}) }, "m,c,x,a"},
		{"an explicit order is honoured", func() error { return j.Put(Record{ID: "c", Order: 100}) }, "m,x,a,c"},
		{"later jobs come after it", func() error { return j.Put(Record{ID: "b"}) }, "m,x,a,c,b"},
		{"deleting keeps the rest in order", func() error { return j.Delete("x") }, "m,a,c,b"},
		{"numbers are not reused after compaction", func() error { return j.Put(Record{ID: "x"}) }, "m,a,c,b,x"},
		{"equal orders fall back to the id", func() error { return j.Put(Record{ID: "0", Order: 100}) }, "m,a,0,c,b,x"},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			if err := s.do(); err != nil {
				t.Fatal(err)
			}
			if got := list(); got != s.want {
				t.Errorf("List = %s, want %s", got, s.want)
			}
		})
	}
	t.Run("order survives reopening", func(t *testing.T) {
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		j = openAt(t, path, nil)
		if err := j.Put(Record{ID: "y"}); err != nil {
			t.Fatal(err)
		}
		if got, want := list(), "m,a,0,c,b,x,y"; got != want {
			t.Errorf("List = %s, want %s", got, want)
		}
	})
}

func TestUpdateProgress(t *testing.T) {
	c := newClock()
	path := tempPath(t)
	j := openAt(t, path, c)
	rec := fullRecord("big")
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
	for _, committed := range []int64{256 << 10, 512 << 10, 0, 768 << 10} {
		c.Advance(time.Second)
		if err := j.UpdateProgress("big", committed); err != nil {
			t.Fatal(err)
		}
		got, err := j.Get("big")
		if err != nil {
			t.Fatal(err)
		}
		want := rec
		want.Committed = committed
		want.Updated = c.Now().UTC()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after UpdateProgress(%d)\n got %+v\nwant %+v", committed, got, want)
		}
	}
	t.Run("unknown job", func(t *testing.T) {
		if err := j.UpdateProgress("nope", 1); !errors.Is(err, ErrNotFound) {
			t.Errorf("UpdateProgress(unknown) = %v, want ErrNotFound", err)
		}
		if _, err := j.Get("nope"); !errors.Is(err, ErrNotFound) {
			t.Errorf("Get(unknown) = %v, want ErrNotFound", err)
		}
	})
	t.Run("durable", func(t *testing.T) {
		if err := j.Close(); err != nil {
			t.Fatal(err)
		}
		got, err := openAt(t, path, c).Get("big")
		if err != nil {
			t.Fatal(err)
		}
		if got.Committed != 768<<10 {
			t.Errorf("Committed after reopening = %d, want %d", got.Committed, 768<<10)
		}
	})
}

func TestRemoving(t *testing.T) {
	day := 24 * time.Hour
	base := newClock().Now()
	seed := []Record{
		{ID: "live", State: "uploading"},
		{ID: "paused", State: "paused"},
		{ID: "done-old", State: "done", Finished: base.Add(-40 * day)},
		{ID: "done-new", State: "done", Finished: base.Add(-1 * day)},
		{ID: "failed-old", State: "failed", Finished: base.Add(-60 * day)},
		{ID: "canceled", State: "canceled", Finished: base.Add(-2 * day)},
	}
	tests := []struct {
		name   string
		do     func(j *Journal) (int, error)
		remain string
	}{
		{"delete some", func(j *Journal) (int, error) { return 2, j.Delete("paused", "done-new", "not-there") }, "live,done-old,failed-old,canceled"},
		{"clear every finished", func(j *Journal) (int, error) { return j.ClearFinished() }, "live,paused"},
		{"clear some states", func(j *Journal) (int, error) { return j.ClearFinished("done", "canceled") }, "live,paused,failed-old"},
		{"prune history", func(j *Journal) (int, error) { return 2, j.Prune(base.Add(-30 * day)) }, "live,paused,done-new,canceled"},
		{"delete where", func(j *Journal) (int, error) {
			return j.DeleteWhere(func(r Record) bool { return strings.HasPrefix(r.ID, "done") })
		}, "live,paused,failed-old,canceled"},
		{"nothing matches", func(j *Journal) (int, error) { return 0, j.Prune(base.Add(-100 * day)) }, "live,paused,done-old,done-new,failed-old,canceled"},
		{"delete where reports its count", func(j *Journal) (int, error) {
			return j.DeleteWhere(func(r Record) bool { return r.State == "failed" || r.ID == "live" })
		}, "paused,done-old,done-new,canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := openAt(t, tempPath(t), newClock())
			for _, r := range seed {
				if err := j.Put(r); err != nil {
					t.Fatal(err)
				}
			}
			n, err := tt.do(j)
			if err != nil {
				t.Fatal(err)
			}
			recs, err := j.List()
			if err != nil {
				t.Fatal(err)
			}
			if got := ids(recs); got != tt.remain {
				t.Errorf("left %s, want %s", got, tt.remain)
			}
			if want := len(seed) - len(recs); n != want {
				t.Errorf("reported %d removed, want %d", n, want)
			}
		})
	}
}

// A record put with KeepResult keeps the answer the journal holds.
func TestKeepResult(t *testing.T) {
	j := openAt(t, tempPath(t), nil)
	defer j.Close()
	rec := fullRecord("a")
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
	again := rec
	again.Result, again.KeepResult, again.Committed = nil, true, rec.Size
	if err := j.Put(again); err != nil {
		t.Fatal(err)
	}
	got, err := j.Get("a")
	if err != nil || string(got.Result) != string(rec.Result) || got.Committed != rec.Size || got.KeepResult {
		t.Errorf("Get = result %s, committed %d, %v; want the stored answer and the new record", got.Result, got.Committed, err)
	}
}

// With TidyLater, Open leaves what the last run freed (an old session URI
// among it) in the file and copies nothing; Tidy scrubs it then.
func TestTidyLater(t *testing.T) {
	secret := []byte("upload_id=SECRET-later")
	path := tempPath(t)
	j := openAt(t, path, nil)
	rec := fullRecord("a")
	rec.SessionURI = "https://www.googleapis.com/upload/x?" + string(secret)
	for i := range 5 {
		rec.Committed = int64(i) << 18
		if err := j.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
	rec.State, rec.Finished = "done", time.Now()
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	holds := func() bool {
		t.Helper()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return bytes.Contains(raw, secret)
	}
	if !holds() {
		t.Fatal("the file never held the old session; the test proves nothing")
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}

	j, err = Open(path, Options{TidyLater: true})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if after, err := os.Stat(path); err != nil || !os.SameFile(before, after) || !holds() {
		t.Errorf("Open with TidyLater copied the file (%v)", err)
	}
	if err := j.Tidy(); err != nil {
		t.Fatal(err)
	}
	if holds() {
		t.Error("after Tidy the file still holds the old session")
	}
	got, err := j.Get("a")
	if err != nil || got.State != "done" || got.Order != rec.Order {
		t.Errorf("after Tidy Get = %+v, %v", got, err)
	}
	tidied, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Tidy(); err != nil {
		t.Fatal(err)
	}
	if again, err := os.Stat(path); err != nil || !os.SameFile(tidied, again) {
		t.Errorf("a second Tidy with nothing freed copied the file again (%v)", err)
	}
	// Nor does the next start, though the copy left a few pages of its own free.
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = openAt(t, path, nil)
	if again, err := os.Stat(path); err != nil || !os.SameFile(tidied, again) {
		t.Errorf("Open after a tidy-up with nothing written since copied the file again (%v)", err)
	}
}

// TestNoSessionLeftInFile reads the raw file: bbolt keeps old page contents
// in free pages, so removing or finishing a job must not leave its session
// URI readable in it.
func TestNoSessionLeftInFile(t *testing.T) {
	secret := func(id string) []byte { return []byte("upload_id=SECRET-" + id) }
	session := func(id string) string { return "https://www.googleapis.com/upload/x?" + string(secret(id)) }
	tests := []struct {
		name string
		gone []string // ids whose session must be gone from the file
		kept []string // ids whose session must still be there
		do   func(t *testing.T, j *Journal, path string) *Journal
	}{
		{"delete", []string{"a"}, []string{"b", "c"}, func(t *testing.T, j *Journal, _ string) *Journal {
			if err := j.Delete("a"); err != nil {
				t.Fatal(err)
			}
			return j
		}},
		{"clear finished", []string{"a", "b"}, []string{"c"}, func(t *testing.T, j *Journal, _ string) *Journal {
			for _, id := range []string{"a", "b"} {
				if err := j.Put(Record{ID: id, State: "done", SessionURI: session(id), Finished: time.Now()}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := j.ClearFinished(); err != nil {
				t.Fatal(err)
			}
			return j
		}},
		{"prune", []string{"b"}, []string{"a", "c"}, func(t *testing.T, j *Journal, _ string) *Journal {
			if err := j.Put(Record{ID: "b", State: "failed", SessionURI: session("b"), Finished: time.Unix(1e9, 0)}); err != nil {
				t.Fatal(err)
			}
			if err := j.Prune(time.Unix(2e9, 0)); err != nil {
				t.Fatal(err)
			}
			return j
		}},
		{"finished and reopened", []string{"c"}, []string{"a", "b"}, func(t *testing.T, j *Journal, path string) *Journal {
			if err := j.Put(Record{ID: "c", State: "done", SessionURI: session("c"), Finished: time.Now()}); err != nil {
				t.Fatal(err)
			}
			if err := j.Close(); err != nil {
				t.Fatal(err)
			}
			return openAt(t, path, nil)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tempPath(t)
			j := openAt(t, path, nil)
			for _, id := range []string{"a", "b", "c"} {
				rec := fullRecord(id)
				rec.SessionURI = session(id)
				// Several versions of each record spread old copies over free pages.
				for i := range 5 {
					rec.Committed = int64(i) << 18
					if err := j.Put(rec); err != nil {
						t.Fatal(err)
					}
				}
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range tt.gone {
				if !bytes.Contains(raw, secret(id)) {
					t.Fatalf("the file never held the session of %s; the test proves nothing", id)
				}
			}
			j = tt.do(t, j, path)
			raw, err = os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, id := range tt.gone {
				if bytes.Contains(raw, secret(id)) {
					t.Errorf("the file still holds the session of %s", id)
				}
			}
			for _, id := range tt.kept {
				if !bytes.Contains(raw, secret(id)) {
					t.Errorf("the file lost the session of %s, which is still live", id)
				}
				if got, err := j.Get(id); err != nil || got.SessionURI != session(id) {
					t.Errorf("Get(%s) = %q, %v; want its session", id, got.SessionURI, err)
				}
			}
			entries, err := os.ReadDir(filepath.Dir(path))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), compactSuffix) {
					t.Errorf("a temporary copy %s was left behind", e.Name())
				}
			}
		})
	}
}

func TestClosed(t *testing.T) {
	j := openAt(t, tempPath(t), nil)
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Errorf("second Close = %v, want nil", err)
	}
	calls := map[string]error{
		"Put":            j.Put(Record{ID: "a"}),
		"UpdateProgress": j.UpdateProgress("a", 1),
		"Delete":         j.Delete("a"),
		"Compact":        j.Compact(),
	}
	_, calls["Get"] = j.Get("a")
	_, calls["List"] = j.List()
	for name, err := range calls {
		if !errors.Is(err, ErrClosed) {
			t.Errorf("%s after Close = %v, want ErrClosed", name, err)
		}
	}
}

func TestSecondOpenInProcess(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	if _, err := Open(path, Options{LockTimeout: 10 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Fatalf("second Open = %v, want ErrInUse", err)
	}
	if err := j.Put(Record{ID: "a"}); err != nil {
		t.Fatalf("the first journal stopped working after a refused Open: %v", err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j2 := openAt(t, path, nil)
	if _, err := j2.Get("a"); err != nil {
		t.Errorf("after the first closed: %v", err)
	}
	if err := j2.Compact(); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path, Options{LockTimeout: 10 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Errorf("Open after compaction = %v, want ErrInUse (the lock must survive the file's replacement)", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	j := openAt(t, tempPath(t), nil)
	const workers, steps = 4, 30
	var wg sync.WaitGroup
	errs := make(chan error, workers*steps*4)
	for w := range workers {
		wg.Go(func() {
			id := fmt.Sprintf("w%d", w)
			if err := j.Put(Record{ID: id, State: "uploading"}); err != nil {
				errs <- err
				return
			}
			for s := 1; s <= steps; s++ {
				if err := j.UpdateProgress(id, int64(s)); err != nil {
					errs <- err
				}
				if _, err := j.List(); err != nil {
					errs <- err
				}
				scratch := fmt.Sprintf("%s-%d", id, s)
				if err := j.Put(Record{ID: scratch}); err != nil {
					errs <- err
				}
				if s%10 == 0 {
					if err := j.Delete(scratch); err != nil {
						errs <- err
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for w := range workers {
		got, err := j.Get(fmt.Sprintf("w%d", w))
		if err != nil || got.Committed != steps {
			t.Errorf("w%d: Committed = %d, %v; want %d", w, got.Committed, err, steps)
		}
	}
	recs, err := j.List()
	if err != nil {
		t.Fatal(err)
	}
	if want := workers * (1 + steps - steps/10); len(recs) != want {
		t.Errorf("%d records, want %d", len(recs), want)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", "/home/ana/.config")
	t.Setenv("HOME", "/home/ana")
	t.Setenv("AppData", `C:\Users\ana\AppData\Roaming`)
	path := DefaultPath()
	dir, err := DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(dir) != "Hoist" || path != filepath.Join(dir, FileName) {
		t.Errorf("DefaultPath = %s (dir %s), want <config>/Hoist/%s", path, dir, FileName)
	}
	t.Run("no home folder", func(t *testing.T) {
		for _, v := range []string{"XDG_CONFIG_HOME", "HOME", "AppData", "home"} {
			t.Setenv(v, "")
		}
		if p := DefaultPath(); p != "" {
			t.Errorf("DefaultPath = %q, want empty", p)
		}
		if _, err := Open(DefaultPath(), Options{}); err == nil || !strings.Contains(err.Error(), "no place") {
			t.Errorf("Open(\"\") = %v, want it to say there is no place for the list", err)
		}
	})
}

func BenchmarkUpdateProgress(b *testing.B) {
	j := openAt(b, tempPath(b), nil)
	if err := j.Put(fullRecord("big")); err != nil {
		b.Fatal(err)
	}
	var n int64
	for b.Loop() {
		n += 256 << 10
		if err := j.UpdateProgress("big", n); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPut(b *testing.B) {
	j := openAt(b, tempPath(b), nil)
	rec := fullRecord("big")
	for b.Loop() {
		rec.Committed += 256 << 10
		if err := j.Put(rec); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLockHeldThroughCompaction: while a compaction has closed the old file
// and not yet opened the new one, no bbolt lock is held; the journal's own
// lock must still refuse a second opener, then and after.
func TestLockHeldThroughCompaction(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	if err := j.Put(Record{ID: "a"}); err != nil {
		t.Fatal(err)
	}
	var during error
	called := false
	compactReplaced = func() {
		called = true
		other, err := Open(path, Options{LockTimeout: 10 * time.Millisecond})
		if err == nil {
			_ = other.Close()
		}
		during = err
	}
	t.Cleanup(func() { compactReplaced = nil })
	if err := j.Compact(); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	if !called {
		t.Fatal("the compaction never reached the moment between the files")
	}
	if !errors.Is(during, ErrInUse) {
		t.Errorf("Open during compaction = %v, want ErrInUse", during)
	}
	if _, err := Open(path, Options{LockTimeout: 10 * time.Millisecond}); !errors.Is(err, ErrInUse) {
		t.Errorf("Open after compaction = %v, want ErrInUse", err)
	}
	if _, err := j.Get("a"); err != nil {
		t.Errorf("the journal lost its record through the compaction: %v", err)
	}
}

// TestLockFile: a second claim of the same file is refused until the first
// lets go, whatever else holds the file.
func TestLockFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "claim.lock")
	first, err := LockFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if second, err := LockFile(path); !errors.Is(err, ErrInUse) {
		if second != nil {
			_ = second.Release()
		}
		t.Fatalf("second LockFile = %v, want ErrInUse", err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != fileMode {
		t.Errorf("lock file: %v, %v; want mode %v", info, err, os.FileMode(fileMode))
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	again, err := LockFile(path)
	if err != nil {
		t.Fatalf("LockFile after Release: %v", err)
	}
	_ = again.Release()
}

// TestDurableSettings: every opening of the file, the compaction's too,
// syncs each commit and each growth (on Linux, TestPowerCutKeepsWhatWasSaid
// shows what that keeps).
func TestDurableSettings(t *testing.T) {
	j := openAt(t, tempPath(t), nil)
	check := func(when string) {
		t.Helper()
		if j.db.NoSync || j.db.NoGrowSync {
			t.Errorf("%s: NoSync %v, NoGrowSync %v", when, j.db.NoSync, j.db.NoGrowSync)
		}
	}
	check("opened")
	if err := j.Compact(); err != nil {
		t.Fatal(err)
	}
	check("compacted")
}

// TestNamesThatAreNotUTF8: a path and name in another encoding (Latin-1
// here) come back byte for byte, so the file is found again.
func TestNamesThatAreNotUTF8(t *testing.T) {
	path := tempPath(t)
	j := openAt(t, path, nil)
	name := "r\xe9sum\xe9.png" // "résumé.png" in Latin-1
	rec := Record{ID: "latin", Path: "/home/ada/" + name, Name: name}
	if err := j.Put(rec); err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	j = openAt(t, path, nil)
	got, err := j.Get("latin")
	if err != nil {
		t.Fatal(err)
	}
	if got.Path != rec.Path || got.Name != rec.Name {
		t.Errorf("came back as %q, %q; want %q, %q", got.Path, got.Name, rec.Path, rec.Name)
	}
	recs, err := j.List()
	if err != nil || len(recs) != 1 || recs[0].Path != rec.Path {
		t.Errorf("List: %+v, %v", recs, err)
	}
}
