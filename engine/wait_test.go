package engine_test

import (
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/words"
)

// A server that asks for two hours' wait is not waited for unseen: with a
// bound of five minutes the job goes back to the list "waiting until" the
// time the server gave, says so, and keeps it in the list for later.
func TestLongWaitGoesBackToTheList(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{MaxWait: 5 * time.Minute})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Answer{Status: 503, RetryAfter: "7200"}})
	p, _ := r.file("report.bin", 1000)
	before := time.Now()
	id := r.add(p)[0]
	v := r.until(id, "left for later", func(v engine.JobView) bool { return v.Later })
	if v.State != engine.Waiting || v.RetryAt.Before(before.Add(2*time.Hour-time.Second)) || v.RetryAt.After(time.Now().Add(2*time.Hour)) {
		t.Fatalf("state %s, retry at %v", v.State, v.RetryAt)
	}
	if !isFact(v.Fact, fact.ServerTrouble) || !isFact(v.NextFact, fact.RetryAt) {
		t.Errorf("reason %+v, next %+v", v.Fact, v.NextFact)
	}
	if s := words.English().Fact(*v.NextFact); s != "Hoist will try again at "+words.English().Date(v.RetryAt.Local())+", when the server asked it to." {
		t.Errorf("next %q", s)
	}
	r.close()
	if rec := journalRecord(t, r.journal, string(id)); rec.State != string(engine.Waiting) || !rec.RetryAt.Equal(v.RetryAt) {
		t.Errorf("the list keeps state %s, retry at %v; want waiting until %v", rec.State, rec.RetryAt, v.RetryAt)
	}
}

// A short wait the server asks for, past this run's bound: the job waits
// in the list, and the window (no bound) starts it when the time comes.
func TestWaitingJobStartsWhenItsTimeComes(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{MaxWait: time.Second})
	r.emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.Answer{Status: 429, RetryAfter: "2"}})
	p, _ := r.file("report.bin", 1000)
	id := r.add(p)[0]
	v := r.until(id, "left for later", func(v engine.JobView) bool { return v.Later })
	r.close()
	r.opts.MaxWait, r.opts.AutoResume = 0, true
	r.open()
	if v2, _ := r.q.Job(id); v2.State != engine.Waiting || !v2.RetryAt.Equal(v.RetryAt) {
		t.Fatalf("reopened %s until %v", v2.State, v2.RetryAt)
	}
	r.state(id, engine.Done)
	if time.Now().Before(v.RetryAt) {
		t.Errorf("started before %v, the time the server asked for", v.RetryAt)
	}
}

// Every request names Hoist and its system, never Go's client.
func TestRequestsNameHoist(t *testing.T) {
	r := newRig(t, emulator.Options{}, engine.Options{})
	p, _ := r.file("a.bin", 1000)
	r.state(r.add(p)[0], engine.Done)
	for _, q := range r.emu.Requests() {
		if q.UserAgent != engine.UserAgent() || !strings.HasPrefix(q.UserAgent, "Hoist/"+engine.Version+" (") {
			t.Errorf("User-Agent %q, want %q", q.UserAgent, engine.UserAgent())
		}
	}
}
