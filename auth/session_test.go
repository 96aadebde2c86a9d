package auth

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSignInForThisSessionOnly: with a keychain that cannot be used
// (none, or one that stays locked), a sign-in kept for this session only
// works, lists its account as such, and leaves nothing on disk: no token
// file, no account in the list a later start reads. Signing out forgets it.
func TestSignInForThisSessionOnly(t *testing.T) {
	for name, broken := range map[string]error{
		"no keychain":     keyringUnsupported(),
		"locked keychain": errors.New("failed to unlock correct collection '/org/freedesktop/secrets/aliases/default'"),
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.svc.Store = &Keychain{Backend: failingKeyring{err: broken}}
			if _, err := f.svc.Login(t.Context(), []string{ScopeGmailInsert}); err == nil {
				t.Fatal("without a usable keychain and without a choice, the sign-in was kept somewhere")
			}
			acct, err := f.svc.Login(t.Context(), []string{ScopeGmailInsert}, KeepingForThisSession())
			if err != nil {
				t.Fatalf("a sign-in for this session only: %v", err)
			}
			if !acct.ThisSession || acct.LessSafe {
				t.Errorf("the account is %+v, want one kept for this session", acct)
			}
			accounts, err := f.svc.Accounts(t.Context())
			if err != nil || len(accounts) != 1 || !accounts[0].ThisSession {
				t.Fatalf("Accounts = %+v, %v; want the one kept for this session", accounts, err)
			}
			f.callsTheAPI(t, acct.Email, ScopeGmailInsert)
			if files := filesContaining(t, f.svc.ConfigDir, acct.Email, "refresh"); len(files) > 0 {
				t.Errorf("the sign-in for this session left %q on disk", files)
			}
			if _, err := os.Stat(filepath.Join(f.svc.ConfigDir, tokensFileName)); err == nil {
				t.Error("a token file was written")
			}
			later := &Service{Store: f.svc.Store, ConfigDir: f.svc.ConfigDir, ClientJSON: f.svc.ClientJSON}
			if list, _ := later.Accounts(t.Context()); len(list) != 0 {
				t.Errorf("the next start knows %+v", list)
			}
			if err := f.svc.Logout(t.Context(), acct.Email); err != nil && !errors.Is(err, ErrNotRevoked) {
				t.Fatalf("Logout: %v", err)
			}
			if list, _ := f.svc.Accounts(t.Context()); len(list) != 0 {
				t.Errorf("after signing out the accounts are %+v", list)
			}
			if _, err := f.svc.Client(t.Context(), acct.Email, []string{ScopeGmailInsert}); err == nil {
				t.Error("a signed-out session account still gives a client")
			}
		})
	}
}
