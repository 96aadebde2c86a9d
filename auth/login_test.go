package auth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hoist/auth/authtest"
)

func TestLoginEndToEnd(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t, ScopeGmailInsert)

	if acct.Email != "ada@example.com" || acct.LessSafe {
		t.Errorf("account = %+v, want ada@example.com in the keychain store", acct)
	}
	for _, want := range []string{ScopeGmailInsert, ScopeOpenID, ScopeEmail} {
		if !slices.Contains(acct.Scopes, want) {
			t.Errorf("granted scopes %v lack %s", acct.Scopes, want)
		}
	}

	reqs := f.srv.AuthRequests()
	if len(reqs) != 1 {
		t.Fatalf("consent page visited %d times, want 1", len(reqs))
	}
	q := reqs[0]
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"code_challenge present", len(q.Get("code_challenge")) >= 43},
		{"code_challenge_method=S256", q.Get("code_challenge_method") == "S256"},
		{"state is long and random", len(q.Get("state")) >= 40},
		{"access_type=offline", q.Get("access_type") == "offline"},
		{"prompt=consent for a new account", q.Get("prompt") == "consent"},
		{"include_granted_scopes=true", q.Get("include_granted_scopes") == "true"},
		{"response_type=code", q.Get("response_type") == "code"},
		{"scopes asked", slices.Equal(strings.Fields(q.Get("scope")), normalizeScopes([]string{ScopeGmailInsert, "openid", "email"}))},
		{"redirect to 127.0.0.1 with a port", redirect.Scheme == "http" && redirect.Hostname() == "127.0.0.1" && redirect.Port() != ""},
		{"no verifier in the URL", q.Get("code_verifier") == ""},
	}
	for _, c := range checks {
		if !c.ok {
			t.Errorf("authorization URL: %s failed; query = %v", c.name, q)
		}
	}

	g, ok := f.store.grant(acct.Email)
	if !ok {
		t.Fatal("no grant stored")
	}
	if g.RefreshToken == "" || g.RefreshToken != f.srv.RefreshToken(acct.Email) {
		t.Error("stored refresh token is not the one the server issued")
	}
	if g.ClientID != f.srv.ClientID {
		t.Errorf("stored client = %q, want %q", g.ClientID, f.srv.ClientID)
	}

	pages := f.browser.Wait()
	if len(pages) != 1 || pages[0].Status != 200 || !strings.Contains(pages[0].Body, "Signed in \u2014 you can close this tab") {
		t.Errorf("browser showed %+v, want the signed-in page", pages)
	}

	accounts, err := f.svc.Accounts(t.Context())
	if err != nil || len(accounts) != 1 || accounts[0].Email != acct.Email || !slices.Contains(accounts[0].Scopes, ScopeGmailInsert) {
		t.Errorf("Accounts = %+v, %v", accounts, err)
	}
	if files := filesContaining(t, f.svc.ConfigDir, g.RefreshToken, g.AccessToken, f.srv.ClientSecret); len(files) > 0 {
		t.Errorf("secrets written to %v", files)
	}
}

func TestLoginCallbacks(t *testing.T) {
	tests := []struct {
		name string
		// sendExtra returns a callback to send, given the real one; it is
		// sent before the real one ("before") or while it is being handled.
		extra      func(real string) string
		while      bool
		wantStatus int
		wantText   string
	}{
		{
			name: "forged state is refused and the real answer still counts",
			extra: func(real string) string {
				u, _ := url.Parse(real)
				q := u.Query()
				q.Set("state", "forged-"+q.Get("state")[:10])
				u.RawQuery = q.Encode()
				return u.String()
			},
			wantStatus: 400,
			wantText:   "This sign-in link is not valid",
		},
		{
			name:       "callback without state is refused",
			extra:      func(real string) string { u, _ := url.Parse(real); u.RawQuery = "code=stolen"; return u.String() },
			wantStatus: 400,
			wantText:   "not valid",
		},
		{
			name:       "second callback is refused",
			extra:      func(real string) string { return real },
			while:      true,
			wantStatus: 409,
			wantText:   "already finished",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var extra authtest.Page
			var extraURL string
			f.browser.BeforeReturn = func(real string) {
				extraURL = tt.extra(real)
				if !tt.while {
					extra = authtest.Get(extraURL)
				}
			}
			if tt.while {
				// The store is written while the first callback is being handled.
				f.store.beforeSet = func() { extra = authtest.Get(extraURL) }
			}
			acct := f.login(t)
			pages := f.browser.Wait()
			if extra.Status != tt.wantStatus || !strings.Contains(extra.Body, tt.wantText) {
				t.Errorf("extra callback got %d %q, want %d with %q", extra.Status, extra.Body, tt.wantStatus, tt.wantText)
			}
			if acct.Email != "ada@example.com" || len(pages) != 1 || pages[0].Status != 200 {
				t.Errorf("real sign-in: account %+v, pages %+v", acct, pages)
			}
		})
	}
}

func TestLoginFailures(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(t *testing.T, f *fixture, ctx context.Context, cancel context.CancelFunc)
		opts    []LoginOption
		wantIs  []error
		wantMsg string
		page    string // text the browser must show, if it got that far
	}{
		{
			name: "user declines",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.srv.Set(func(s *authtest.Server) { s.DenyWith = "access_denied" })
			},
			wantIs:  []error{ErrAccessDenied},
			wantMsg: "You chose not to give Hoist access. Nothing was changed.",
			page:    "You chose not to give Hoist access.",
		},
		{
			name: "administrator forbids",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.srv.Set(func(s *authtest.Server) { s.DenyWith = "admin_policy_enforced" })
			},
			wantMsg: "Your organization's administrator does not allow Hoist to use your Google account for this.",
		},
		{
			name: "browser never comes back",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.OpenBrowser = func(string) error { return nil }
				f.svc.ConsentTimeout = 50 * time.Millisecond
			},
			wantIs:  []error{ErrSignInTimedOut, context.DeadlineExceeded},
			wantMsg: ErrSignInTimedOut.Error(),
		},
		{
			name: "browser never comes back within this sign-in's own wait",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.OpenBrowser = func(string) error { return nil }
				f.svc.ConsentTimeout = time.Hour
			},
			opts:    []LoginOption{WaitingAtMost(50 * time.Millisecond)},
			wantIs:  []error{ErrSignInTimedOut, context.DeadlineExceeded},
			wantMsg: ErrSignInTimedOut.Error(),
		},
		{
			name: "canceled by the caller",
			prepare: func(t *testing.T, f *fixture, _ context.Context, cancel context.CancelFunc) {
				f.svc.OpenBrowser = func(string) error { cancel(); return nil }
			},
			wantIs:  []error{ErrSignInCanceled, context.Canceled},
			wantMsg: ErrSignInCanceled.Error(),
		},
		{
			name: "no browser and nowhere to show the address",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.OpenBrowser = func(string) error { return errors.New("xdg-open: no method available") }
			},
			wantMsg: "Hoist could not open the web browser for the sign-in. Check that a web browser is installed and try again.",
		},
		{
			name: "no client",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.ClientJSON = nil
			},
			wantIs:  []error{ErrNoClient},
			wantMsg: ErrNoClient.Error(),
		},
		{
			name: "no keychain and no consent to a file",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.Store = &Keychain{Backend: failingKeyring{err: keyringUnsupported()}}
			},
			wantIs:  []error{ErrNoKeychain},
			wantMsg: ErrNoKeychain.Error(),
		},
		{
			name: "locked keychain",
			prepare: func(t *testing.T, f *fixture, _ context.Context, _ context.CancelFunc) {
				f.svc.Store = &Keychain{Backend: newBlockingKeyring(t), Timeout: 20 * time.Millisecond}
			},
			wantIs:  []error{ErrKeychainLocked},
			wantMsg: ErrKeychainLocked.Error(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			tt.prepare(t, f, ctx, cancel)
			_, err := f.svc.Login(ctx, []string{ScopeGmailInsert}, tt.opts...)
			if err == nil {
				t.Fatal("Login succeeded")
			}
			for _, target := range tt.wantIs {
				if !errors.Is(err, target) {
					t.Errorf("error %q does not match %v", err, target)
				}
			}
			if err.Error() != tt.wantMsg {
				t.Errorf("message = %q, want %q", err, tt.wantMsg)
			}
			pages := f.browser.Wait()
			if tt.page != "" && (len(pages) != 1 || !strings.Contains(pages[0].Body, tt.page)) {
				t.Errorf("browser showed %+v, want %q", pages, tt.page)
			}
			if accts, _ := f.svc.Accounts(t.Context()); len(accts) != 0 {
				t.Errorf("accounts after a failed sign-in: %+v", accts)
			}
		})
	}
}

func TestLoginShowsAddressWhenBrowserFails(t *testing.T) {
	f := newFixture(t)
	f.svc.OpenBrowser = func(string) error { return errors.New("no browser") }
	shown := make(chan string, 1)
	f.svc.ShowURL = func(u string) {
		shown <- u
		f.browser.Open(u) // the user copies the address into a browser
	}
	acct := f.login(t)
	if u := <-shown; !strings.HasPrefix(u, f.srv.URL+"/authorize?") {
		t.Errorf("shown address %q is not the consent page", u)
	}
	if acct.Email != "ada@example.com" {
		t.Errorf("account = %+v", acct)
	}
}

func TestLoginIncremental(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t, ScopeGmailInsert)
	first, _ := f.store.grant(acct.Email)

	if _, err := f.svc.Client(t.Context(), acct.Email, []string{ScopeDFATrafficking}); !errors.Is(err, ErrSignInAgain) {
		t.Fatalf("Client with a scope not granted: %v, want ErrSignInAgain", err)
	} else {
		var again *SignInAgainError
		if !errors.As(err, &again) || !slices.Equal(again.Missing, []string{ScopeDFATrafficking}) || again.Retryable() {
			t.Errorf("error = %#v", err)
		}
		if !strings.Contains(err.Error(), "dfatrafficking") {
			t.Errorf("message %q does not name the missing access", err)
		}
	}

	more, err := f.svc.Login(t.Context(), []string{ScopeDFATrafficking}, ForAccount(acct.Email))
	if err != nil {
		t.Fatal(err)
	}
	q := f.srv.AuthRequests()[1]
	if q.Get("login_hint") != acct.Email || q.Get("include_granted_scopes") != "true" || q.Has("prompt") {
		t.Errorf("incremental consent query = %v", q)
	}
	if !slices.Contains(more.Scopes, ScopeGmailInsert) || !slices.Contains(more.Scopes, ScopeDFATrafficking) {
		t.Errorf("scopes after asking for more = %v, want the union", more.Scopes)
	}
	second, _ := f.store.grant(acct.Email)
	if second.RefreshToken != first.RefreshToken {
		t.Error("the refresh token of the earlier grant was not kept")
	}
	if _, err := f.svc.Client(t.Context(), acct.Email, []string{ScopeDFATrafficking, ScopeGmailInsert}); err != nil {
		t.Errorf("Client after the incremental sign-in: %v", err)
	}
}

// TestLoginAfterWithdrawalKeepsOnlyWhatGoogleGrants: after the user withdrew
// Hoist's access at Google, signing in again for less does not bring back
// the access of the withdrawn grant.
func TestLoginAfterWithdrawalKeepsOnlyWhatGoogleGrants(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t, ScopeDFATrafficking)
	old, _ := f.store.grant(acct.Email)
	resp, err := http.PostForm(f.srv.URL+"/revoke", url.Values{"token": {old.RefreshToken}})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	again := f.login(t, ScopeGmailInsert)
	if slices.Contains(again.Scopes, ScopeDFATrafficking) {
		t.Errorf("scopes after signing in again = %v, still listing the withdrawn access", again.Scopes)
	}
	if list, _ := f.svc.Accounts(t.Context()); len(list) != 1 || slices.Contains(list[0].Scopes, ScopeDFATrafficking) {
		t.Errorf("accounts = %+v, still listing the withdrawn access", list)
	}
	var missing *SignInAgainError
	if _, err := f.svc.Client(t.Context(), acct.Email, []string{ScopeDFATrafficking}); !errors.As(err, &missing) ||
		!slices.Equal(missing.Missing, []string{ScopeDFATrafficking}) {
		t.Errorf("Client for the withdrawn access: %v, want a SignInAgainError missing it", err)
	}
}

func TestLoginIdentityFromUserinfo(t *testing.T) {
	f := newFixture(t)
	f.srv.Set(func(s *authtest.Server) { s.OmitIDToken = true; s.Email = "grace@example.org" })
	if acct := f.login(t); acct.Email != "grace@example.org" {
		t.Errorf("email = %q, want grace@example.org from userinfo", acct.Email)
	}
}

func TestLoginFileStoreWithConsent(t *testing.T) {
	f := newFixture(t)
	f.svc.Store = &Keychain{Backend: failingKeyring{err: keyringUnsupported()}}
	f.svc.AllowFileStore = true
	acct := f.login(t, ScopeGmailInsert)
	if !acct.LessSafe {
		t.Error("account kept in a file is not reported as less safe")
	}
	path := filepath.Join(f.svc.ConfigDir, tokensFileName)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("token file mode = %v, want 0600", perm)
	}
	accounts, err := f.svc.Accounts(t.Context())
	if err != nil || len(accounts) != 1 || !accounts[0].LessSafe {
		t.Errorf("Accounts = %+v, %v; want one less-safe account", accounts, err)
	}
	// The file-kept grant works without a keychain.
	f.callsTheAPI(t, acct.Email, ScopeGmailInsert)
}

// TestLoginOptionsForOneSignIn: the window asks the user and then signs in
// once with a file store and an address to show, leaving the Service as it was.
func TestLoginOptionsForOneSignIn(t *testing.T) {
	f := newFixture(t)
	f.svc.Store = &Keychain{Backend: failingKeyring{err: keyringUnsupported()}}
	f.svc.OpenBrowser = func(string) error { return errors.New("no browser") }
	if _, err := f.svc.Login(t.Context(), []string{ScopeGmailInsert}); !errors.Is(err, ErrNoKeychain) {
		t.Fatalf("without consent to a file: %v, want ErrNoKeychain", err)
	}
	shown := make(chan string, 1)
	acct, err := f.svc.Login(t.Context(), []string{ScopeGmailInsert}, AllowingFileStore(), ShowingURL(func(u string) {
		shown <- u
		f.browser.Open(u)
	}))
	if err != nil {
		t.Fatalf("with consent to a file and an address to show: %v", err)
	}
	if !acct.LessSafe {
		t.Error("the account kept in a file is not reported as less safe")
	}
	if u := <-shown; !strings.HasPrefix(u, f.srv.URL+"/authorize?") {
		t.Errorf("shown address %q is not the consent page", u)
	}
	if f.svc.AllowFileStore || f.svc.ShowURL != nil {
		t.Error("options of one sign-in changed the Service")
	}
}
