package auth

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hoist/auth/authtest"
)

func TestTokenSourceRefreshesEarly(t *testing.T) {
	tests := []struct {
		name        string
		advance     time.Duration // after sign-in; access tokens live an hour
		wantRefresh bool
	}{
		{"fresh token is reused", 0, false},
		{"two minutes before expiry is still fresh", 58 * time.Minute, false},
		{"less than a minute before expiry is renewed", 59*time.Minute + 30*time.Second, true},
		{"expired is renewed", 3 * time.Hour, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			acct := f.login(t)
			before, _ := f.store.grant(acct.Email)
			ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
			if err != nil {
				t.Fatal(err)
			}
			f.clock.Advance(tt.advance)
			tok, err := ts.Token()
			if err != nil {
				t.Fatal(err)
			}
			if refreshed := f.srv.Refreshes() == 1; refreshed != tt.wantRefresh {
				t.Errorf("refreshed = %v, want %v", refreshed, tt.wantRefresh)
			}
			if changed := tok.AccessToken != before.AccessToken; changed != tt.wantRefresh {
				t.Errorf("access token changed = %v, want %v", changed, tt.wantRefresh)
			}
			if tok.RefreshToken != "" {
				t.Error("Token handed out the refresh token")
			}
			if tt.wantRefresh && !tok.Expiry.Equal(f.clock.Now().Add(time.Hour)) {
				t.Errorf("expiry %v not computed from the injected clock %v", tok.Expiry, f.clock.Now())
			}
		})
	}
}

func TestTokenSourceSavesRotatedRefreshToken(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	old, _ := f.store.grant(acct.Email)
	f.srv.Set(func(s *authtest.Server) { s.RotateRefresh = true })
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * time.Hour)
	tok, err := ts.Token()
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := f.store.grant(acct.Email)
	if saved.RefreshToken == old.RefreshToken || saved.RefreshToken != f.srv.RefreshToken(acct.Email) {
		t.Error("the rotated refresh token was not saved")
	}
	if saved.AccessToken != tok.AccessToken {
		t.Error("the new access token was not saved")
	}

	// A later run, reading the store afresh, refreshes with the rotated token.
	next := &Service{Store: f.store, ConfigDir: f.svc.ConfigDir, ClientJSON: f.svc.ClientJSON,
		Endpoints: f.svc.Endpoints, Now: f.clock.Now}
	f.clock.Advance(2 * time.Hour)
	ts2, err := next.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ts2.Token(); err != nil {
		t.Errorf("refresh with the saved rotated token: %v", err)
	}
}

func TestTokenSourceAdoptsTokenRotatedElsewhere(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	f.srv.Set(func(s *authtest.Server) { s.RotateRefresh = true })
	mine, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Another Hoist process refreshes first and saves the rotated token.
	other := &Service{Store: f.store, ConfigDir: f.svc.ConfigDir, ClientJSON: f.svc.ClientJSON,
		Endpoints: f.svc.Endpoints, Now: f.clock.Now}
	f.clock.Advance(2 * time.Hour)
	theirs, err := other.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := theirs.Token(); err != nil {
		t.Fatal(err)
	}
	if _, err := mine.Token(); err != nil {
		t.Errorf("refresh after another process rotated the token: %v", err)
	}
}

func TestConcurrentTokenCallsRefreshOnce(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	f.srv.Set(func(s *authtest.Server) { s.RefreshDelay = 50 * time.Millisecond })
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * time.Hour)
	const callers = 16
	tokens := make([]string, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			tok, err := ts.Token()
			errs[i] = err
			if tok != nil {
				tokens[i] = tok.AccessToken
			}
		})
	}
	wg.Wait()
	if n := f.srv.Refreshes(); n != 1 {
		t.Errorf("%d refreshes for %d concurrent callers, want 1", n, callers)
	}
	for i := range callers {
		if errs[i] != nil || tokens[i] != tokens[0] {
			t.Errorf("caller %d: token %q, error %v; want the one new token", i, tokens[i], errs[i])
		}
	}
}

func TestWithdrawnGrantSaysSignInAgain(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	f.srv.Set(func(s *authtest.Server) { s.InvalidGrant = true })
	client, err := f.svc.Client(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(2 * time.Hour)

	_, tokenErr := f.svc.sources[acct.Email].Token()
	_, httpErr := client.Get(f.srv.URL + "/api/ping")
	for name, err := range map[string]error{"Token": tokenErr, "HTTP client": httpErr} {
		if !errors.Is(err, ErrSignInAgain) {
			t.Errorf("%s: %v, want ErrSignInAgain", name, err)
			continue
		}
		var r interface{ Retryable() bool }
		if !errors.As(err, &r) || r.Retryable() {
			t.Errorf("%s: error is retryable or has no Retryable method", name)
		}
		var again *SignInAgainError
		if errors.As(err, &again); again.Error() != "Your Google sign-in has expired or was withdrawn. Sign in again to continue." {
			t.Errorf("%s: message %q", name, again.Error())
		}
	}
	if tokenErr.Error() != "Your Google sign-in has expired or was withdrawn. Sign in again to continue." {
		t.Errorf("Token error message %q", tokenErr)
	}
	if len(f.srv.APIAuthorizations()) != 0 {
		t.Error("a request went out without a valid token")
	}
}

func TestTransportRetries401Once(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	client, err := f.svc.Client(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.ExpireAccessTokens() // the server stops taking the token before its expiry
	body := strings.Repeat("chunk of an upload ", 1000)
	resp, err := client.Post(f.srv.URL+"/api/upload", "text/plain", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("status %d, want 200 after one refresh", resp.StatusCode)
	}
	auths, bodies := f.srv.APIAuthorizations(), f.srv.APIBodies()
	if len(auths) != 2 || auths[0] == auths[1] {
		t.Errorf("API saw authorizations %d times (changed: %v), want twice with a new token", len(auths), len(auths) == 2 && auths[0] != auths[1])
	}
	for i, b := range bodies {
		if b != body {
			t.Errorf("attempt %d sent %d bytes, want the whole body again", i, len(b))
		}
	}
	if n := f.srv.Refreshes(); n != 1 {
		t.Errorf("%d refreshes, want 1", n)
	}
}

func TestTransport401Limits(t *testing.T) {
	tests := []struct {
		name         string
		body         func() io.Reader
		wantRequests int
		wantRefresh  int
	}{
		// Still 401 after a refresh: the answer goes back to the caller, no loop.
		{"rewindable body", func() io.Reader { return bytes.NewReader([]byte("abc")) }, 2, 1},
		{"no body", func() io.Reader { return nil }, 2, 1},
		// A spent body cannot be sent again; the caller gets the 401.
		{"body that cannot be rewound", func() io.Reader { return io.MultiReader(strings.NewReader("abc")) }, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			var requests atomic.Int32
			refuser := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				w.WriteHeader(http.StatusUnauthorized)
			}))
			defer refuser.Close()
			f.svc.AllowedHosts = append(f.svc.AllowedHosts, strings.TrimPrefix(refuser.URL, "http://"))
			acct := f.login(t)
			client, err := f.svc.Client(t.Context(), acct.Email, nil)
			if err != nil {
				t.Fatal(err)
			}
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPut, refuser.URL+"/upload", tt.body())
			if err != nil {
				t.Fatal(err)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || int(requests.Load()) != tt.wantRequests || f.srv.Refreshes() != tt.wantRefresh {
				t.Errorf("status %d after %d requests and %d refreshes; want 401 after %d and %d",
					resp.StatusCode, requests.Load(), f.srv.Refreshes(), tt.wantRequests, tt.wantRefresh)
			}
		})
	}
}

func TestTransportRefreshesAfterUnrewindable401(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	client, err := f.svc.Client(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	f.srv.ExpireAccessTokens()
	resp, err := client.Post(f.srv.URL+"/api/a", "text/plain", io.MultiReader(strings.NewReader("x")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("status %d, want the 401 back", resp.StatusCode)
	}
	// The caller's own retry goes out with a new token.
	resp, err = client.Post(f.srv.URL+"/api/a", "text/plain", io.MultiReader(strings.NewReader("x")))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || f.srv.Refreshes() != 1 {
		t.Errorf("retry: status %d after %d refreshes, want 200 after 1", resp.StatusCode, f.srv.Refreshes())
	}
}

func TestTransportNeverSendsTokenElsewhere(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	var mu sync.Mutex
	var seen []string
	foreign := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization"))
		mu.Unlock()
	}))
	defer foreign.Close()
	// An allowed host that sends the client on to the foreign one.
	bouncer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "" {
			t.Error("allowed host got no token")
		}
		http.Redirect(w, r, foreign.URL+"/landing", http.StatusTemporaryRedirect)
	}))
	defer bouncer.Close()
	f.svc.AllowedHosts = append(f.svc.AllowedHosts, strings.TrimPrefix(bouncer.URL, "http://"))
	client, err := f.svc.Client(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{foreign.URL + "/direct", bouncer.URL + "/bounce"} {
		resp, err := client.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 2 {
		t.Fatalf("foreign host got %d requests, want 2", len(seen))
	}
	for i, h := range seen {
		if h != "" {
			t.Errorf("request %d to a foreign host carried Authorization", i)
		}
	}
}

func TestIsGoogleAPI(t *testing.T) {
	tests := []struct {
		url  string
		want bool
	}{
		{"https://www.googleapis.com/upload/gmail/v1/users/me/messages", true},
		{"https://gmail.googleapis.com/gmail/v1/users/me/messages", true},
		{"https://dfareporting.googleapis.com/upload/dfareporting/v4/x", true},
		{"https://googleapis.com/x", true},
		{"https://www.googleapis.com:443/x", true},
		{"https://WWW.GoogleAPIs.com/x", true},
		{"http://www.googleapis.com/x", false},
		{"https://www.googleapis.com:8443/x", false},
		{"https://evilgoogleapis.com/x", false},
		{"https://googleapis.com.evil.example/x", false},
		{"https://www.googleapis.com@evil.example/x", false},
		{"https://user@www.googleapis.com/x", false},
		{"https://accounts.google.com/x", false},
		{"https://storage.example.com/upload?upload_id=x", false},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			u, err := url.Parse(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			if got := IsGoogleAPI(u); got != tt.want {
				t.Errorf("IsGoogleAPI = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestRefreshOutlivesACallerThatGivesUp(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	// The upload is paused while Google is rotating the refresh token.
	f.srv.Set(func(s *authtest.Server) { s.RotateRefresh = true; s.OnRefresh = cancel })
	f.clock.Advance(2 * time.Hour)
	if _, err := ts.TokenContext(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("TokenContext: %v, want context.Canceled", err)
	}
	f.srv.Set(func(s *authtest.Server) { s.OnRefresh = nil })
	// The next caller waits for that refresh and gets its token.
	tok, err := ts.TokenContext(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := f.store.grant(acct.Email)
	if f.srv.Refreshes() != 1 || saved.RefreshToken != f.srv.RefreshToken(acct.Email) || saved.AccessToken != tok.AccessToken {
		t.Errorf("after %d refreshes the rotated grant was not kept", f.srv.Refreshes())
	}
}

func TestRefreshOutOfTimeSaysGoogleUnreachable(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	hang := make(chan struct{})
	t.Cleanup(func() { close(hang) }) // before the server closes
	f.srv.Set(func(s *authtest.Server) { s.OnRefresh = func() { <-hang } })
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts.timeout = 50 * time.Millisecond
	f.clock.Advance(2 * time.Hour)

	// Neither caller gave up or set a deadline: the time that ran out is the refresh's own.
	calls := []struct {
		name string
		call func() error
	}{
		{"Token", func() error { _, err := ts.Token(); return err }},
		{"TokenContext", func() error { _, err := ts.TokenContext(t.Context()); return err }},
	}
	for _, c := range calls {
		err := c.call()
		if !errors.Is(err, ErrGoogleUnreachable) || err.Error() != ErrGoogleUnreachable.Error() {
			t.Errorf("%s: %v, want ErrGoogleUnreachable with its plain sentence", c.name, err)
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v passes for the caller's own deadline or cancellation", c.name, err)
		}
	}
}
