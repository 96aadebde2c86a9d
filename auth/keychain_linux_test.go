package auth

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"hoist/auth/authtest"
)

// childEnv tells a re-executed test binary which child role to play.
const childEnv = "HOIST_AUTH_TEST_CHILD"

// secretServiceAvailable reports an unlocked Secret Service on the session
// bus. It never starts a bus of its own.
func secretServiceAvailable(t *testing.T) bool {
	t.Helper()
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return false
	}
	k := &Keychain{Timeout: 3 * time.Second}
	_, err := k.Get(t.Context(), "hoist-test-probe@example.com")
	return err == nil || errors.Is(err, ErrNotSignedIn)
}

// missing ends a test whose precondition the machine lacks: a failure where
// every precondition is promised (CI is set, or make test started a keyring
// and set HOIST_TEST_KEYRING), else a skip that says what is missing.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" || os.Getenv("HOIST_TEST_KEYRING") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// secretToolSearch lists the keychain items of service Hoist for user, as
// seen by libsecret's own tool; ok is false when the tool is missing.
func secretToolSearch(t *testing.T, user string) (out string, ok bool) {
	t.Helper()
	path, err := exec.LookPath("secret-tool")
	if err != nil {
		return "", false
	}
	b, _ := exec.CommandContext(t.Context(), path, "search", "--all", "service", KeychainService, "username", user).CombinedOutput()
	return string(b), true
}

func TestRealKeychain(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("child process")
	}
	if !secretServiceAvailable(t) {
		missing(t, "no unlocked Secret Service on the session bus; run: scripts/with-keyring.sh go test -race ./auth/...")
	}
	f := newFixture(t)
	suffix := make([]byte, 6)
	_, _ = rand.Read(suffix)
	email := "hoist-test-" + hex.EncodeToString(suffix) + "@example.com"
	f.srv.Set(func(s *authtest.Server) { s.Email = email })
	f.svc.Store = &Keychain{}
	t.Cleanup(func() { _ = (&Keychain{}).Delete(context.Background(), email) })

	acct := f.login(t, ScopeGmailInsert)
	if acct.Email != email || acct.LessSafe {
		t.Fatalf("account = %+v", acct)
	}
	refresh := f.srv.RefreshToken(email)
	stored, err := (&Keychain{}).Get(t.Context(), email)
	if err != nil || stored.RefreshToken != refresh {
		t.Fatalf("keychain entry: refresh token matches = %v, error %v", stored.RefreshToken == refresh, err)
	}
	if out, ok := secretToolSearch(t, email); ok {
		if !strings.Contains(out, "attribute.username = "+email) || !strings.Contains(out, "attribute.service = "+KeychainService) {
			t.Errorf("secret-tool does not find the entry:\n%s", Redact(out))
		}
	} else {
		t.Log("secret-tool is not installed; checked through go-keyring only")
	}
	if files := filesContaining(t, f.svc.ConfigDir, refresh, stored.AccessToken, f.srv.ClientSecret); len(files) > 0 {
		t.Errorf("secrets written to %v", files)
	}

	f.callsTheAPI(t, email, ScopeGmailInsert)

	if err := f.svc.Logout(t.Context(), email); err != nil {
		t.Fatal(err)
	}
	if _, err := (&Keychain{}).Get(t.Context(), email); !errors.Is(err, ErrNotSignedIn) {
		t.Errorf("after Logout: %v, want ErrNotSignedIn", err)
	}
	if out, ok := secretToolSearch(t, email); ok && strings.Contains(out, email) {
		t.Errorf("secret-tool still finds the entry after Logout:\n%s", Redact(out))
	}
}

// TestNoKeychain runs itself again with a session bus address that leads
// nowhere (the bus connection is shared process-wide, so a fresh process is
// the only honest way).
func TestNoKeychain(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "no-keychain":
		noKeychainChild(t)
		return
	case "":
	default:
		t.Skip("child process")
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestNoKeychain$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=no-keychain",
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(t.TempDir(), "no-bus-here"))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoKeychain") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func noKeychainChild(t *testing.T) {
	// A long timeout: ErrNoKeychain must come from the answer, not the timer
	// (which would say ErrKeychainLocked).
	k := &Keychain{Timeout: time.Minute}
	if _, err := k.Get(t.Context(), "ada@example.com"); !errors.Is(err, ErrNoKeychain) || errors.Is(err, ErrKeychainLocked) {
		t.Fatalf("Get: %v, want ErrNoKeychain", err)
	}

	f := newFixture(t)
	f.svc.Store = k
	if _, err := f.svc.Login(t.Context(), nil); !errors.Is(err, ErrNoKeychain) {
		t.Fatalf("Login: %v, want ErrNoKeychain", err)
	}
	if opened := f.browser.Opened(); len(opened) != 0 {
		t.Fatal("the browser was opened although the sign-in had nowhere to go")
	}
	f.svc.AllowFileStore = true
	acct, err := f.svc.Login(t.Context(), nil)
	if err != nil || !acct.LessSafe {
		t.Fatalf("Login with consent to a file: %+v, %v", acct, err)
	}
}

// TestLockedKeychain starts a private bus and keyring, locks the keyring
// and checks that Hoist reports it as locked instead of hanging.
func TestLockedKeychain(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "locked":
		lockedChild(t)
		return
	case "":
	default:
		t.Skip("child process")
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" is not installed (Debian: dbus, gnome-keyring)")
		}
	}
	home := t.TempDir()
	runtimeDir := filepath.Join(home, "run")
	if err := os.Mkdir(runtimeDir, 0o700); err != nil {
		t.Fatal(err)
	}
	script := `echo -n hoist-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && ` +
		`exec "$0" -test.run='^TestLockedKeychain$' -test.v`
	cmd := exec.CommandContext(t.Context(), "dbus-run-session", "--", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=locked", "HOME="+home,
		"XDG_DATA_HOME="+filepath.Join(home, "data"), "XDG_RUNTIME_DIR="+runtimeDir)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestLockedKeychain") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func lockedChild(t *testing.T) {
	k := &Keychain{Timeout: 3 * time.Second}
	const email = "hoist-locked@example.com"
	if err := k.Set(t.Context(), email, sampleGrant()); err != nil {
		t.Fatalf("Set on the unlocked keyring: %v", err)
	}
	conn, err := dbus.SessionBus()
	if err != nil {
		t.Fatal(err)
	}
	var locked []dbus.ObjectPath
	var prompt dbus.ObjectPath
	err = conn.Object("org.freedesktop.secrets", "/org/freedesktop/secrets").
		Call("org.freedesktop.Secret.Service.Lock", 0, []dbus.ObjectPath{"/org/freedesktop/secrets/collection/login"}).
		Store(&locked, &prompt)
	if err != nil || len(locked) != 1 {
		t.Fatalf("locking the keyring: %v (locked %v)", err, locked)
	}
	// The keyring's own refusal, not Hoist's timer: with a bound this long,
	// a Hoist that waits for the timer is seen waiting.
	k.Timeout = time.Minute
	start := time.Now()
	_, err = k.Get(t.Context(), email)
	took := time.Since(start)
	if !errors.Is(err, ErrKeychainLocked) || err.Error() != ErrKeychainLocked.Error() {
		t.Fatalf("Get on the locked keyring: %v, want ErrKeychainLocked", err)
	}
	if errors.Is(err, context.DeadlineExceeded) || took >= k.Timeout {
		t.Fatalf("Get on the locked keyring answered only when its time ran out (%v): %v", took, err)
	}
	t.Logf("the locked keyring answered in %v", took)
}

// The office proxy's sign-in is kept in the real keychain (a Secret Service
// on Linux) as the Google sign-in is.
func TestProxyLoginsInRealKeychain(t *testing.T) {
	if !secretServiceAvailable(t) {
		missing(t, "no unlocked Secret Service on the session bus")
	}
	proxyLoginsRoundTrip(t, ProxyLogins{Timeout: 5 * time.Second})
}
