package auth

import (
	"errors"
	"slices"
	"testing"
	"time"
)

// holdNextSet makes the store's next Set wait, once inside it, until the
// returned release is called; entered is closed when it starts waiting.
func holdNextSet(m *memStore) (entered <-chan struct{}, release func()) {
	in, out := make(chan struct{}), make(chan struct{})
	m.mu.Lock()
	m.beforeSet = func() {
		close(in)
		<-out
	}
	m.mu.Unlock()
	return in, func() { close(out) }
}

// refreshHeldInSave signs an account in and starts a refresh of its
// expired token that is held inside the store's Set; refreshed gets the
// refresh's error once release lets the save go.
func refreshHeldInSave(t *testing.T, f *fixture) (acct Account, ts *TokenSource, refreshed <-chan error, release func()) {
	t.Helper()
	acct = f.login(t)
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * time.Hour)
	entered, release := holdNextSet(f.store)
	done := make(chan error, 1)
	go func() {
		_, err := ts.Token()
		done <- err
	}()
	<-entered // the refresh is saving what it got
	return acct, ts, done, release
}

// whileSaveHeld runs op while a refresh's save is held and lets the save go
// once op is over, or after graceBeforeRelease if op waits for the save.
func whileSaveHeld[T any](release func(), op func() T) T {
	result := make(chan T, 1)
	go func() { result <- op() }()
	select {
	case r := <-result:
		release()
		return r
	case <-time.After(graceBeforeRelease):
		release()
		return <-result
	}
}

// graceBeforeRelease is how long a test lets a sign-in or sign-out run on
// while a refresh's save is held; a correct one waits for the save.
const graceBeforeRelease = 300 * time.Millisecond

func TestLogoutDuringRefreshSaveLeavesNoGrant(t *testing.T) {
	f := newFixture(t)
	acct, ts, refreshed, release := refreshHeldInSave(t, f)
	logoutErr := whileSaveHeld(release, func() error { return f.svc.Logout(t.Context(), acct.Email) })
	refreshErr := <-refreshed

	if logoutErr != nil {
		t.Fatalf("Logout: %v", logoutErr)
	}
	if refreshErr != nil && !errors.Is(refreshErr, ErrSignInAgain) {
		t.Errorf("refresh: %v, want a token or ErrSignInAgain", refreshErr)
	}
	if _, ok := f.store.grant(acct.Email); ok {
		t.Error("after Logout the refresh wrote the grant back to the store")
	}
	accounts, err := f.svc.Accounts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(accounts) != 0 {
		t.Errorf("accounts after Logout: %v", accounts)
	}
	if _, err := ts.Token(); !errors.Is(err, ErrSignInAgain) {
		t.Errorf("token source after Logout: %v, want ErrSignInAgain", err)
	}
}

func TestSignInDuringRefreshSaveKeepsNewGrant(t *testing.T) {
	f := newFixture(t)
	acct, ts, refreshed, release := refreshHeldInSave(t, f)
	// Signing in again for more access makes a new grant.
	type login struct {
		acct Account
		err  error
	}
	l := whileSaveHeld(release, func() login {
		a, err := f.svc.Login(t.Context(), []string{ScopeGmailSend}, ForAccount(acct.Email))
		return login{a, err}
	})
	if err := <-refreshed; err != nil {
		t.Errorf("refresh: %v", err)
	}
	if l.err != nil {
		t.Fatalf("Login: %v", l.err)
	}

	saved, ok := f.store.grant(acct.Email)
	if !ok {
		t.Fatal("no grant saved")
	}
	if !slices.Contains(saved.Scopes, ScopeGmailSend) {
		t.Errorf("saved scopes %v: the refresh of the old grant replaced the new sign-in's", ScopeNames(saved.Scopes))
	}
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	if saved.AccessToken != tok.AccessToken || saved.RefreshToken != f.srv.RefreshToken(acct.Email) {
		t.Error("the saved grant is not the one the token source holds after the sign-in")
	}
	if !slices.Contains(ts.Scopes(), ScopeGmailSend) {
		t.Errorf("token source scopes %v lack the new access", ScopeNames(ts.Scopes()))
	}
}
