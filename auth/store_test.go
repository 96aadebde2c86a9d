package auth

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// failingKeyring answers every call with err.
type failingKeyring struct{ err error }

func (k failingKeyring) Get(string, string) (string, error) { return "", k.err }
func (k failingKeyring) Set(string, string, string) error   { return k.err }
func (k failingKeyring) Delete(string, string) error        { return k.err }

// blockingKeyring never answers until release is closed, like a keychain
// waiting for an unlock prompt nobody sees.
type blockingKeyring struct{ release chan struct{} }

// newBlockingKeyring blocks until the test ends.
func newBlockingKeyring(t *testing.T) blockingKeyring {
	k := blockingKeyring{release: make(chan struct{})}
	t.Cleanup(func() { close(k.release) })
	return k
}

func (k blockingKeyring) Get(string, string) (string, error) {
	<-k.release
	return "", keyring.ErrNotFound
}
func (k blockingKeyring) Set(string, string, string) error { <-k.release; return nil }
func (k blockingKeyring) Delete(string, string) error      { <-k.release; return nil }

// mapKeyring is an in-memory Keyring.
type mapKeyring map[string]string

func (m mapKeyring) Get(service, user string) (string, error) {
	if v, ok := m[service+"/"+user]; ok {
		return v, nil
	}
	return "", keyring.ErrNotFound
}

func (m mapKeyring) Set(service, user, secret string) error {
	m[service+"/"+user] = secret
	return nil
}

func (m mapKeyring) Delete(service, user string) error {
	if _, ok := m[service+"/"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(m, service+"/"+user)
	return nil
}

func failing(err error) func(*testing.T) Keyring {
	return func(*testing.T) Keyring { return failingKeyring{err} }
}

func keyringUnsupported() error { return keyring.ErrUnsupportedPlatform }

func sampleGrant() Grant {
	return Grant{
		RefreshToken: "1//0gFakeRefreshTokenAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
		AccessToken:  "ya29." + strings.Repeat("a1B2c3D4e5", 22),
		Expiry:       time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC),
		Scopes:       []string{ScopeGmailInsert, ScopeOpenID, ScopeEmail},
		ClientID:     "123456789012-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com",
	}
}

func TestGrantEncoding(t *testing.T) {
	all := []string{ScopeGmailInsert, ScopeGmailSend, ScopeGmailCompose, ScopeDFATrafficking,
		ScopeAndroidPublisher, ScopeOpenID, ScopeEmail, "https://mail.google.com/"}
	tests := []struct {
		name       string
		grant      func() Grant
		maxSize    int
		keepAccess bool
		wantErr    error
	}{
		{"typical grant is small", sampleGrant, 700, true, nil},
		{"every scope and a long access token", func() Grant {
			g := sampleGrant()
			g.Scopes = all
			g.AccessToken = "ya29." + strings.Repeat("x", 1400)
			return g
		}, MaxEntrySize, true, nil},
		{"an access token too long to keep is dropped", func() Grant {
			g := sampleGrant()
			g.Scopes = all
			g.AccessToken = "ya29." + strings.Repeat("x", 2500)
			return g
		}, MaxEntrySize, false, nil},
		{"a refresh token too long is refused", func() Grant {
			g := sampleGrant()
			g.RefreshToken = "1//" + strings.Repeat("y", 2600)
			return g
		}, 0, false, ErrTooBig},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.grant()
			s, err := encodeGrant(g)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("encode error = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s) > tt.maxSize || len(s) >= 2560 {
				t.Errorf("encoded size %d, want at most %d (and under 2560)", len(s), tt.maxSize)
			}
			back, err := decodeGrant(s)
			if err != nil {
				t.Fatal(err)
			}
			if back.RefreshToken != g.RefreshToken || back.ClientID != g.ClientID ||
				strings.Join(back.Scopes, " ") != strings.Join(normalizeScopes(g.Scopes), " ") {
				t.Errorf("round trip changed the grant: %+v", back)
			}
			if kept := back.AccessToken == g.AccessToken && back.Expiry.Equal(g.Expiry); kept != tt.keepAccess {
				t.Errorf("access token kept = %v, want %v", kept, tt.keepAccess)
			}
		})
	}
}

func TestGrantNeverPrintsTokens(t *testing.T) {
	g := sampleGrant()
	for _, s := range []string{g.String(), g.GoString(), g.LogValue().String()} {
		if strings.Contains(s, g.RefreshToken) || strings.Contains(s, g.AccessToken) {
			t.Errorf("grant printed a token: %s", s)
		}
	}
}

func TestKeychainErrors(t *testing.T) {
	tests := []struct {
		name    string
		backend func(t *testing.T) Keyring
		want    error
	}{
		{"not found", failing(keyring.ErrNotFound), ErrNotSignedIn},
		{"unsupported platform", failing(keyring.ErrUnsupportedPlatform), ErrNoKeychain},
		{"no session bus", failing(&net.OpError{Op: "dial", Net: "unix", Err: os.ErrNotExist}), ErrNoKeychain},
		{"unlock refused", failing(errors.New("failed to unlock correct collection '/org/freedesktop/secrets/collection/login'")), ErrKeychainLocked},
		{"too big", failing(keyring.ErrSetDataTooBig), ErrTooBig},
		{"never answers", func(t *testing.T) Keyring { return newBlockingKeyring(t) }, ErrKeychainLocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &Keychain{Backend: tt.backend(t), Timeout: 30 * time.Millisecond}
			_, getErr := k.Get(t.Context(), "ada@example.com")
			setErr := k.Set(t.Context(), "ada@example.com", sampleGrant())
			delErr := k.Delete(t.Context(), "ada@example.com")
			for op, err := range map[string]error{"Get": getErr, "Set": setErr, "Delete": delErr} {
				if tt.want == ErrNotSignedIn && op == "Set" {
					continue // Set has nothing to find
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("%s: error %v, want %v", op, err, tt.want)
				}
				if err != nil && err.Error() != tt.want.Error() {
					t.Errorf("%s: message %q, want the plain %q", op, err, tt.want)
				}
			}
		})
	}
}

func TestKeychainCallStopsWithContext(t *testing.T) {
	k := &Keychain{Backend: newBlockingKeyring(t), Timeout: time.Hour}
	ctx, cancel := context.WithCancel(t.Context())
	go cancel()
	if _, err := k.Get(ctx, "ada@example.com"); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func TestKeychainRoundTrip(t *testing.T) {
	ring := mapKeyring{}
	k := &Keychain{Backend: ring}
	g := sampleGrant()
	if err := k.Set(t.Context(), "ada@example.com", g); err != nil {
		t.Fatal(err)
	}
	secret, ok := ring[KeychainService+"/ada@example.com"]
	if !ok || len(secret) > MaxEntrySize {
		t.Fatalf("entry under service %q missing or too big (%d bytes)", KeychainService, len(secret))
	}
	back, err := k.Get(t.Context(), "ada@example.com")
	if err != nil || back.RefreshToken != g.RefreshToken {
		t.Fatalf("Get = %v, %v", back, err)
	}
	if err := k.Delete(t.Context(), "ada@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Get(t.Context(), "ada@example.com"); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("after Delete: %v, want ErrNotSignedIn", err)
	}
}

func TestKeychainDamagedEntry(t *testing.T) {
	k := &Keychain{Backend: mapKeyring{KeychainService + "/ada@example.com": `{"r":`}}
	if _, err := k.Get(t.Context(), "ada@example.com"); !errors.Is(err, ErrSignInAgain) {
		t.Errorf("damaged entry: %v, want ErrSignInAgain", err)
	}
}

func TestFileStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Hoist")
	fs := &FileStore{Path: filepath.Join(dir, "tokens.json")}
	if !isLessSafe(fs) {
		t.Error("file store does not say it is less safe")
	}
	g := sampleGrant()
	if _, err := fs.Get(t.Context(), "ada@example.com"); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("empty store: %v", err)
	}
	for _, account := range []string{"ada@example.com", "grace@example.org"} {
		if err := fs.Set(t.Context(), account, g); err != nil {
			t.Fatal(err)
		}
	}
	for path, want := range map[string]os.FileMode{fs.Path: 0o600, dir: 0o700} {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s mode %v, want %v", path, info.Mode().Perm(), want)
		}
	}
	if back, err := fs.Get(t.Context(), "grace@example.org"); err != nil || back.RefreshToken != g.RefreshToken {
		t.Errorf("Get = %v, %v", back, err)
	}
	for _, account := range []string{"ada@example.com", "grace@example.org"} {
		if err := fs.Delete(t.Context(), account); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(fs.Path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("token file left behind after the last account: %v", err)
	}
}
