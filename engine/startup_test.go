package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/journal"
	"hoist/engine/media"
)

// countEmailReads counts the email files read from now on.
func countEmailReads(t *testing.T) *atomic.Int32 {
	t.Helper()
	var n atomic.Int32
	was := readEmailHeaders
	readEmailHeaders = func(path string) (*media.Email, error) {
		n.Add(1)
		return was(path)
	}
	t.Cleanup(func() { readEmailHeaders = was })
	return &n
}

// emailRecords writes n email files into dir and journal records of them,
// uploaded; with kept, each record holds the file's headers as Hoist now
// writes them, else it is a record of an older Hoist, which kept none.
func emailRecords(t *testing.T, j *journal.Journal, dir string, n int, kept bool) {
	t.Helper()
	for i := range n {
		subject := fmt.Sprintf("Minutes %d", i)
		path := filepath.Join(dir, fmt.Sprintf("minutes %d.eml", i))
		text := "From: Ana <ana@example.com>\r\nSubject: " + subject + "\r\n\r\nWords.\r\n"
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		rec := journal.Record{
			ID: fmt.Sprintf("mail%d", i), Path: path, Name: filepath.Base(path), Size: int64(len(text)),
			MIME: "message/rfc822", Destination: json.RawMessage(`{"kind":"sandbox","builtinSandbox":true}`),
			State: string(Done), Finished: time.Now(),
		}
		if kept {
			rec.Email = &journal.EmailHeaders{From: "Ana <ana@example.com>", Subject: subject}
		}
		if err := j.Put(rec); err != nil {
			t.Fatal(err)
		}
	}
}

// tempJournal is a new journal, closed at the end of the test.
func tempJournal(t *testing.T) *journal.Journal {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), journal.FileName), journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

func openIdle(t *testing.T, j *journal.Journal) *Queue {
	t.Helper()
	q, err := Open(t.Context(), Options{Journal: j, Idle: true, SandboxURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func closeQueue(t *testing.T, q *Queue) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := q.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// subjects are the subjects the list shows, "" for a row without one.
func subjects(q *Queue) []string {
	var out []string
	for _, v := range q.Jobs() {
		s := ""
		if v.Email != nil {
			s = v.Email.Subject
		}
		out = append(out, s)
	}
	return out
}

func wantSubjects(t *testing.T, got []string, n int) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("%d rows, want %d", len(got), n)
	}
	for i, s := range got {
		if want := fmt.Sprintf("Minutes %d", i); s != want {
			t.Errorf("row %d shows subject %q, want %q", i, s, want)
		}
	}
}

// A list of emails opens without reading a single one of their files: the
// subject and sender each row shows come from the record.
func TestOpeningAListOfEmailsReadsNoFile(t *testing.T) {
	const n = 20
	j := tempJournal(t)
	dir := t.TempDir()
	emailRecords(t, j, dir, n, true)
	reads := countEmailReads(t)
	// The files say something else now: a list that read them would show it.
	files, _ := filepath.Glob(filepath.Join(dir, "*.eml"))
	for _, f := range files {
		if err := os.WriteFile(f, []byte("From: Bo <bo@example.com>\r\nSubject: Read again\r\n\r\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	q := openIdle(t, j)
	wantSubjects(t, subjects(q), n)
	closeQueue(t, q)
	if got := reads.Load(); got != 0 {
		t.Errorf("opening the list read %d email files, want none", got)
	}
}

// A list an older Hoist wrote, without the headers, opens without waiting
// for its files: their headers are read after Open, shown, and kept, so the
// next start reads none.
func TestOlderListOfEmailsIsReadAfterOpenOnce(t *testing.T) {
	const n = 12
	j := tempJournal(t)
	emailRecords(t, j, t.TempDir(), n, false)
	reads := countEmailReads(t)

	q := openIdle(t, j)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	for {
		changed := q.Changed()
		missing := 0
		for _, s := range subjects(q) {
			if s == "" {
				missing++
			}
		}
		if missing == 0 {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("%d rows still without their subject", missing)
		}
	}
	wantSubjects(t, subjects(q), n)
	closeQueue(t, q)
	if got := reads.Load(); got != n {
		t.Errorf("%d email files read, want each of the %d once", got, n)
	}

	q = openIdle(t, j)
	wantSubjects(t, subjects(q), n)
	closeQueue(t, q)
	if got := reads.Load(); got != n {
		t.Errorf("the second start read %d email files, want none", got-n)
	}
}

// Records holding the same destination's bytes have it read once.
func TestEachDestinationIsReadOnce(t *testing.T) {
	ds := newDestinations()
	reads := 0
	ds.read = func(b []byte) (dest.Destination, error) {
		reads++
		return readDestination(b)
	}
	a := json.RawMessage(`{"kind":"sandbox","builtinSandbox":true}`)
	b := json.RawMessage(`{"kind":"custom","name":"Archive","params":{"url":"https://archive.example/upload"}}`)
	var jobs []*job
	for i, d := range []json.RawMessage{a, b, a, b, a, append(json.RawMessage(nil), a...)} {
		jb, _, err := jobFromRecord(journal.Record{ID: fmt.Sprint(i), Destination: d, State: string(Done)}, ds, false)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, jb)
	}
	if reads != 2 {
		t.Errorf("two destinations read %d times, want twice", reads)
	}
	if jobs[1].dest.Name != "Archive" || jobs[3].dest.Param("url") != "https://archive.example/upload" || jobs[5].dest.Kind != dest.Sandbox || !jobs[5].dest.BuiltinSandbox {
		t.Errorf("destinations read as %+v and %+v", jobs[1].dest, jobs[5].dest)
	}
}

// A finished job's answer is not read again at start: what was read from it
// comes with the record. A record of an older Hoist, without it, still has
// its answer read.
func TestResultReadFromItsRecord(t *testing.T) {
	ds := newDestinations()
	answer := json.RawMessage(`{"id":"from-the-answer","name":"a.bin"}`)
	rec := journal.Record{
		ID: "a", Destination: json.RawMessage(`{"kind":"sandbox","builtinSandbox":true}`), State: string(Done),
		Result: answer, Verified: "crc32c",
		ResultRef: &journal.ResultRef{ID: "as-kept", URL: "http://127.0.0.1:9/sandbox/objects/as-kept"},
	}
	jb, _, err := jobFromRecord(rec, ds, false)
	if err != nil {
		t.Fatal(err)
	}
	if r := jb.result; r.ID != "as-kept" || r.URL != "http://127.0.0.1:9/sandbox/objects/as-kept" || string(r.Raw) != string(answer) || r.Verified != "crc32c" {
		t.Errorf("result %+v, want the record's", r)
	}
	rec.ResultRef = nil
	if jb, _, err = jobFromRecord(rec, ds, false); err != nil {
		t.Fatal(err)
	}
	if r := jb.result; r.ID != "from-the-answer" || r.Verified != "crc32c" {
		t.Errorf("result of an older record %+v, want the answer's", r)
	}
}

// With LeanResults a finished job's whole answer stays in the journal, not
// in memory, and a record written again keeps it there.
func TestLeanResultsLeaveTheAnswerInTheJournal(t *testing.T) {
	answer := `{"id":"obj-1","name":"a.bin","size":"3"}`
	j := tempJournal(t)
	err := j.Put(journal.Record{
		ID: "a", Name: "a.bin", Size: 3, Destination: json.RawMessage(`{"kind":"sandbox","builtinSandbox":true}`),
		State: string(Done), Finished: time.Now(), Result: json.RawMessage(answer), Verified: "size",
		ResultRef: &journal.ResultRef{ID: "obj-1", Name: "a.bin"}, ResultFact: json.RawMessage(`{"code":"result.uploaded","args":{"id":"obj-1"}}`),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, lean := range []bool{false, true} {
		q, err := Open(t.Context(), Options{Journal: j, Idle: true, SandboxURL: "http://127.0.0.1:9", LeanResults: lean})
		if err != nil {
			t.Fatal(err)
		}
		v := q.Jobs()[0]
		if r := v.Result; r == nil || r.ID != "obj-1" || r.Fact() == nil || r.Verified != "size" || (len(r.Raw) == 0) != lean {
			t.Errorf("lean %v: result %+v", lean, r)
		}
		q.list.takeOffShelf("a") // lean: it was left in the journal; an action brings it back whole
		q.list.mu.Lock()
		q.list.persist(q.list.jobs["a"])
		q.list.mu.Unlock()
		closeQueue(t, q)
		rec, err := j.Get("a")
		if err != nil || string(rec.Result) != answer {
			t.Errorf("lean %v: after writing the record again it holds %s (%v), want the answer", lean, rec.Result, err)
		}
	}
}
