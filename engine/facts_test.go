package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
)

// TestReasonsCarryFacts: a refused file and a file gone before its upload
// carry their reason as a fact beside the English sentence, for the window
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
		t.Errorf("refused for size: fact %+v, reason %q", f, v.Reason)
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
		t.Errorf("missing file: fact %+v, reason %q", v.Fact, v.Reason)
	}
	if v.NextFact == nil || v.NextFact.Code != fact.PutBack {
		t.Errorf("missing file: next fact %+v, next %q", v.NextFact, v.Next)
	}

	// The list of uploads keeps the facts: a restart says them again.
	r.close()
	r.open()
	for _, v := range r.q.Jobs() {
		want := map[string]fact.Code{"big.bin": fact.TooLarge, "gone.bin": fact.FileMissing}[v.Name]
		if v.Fact == nil || v.Fact.Code != want || v.Reason == "" {
			t.Errorf("%s after a restart: fact %+v, reason %q; want %s", v.Name, v.Fact, v.Reason, want)
		}
	}
}
