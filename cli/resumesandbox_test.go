package cli

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/journal"
)

// TestResumeStartsTheBuiltInSandboxOnlyWhenNeeded: hoist send --resume
// starts the built-in sandbox for an unfinished upload that goes to it, and
// not for one of the sandbox kind pointed at a server of its own (it took
// this user's sandbox port for the whole run, for nothing).
func TestResumeStartsTheBuiltInSandboxOnlyWhenNeeded(t *testing.T) {
	for _, tc := range []struct {
		name  string
		d     dest.Destination
		state string
		want  bool
	}{
		{"a server of its own", dest.Destination{Kind: dest.Sandbox, BaseURL: "http://127.0.0.1:9"}, "waiting", false},
		{"no address yet", dest.Destination{Kind: dest.Sandbox}, "waiting", true},
		{"the built-in sandbox", dest.Destination{Kind: dest.Sandbox, BaseURL: "http://127.0.0.1:20000", BuiltinSandbox: true}, "paused", true},
		{"finished", dest.Destination{Kind: dest.Sandbox}, "done", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := journal.Open(filepath.Join(t.TempDir(), "list.db"), journal.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer j.Close()
			raw, err := json.Marshal(tc.d)
			if err != nil {
				t.Fatal(err)
			}
			if err := j.Put(journal.Record{ID: "job1", Path: "/tmp/a.png", Name: "a.png", State: tc.state, Destination: raw}); err != nil {
				t.Fatal(err)
			}
			if got := anyUnfinishedForSandbox(j); got != tc.want {
				t.Errorf("starts the built-in sandbox: %v, want %v", got, tc.want)
			}
		})
	}
}
