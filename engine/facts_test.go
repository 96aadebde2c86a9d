package engine_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/words"
)

// TestReasonsCarryFacts: a refused file and a file gone before its upload
// carry their reason as a fact, never an English sentence, for the window
// and the command line to say in the user's language, and keep it in the
// list of uploads.
func TestReasonsCarryFacts(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	big, _ := r.file("big.bin", 3000)
	d, err := dest.FromFlags("custom", map[string]string{"url": "http://127.0.0.1:9/upload", "maxSize": "1KiB"})
	if err != nil {
		t.Fatal(err)
	}
	res := r.q.Add([]string{big}, d)
	if len(res.IDs) != 1 {
		t.Fatalf("add: %+v", res)
	}
	v := r.state(res.IDs[0], engine.Refused)
	if f := v.Fact; f == nil || f.Code != fact.TooLarge || f.File != "big.bin" || f.Size != 3000 || f.Limit != 1024 {
		t.Errorf("refused for size: fact %+v, reason %q", f, reasonOf(v))
	}

	r.q.PauseAll()
	gone, _ := r.file("gone.bin", 1000)
	id := r.add(gone)[0]
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	r.q.ResumeAll()
	v = r.state(id, engine.Failed)
	if v.Fact == nil || v.Fact.Code != fact.FileMissing || v.Fact.File != filepath.Base(gone) {
		t.Errorf("missing file: fact %+v, reason %q", v.Fact, reasonOf(v))
	}
	if v.NextFact == nil || v.NextFact.Code != fact.PutBack {
		t.Errorf("missing file: next fact %+v, next %q", v.NextFact, nextOf(v))
	}

	// The list of uploads keeps the facts: a restart says them again.
	r.close()
	r.open()
	for _, v := range r.q.Jobs() {
		want := map[string]fact.Code{"big.bin": fact.TooLarge, "gone.bin": fact.FileMissing}[v.Name]
		if v.Fact == nil || v.Fact.Code != want || reasonOf(v) == "" {
			t.Errorf("%s after a restart: fact %+v, reason %q; want %s", v.Name, v.Fact, reasonOf(v), want)
		}
		if v.Reason != "" || v.Next != "" {
			t.Errorf("%s: the engine wrote sentences %q, %q beside its facts", v.Name, v.Reason, v.Next)
		}
	}
}

// TestResultsAndOlderSentences: a finished upload keeps what the server
// made of the file as a fact across a restart; a list of uploads written
// before facts, holding only English sentences, still opens and shows them
// as they are, and a result kept with the server's answer gets its fact
// from that answer.
func TestResultsAndOlderSentences(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	p, _ := r.file("new.bin", 2000)
	done := r.state(r.add(p)[0], engine.Done)
	if f := done.Result.Fact(); f == nil || f.Code != fact.Uploaded || f.Dest != string(dest.Sandbox) || f.Arg("id") == "" {
		t.Fatalf("result fact %+v of %+v", f, done.Result)
	}
	r.close()

	j, err := journal.Open(r.journal, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := json.Marshal(r.sandbox())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	old := []journal.Record{
		{ID: "old-failed", Order: 100, Path: filepath.Join(r.dir, "a.bin"), Name: "a.bin", Size: 10, Destination: d,
			State: string(engine.Failed), LastError: "The connection dropped.", Created: now},
		{ID: "old-done", Order: 101, Path: filepath.Join(r.dir, "b.eml"), Name: "b.eml", Size: 10, Destination: d,
			State: string(engine.Done), ResultSummary: "Saved in the mailbox (message 18c2).", Created: now, Finished: now},
		{ID: "old-answer", Order: 102, Path: filepath.Join(r.dir, "c.bin"), Name: "c.bin", Size: 10, Destination: d,
			State: string(engine.Done), Result: json.RawMessage(`{"id":"42","name":"c.bin"}`),
			ResultSummary: "Uploaded to the sandbox as c.bin (id 42).", Created: now, Finished: now},
	}
	if err := j.PutAll(old...); err != nil {
		t.Fatal(err)
	}
	j.Close()
	r.open()

	seen := 0
	for _, v := range r.q.Jobs() {
		switch v.Name {
		case "new.bin":
			if v.Result == nil || v.Result.Fact() == nil || v.Result.Fact().Arg("id") != done.Result.Fact().Arg("id") {
				t.Errorf("after a restart, result %+v", v.Result)
			}
		case "a.bin":
			if v.Fact != nil || reasonOf(v) != "The connection dropped." {
				t.Errorf("older failure: fact %+v, reason %q", v.Fact, reasonOf(v))
			}
		case "b.eml":
			if v.Result == nil || v.Result.Fact() != nil || v.Result.Summary != "Saved in the mailbox (message 18c2)." {
				t.Errorf("older result %+v", v.Result)
			}
		case "c.bin":
			if f := v.Result.Fact(); f == nil || f.Code != fact.Uploaded || f.Arg("id") != "42" || f.Arg("title") != "c.bin" {
				t.Errorf("older result with its answer: fact %+v", f)
			}
		default:
			continue
		}
		seen++
	}
	if seen != 4 {
		t.Errorf("saw %d of the 4 uploads", seen)
	}
}

// TestEventsCarryFacts: the end of a batch and a job that needs the user
// are told with their facts, for the window's notifications to word.
func TestEventsCarryFacts(t *testing.T) {
	events := make(chan engine.Event, 16)
	r := newRig(t, emulator.Options{}, engine.Options{OnEvent: func(ev engine.Event) { events <- ev }})
	ok, _ := r.file("ok.bin", 500)
	gone, _ := r.file("gone.bin", 500)
	r.q.PauseAll()
	r.add(ok, gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	r.q.ResumeAll()
	var attention, batch *fact.Fact
	for batch == nil {
		ev := <-events
		switch ev.Kind {
		case engine.NeedsAttention:
			attention = ev.Fact
		case engine.BatchDone:
			batch = ev.Fact
		}
	}
	if attention == nil || attention.Code != fact.FileMissing || attention.File != "gone.bin" {
		t.Errorf("needs attention: fact %+v", attention)
	}
	if batch.Code != fact.BatchDone || batch.Count != 1 || batch.Arg("failed") != "1" {
		t.Errorf("batch done: fact %+v", batch)
	}
}

// reasonOf is a job's reason as the words catalogue says it in English: its
// fact, or the sentence an older Hoist kept.
func reasonOf(v engine.JobView) string {
	if v.Fact != nil {
		return words.English().Fact(*v.Fact)
	}
	return v.Reason
}

// nextOf is a job's next step as the words catalogue says it in English.
func nextOf(v engine.JobView) string {
	if v.NextFact != nil {
		return words.English().Fact(*v.NextFact)
	}
	return v.Next
}

// isFact reports whether f is a fact of this code.
func isFact(f *fact.Fact, code fact.Code) bool { return f != nil && f.Code == code }

// summaryOf is what the server made of a file, as the words catalogue says
// it in English: its fact, or the sentence an older Hoist kept.
func summaryOf(r *engine.Result) string {
	if r.Fact() != nil {
		return words.English().Fact(*r.Fact())
	}
	return r.Summary
}

// resultSays reports whether r's fact has this code and these arguments
// (name, value pairs).
func resultSays(r *engine.Result, code fact.Code, args ...string) bool {
	if r == nil || r.Fact() == nil || r.Fact().Code != code {
		return false
	}
	for i := 0; i+1 < len(args); i += 2 {
		if r.Fact().Arg(args[i]) != args[i+1] {
			return false
		}
	}
	return true
}
