package auth

import (
	"errors"
	"net/http"
	"testing"

	"hoist/auth/authtest"
	"hoist/engine/fact"
)

// TestUploadsSayWhichAccount: the adapter the window and the command line
// both give their queue meets the accounts the same way: none signed in is
// a sign-in to make, several and none named is a fact naming them, one is
// used, and its clients send through the queue's transport.
func TestUploadsSayWhichAccount(t *testing.T) {
	f := newFixture(t)
	base := &authtest.Counting{Base: http.DefaultTransport}
	u := Uploads{Service: f.svc, Base: base}

	_, err := u.Client(t.Context(), "", nil)
	if !errors.Is(err, ErrNotSignedIn) || !u.NeedsSignIn(err) {
		t.Fatalf("nobody signed in: %v (needs sign-in %v), want ErrNotSignedIn", err, u.NeedsSignIn(err))
	}

	f.login(t, ScopeGmailInsert)
	c, err := u.Client(t.Context(), "", nil)
	if err != nil {
		t.Fatalf("the only account: %v", err)
	}
	if tr, ok := c.Transport.(*Transport); !ok || tr.Base != base {
		t.Errorf("the client sends through %#v, want the queue's transport", c.Transport)
	}

	f.srv.Set(func(s *authtest.Server) { s.Email = "grace@example.org" })
	f.login(t, ScopeGmailInsert)
	_, err = u.Client(t.Context(), "", nil)
	var which *WhichAccountError
	if !errors.As(err, &which) || u.NeedsSignIn(err) {
		t.Fatalf("two accounts, none named: %v, want a *WhichAccountError that no sign-in mends", err)
	}
	said := which.Fact()
	if said.Code != fact.WhichAccount || said.Arg("accounts") != "ada@example.com, grace@example.org" {
		t.Errorf("fact %+v, want %s naming both accounts", said, fact.WhichAccount)
	}
	if c, err := u.Client(t.Context(), "grace@example.org", nil); err != nil || c == nil {
		t.Errorf("a named account: %v", err)
	}
}
