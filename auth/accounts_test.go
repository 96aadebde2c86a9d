package auth

import (
	"encoding/base64"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"hoist/auth/authtest"
)

func TestAccountsAndLogout(t *testing.T) {
	f := newFixture(t)
	f.login(t, ScopeGmailInsert)
	f.srv.Set(func(s *authtest.Server) { s.Email = "grace@example.org" })
	f.login(t, ScopeAndroidPublisher)

	accounts, err := f.svc.Accounts(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var emails []string
	for _, a := range accounts {
		emails = append(emails, a.Email)
	}
	if !slices.Equal(emails, []string{"ada@example.com", "grace@example.org"}) {
		t.Fatalf("accounts %v, want both, sorted", emails)
	}
	if !slices.Contains(accounts[0].Scopes, ScopeGmailInsert) || !slices.Contains(accounts[1].Scopes, ScopeAndroidPublisher) {
		t.Errorf("scopes not listed: %+v", accounts)
	}

	tests := []struct {
		name        string
		account     string
		failRevoke  bool
		wantErr     error
		wantRevokes int
		wantLeft    []string
	}{
		{"revokes and forgets", "ada@example.com", false, nil, 1, []string{"grace@example.org"}},
		{"unknown account", "nobody@example.com", false, ErrNotSignedIn, 1, []string{"grace@example.org"}},
		{"forgets even when Google cannot be told", "grace@example.org", true, ErrNotRevoked, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.srv.Set(func(s *authtest.Server) { s.FailRevoke = tt.failRevoke })
			refresh := f.srv.RefreshToken(tt.account)
			err := f.svc.Logout(t.Context(), tt.account)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("Logout: %v, want %v", err, tt.wantErr)
			}
			if err != nil && err.Error() != tt.wantErr.Error() {
				t.Errorf("message %q, want the plain %q", err, tt.wantErr)
			}
			if n := f.srv.Revocations(); n != tt.wantRevokes {
				t.Errorf("%d revocations, want %d", n, tt.wantRevokes)
			}
			if _, ok := f.store.grant(tt.account); ok {
				t.Error("grant still stored")
			}
			left, _ := f.svc.Accounts(t.Context())
			var emails []string
			for _, a := range left {
				emails = append(emails, a.Email)
			}
			if !slices.Equal(emails, tt.wantLeft) {
				t.Errorf("accounts left %v, want %v", emails, tt.wantLeft)
			}
			if refresh != "" && !tt.failRevoke && f.srv.RefreshToken(tt.account) != "" {
				t.Error("the server still holds the grant")
			}
		})
	}
}

func TestLogoutEndsLiveClients(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	client, err := f.svc.Client(t.Context(), acct.Email, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Logout(t.Context(), acct.Email); err != nil {
		t.Fatal(err)
	}
	if _, err := client.Get(f.srv.URL + "/api/x"); !errors.Is(err, ErrSignInAgain) {
		t.Errorf("client after sign-out: %v, want ErrSignInAgain", err)
	}
	if _, err := f.svc.Client(t.Context(), acct.Email, nil); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("new client after sign-out: %v, want ErrNotSignedIn", err)
	}
}

func TestImportClientSecret(t *testing.T) {
	srv := authtest.NewServer(t)
	tests := []struct {
		name    string
		content string
		wantErr error
		wantMsg string
	}{
		{"desktop app", string(srv.ClientJSON()), nil, ""},
		{"web application", `{"web":{"client_id":"x.apps.googleusercontent.com","client_secret":"GOCSPX-abc"}}`,
			ErrNotDesktopClient, "This client file is for a web application, not a desktop app."},
		{"service account key", `{"type":"service_account","private_key":"-----BEGIN"}`,
			ErrNotDesktopClient, "This is a service account key, not an OAuth client."},
		{"other JSON", `{"hello":1,"world":2}`, ErrNotClientFile, ErrNotClientFile.Error()},
		{"not JSON", `<html>`, ErrNotClientFile, ErrNotClientFile.Error()},
		{"installed without id", `{"installed":{"client_secret":"x"}}`, ErrNotClientFile, ErrNotClientFile.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			svc := &Service{ConfigDir: filepath.Join(dir, "config")}
			src := filepath.Join(dir, "client_secret_123.json")
			if err := os.WriteFile(src, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			if svc.HasClient() {
				t.Fatal("HasClient before any import")
			}
			err := svc.ImportClientSecret(src)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("import: %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if !strings.HasPrefix(err.Error(), tt.wantMsg) {
					t.Errorf("message %q, want it to start with %q", err, tt.wantMsg)
				}
				if strings.Contains(err.Error(), "GOCSPX") {
					t.Error("the message quotes the client secret")
				}
				return
			}
			info, err := os.Stat(filepath.Join(svc.ConfigDir, clientFileName))
			if err != nil {
				t.Fatal(err)
			}
			if info.Mode().Perm() != 0o600 {
				t.Errorf("imported file mode %v, want 0600", info.Mode().Perm())
			}
			if !svc.HasClient() {
				t.Error("HasClient false after import")
			}
			cfg, err := svc.oauthConfig()
			if err != nil || cfg.ClientID != srv.ClientID || cfg.Endpoint.TokenURL != GoogleEndpoints.TokenURL {
				t.Errorf("config = %+v, %v", cfg, err)
			}
		})
	}
}

func TestBuiltInClient(t *testing.T) {
	srv := authtest.NewServer(t)
	good := srv.ClientJSON()
	files := fstest.MapFS{"embedded/" + clientFileName: {Data: good}}
	web := []byte(`{"web":{"client_id":"w"}}`)
	tests := []struct {
		name     string
		imported []byte
		ldflags  string
		files    fstest.MapFS
		wantErr  error
	}{
		{"imported file first", good, "not base64!", nil, nil},
		{"ldflags variable", nil, base64.StdEncoding.EncodeToString(good), nil, nil},
		{"embedded file", nil, "", files, nil},
		{"nothing", nil, "", fstest.MapFS{"embedded/README.md": {}}, ErrNoClient},
		{"broken ldflags variable", nil, "not base64!", files, ErrNoClient},
		{"web client built in", nil, base64.StdEncoding.EncodeToString(web), nil, ErrNoClient},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := chooseClient(tt.imported, tt.ldflags, tt.files)
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if err == nil && string(b) != string(good) {
				t.Errorf("chose %s", b)
			}
		})
	}
}

func TestNoKeychainMeansNotSignedIn(t *testing.T) {
	f := newFixture(t)
	f.svc.Store = &Keychain{Backend: failingKeyring{err: keyringUnsupported()}}
	if err := f.svc.Logout(t.Context(), "nobody@example.com"); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("Logout of an unknown account without a keychain: %v, want ErrNotSignedIn", err)
	}
	if _, err := f.svc.Client(t.Context(), "nobody@example.com", nil); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("Client without a keychain: %v, want ErrNotSignedIn", err)
	}
}

// TestMessagesStayPlain checks that failures of files and folders read as
// sentences, without the system's wording after a colon,
// while the cause still matches errors.Is.
func TestMessagesStayPlain(t *testing.T) {
	dir := t.TempDir()
	notADir := filepath.Join(dir, "plain-file")
	if err := os.WriteFile(notADir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	svc := &Service{ConfigDir: filepath.Join(dir, "config")}
	listDir := &Service{ConfigDir: t.TempDir()}
	if err := os.Mkdir(filepath.Join(listDir.ConfigDir, accountsFileName), 0o700); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		run  func() error
		is   error
	}{
		{"missing client file", func() error { return svc.ImportClientSecret(filepath.Join(dir, "nope.json")) }, fs.ErrNotExist},
		{"client file is a folder", func() error { return svc.ImportClientSecret(dir) }, nil},
		{"account list unreadable", func() error { _, err := listDir.Accounts(t.Context()); return err }, nil},
		{"sign-in file cannot be written", func() error {
			return (&FileStore{Path: filepath.Join(notADir, tokensFileName)}).Set(t.Context(), "ada@example.com", sampleGrant())
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.run()
			if err == nil {
				t.Fatal("no error")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("%v does not match %v", err, tt.is)
			}
			msg := err.Error()
			if !strings.HasSuffix(msg, ".") || strings.Contains(msg, ": ") {
				t.Errorf("message %q is not a plain sentence", msg)
			}
			for _, word := range []string{"no such file", "is a directory", "not a directory"} {
				if strings.Contains(msg, word) {
					t.Errorf("message %q carries the system's wording %q", msg, word)
				}
			}
		})
	}
}

// An account's client sends through the transport it is given, signed in
// the same, and through the service's own when given none.
func TestClientViaSendsThroughBase(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	own := &authtest.Counting{Base: http.DefaultTransport}
	f.svc.HTTPClient = &http.Client{Transport: own}
	upload := &authtest.Counting{Base: http.DefaultTransport}

	client, err := f.svc.ClientVia(t.Context(), acct.Email, nil, upload)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(f.srv.URL + "/api/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || upload.Requests() != 1 || own.Requests() != 0 {
		t.Errorf("status %d; given transport carried %d requests, the service's %d; want 200, 1, 0",
			resp.StatusCode, upload.Requests(), own.Requests())
	}
	if auths := f.srv.APIAuthorizations(); len(auths) != 1 || auths[0] == "" {
		t.Errorf("the API saw %d requests, want 1 signed in", len(auths))
	}

	client, err = f.svc.ClientVia(t.Context(), acct.Email, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err = client.Get(f.srv.URL + "/api/x"); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if upload.Requests() != 1 || own.Requests() != 1 {
		t.Errorf("without a transport given: given %d, the service's %d requests; want 1, 1", upload.Requests(), own.Requests())
	}
}
