package engine_test

import (
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
)

// TestWaitingForSignIn: a job whose account is not signed in, or whose
// grant expired or was withdrawn, says one sentence and waits; signing in
// sends it on without a press of Resume.
func TestWaitingForSignIn(t *testing.T) {
	for name, cause := range map[string]error{
		"never signed in": auth.ErrNotSignedIn,
		"grant withdrawn": &auth.SignInAgainError{Account: "ada@example.com"},
		"access missing":  &auth.SignInAgainError{Account: "ada@example.com", Missing: []string{auth.ScopeGmailInsert}},
	} {
		t.Run(name, func(t *testing.T) {
			var signedIn atomic.Bool
			r, d := googleLab(t, emulator.Options{}, engine.Options{Backoff: noWait{}}, func(c *http.Client) (*http.Client, error) {
				if !signedIn.Load() {
					return nil, fmt.Errorf("reading the sign-in of ada@example.com: %w", cause)
				}
				return c, nil
			})
			d.Account = "ada@example.com"
			p, _ := r.file("report.bin", 1000)
			id := r.q.Add([]string{p}, d).IDs[0]
			v := r.state(id, engine.Attention)
			if !v.NeedsSignIn || !isFact(v.Fact, fact.SignInToSend) || nextOf(v) != "" {
				t.Fatalf("waiting job: NeedsSignIn %v, reason %q, next %q", v.NeedsSignIn, reasonOf(v), nextOf(v))
			}
			if got := r.q.ResumeSignedIn("bob@example.com"); len(got) != 0 {
				t.Errorf("another account's sign-in resumed %v", got)
			}
			signedIn.Store(true)
			if got := r.q.ResumeSignedIn("ada@example.com"); len(got) != 1 || got[0] != id {
				t.Fatalf("resumed %v, want %v", got, id)
			}
			if v := r.state(id, engine.Done); v.NeedsSignIn {
				t.Error("a finished job still waits for sign-in")
			}
		})
	}
}
