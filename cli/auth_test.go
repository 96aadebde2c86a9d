package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"hoist/auth/authtest"
	"hoist/dirs"
)

// addressWatcher is a stdout that hands over the first sign-in address printed.
type addressWatcher struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	address chan string
	sent    bool
}

var signInAddress = regexp.MustCompile(`http://\S+/authorize\?\S+`)

func newAddressWatcher() *addressWatcher { return &addressWatcher{address: make(chan string, 1)} }

func (w *addressWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if u := signInAddress.FindString(w.buf.String()); u != "" && !w.sent {
		w.sent = true
		w.address <- u
	}
	return len(p), nil
}

func (w *addressWatcher) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// authCLI is a fake OAuth server and a private config folder for the commands.
type authCLI struct {
	srv        *authtest.Server
	config     string // Hoist's config folder
	clientFile string // a downloaded client_secret file
}

func newAuthCLI(t *testing.T) *authCLI {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	// Grants go to a file (--store-in-file); no keychain is ever reached.
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(home, "no-bus"))
	c := &authCLI{srv: authtest.NewServer(t), clientFile: filepath.Join(home, "client_secret_123-fake.json")}
	if err := os.WriteFile(c.clientFile, c.srv.ClientJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	dir, err := dirs.Config()
	if err != nil {
		t.Fatal(err)
	}
	c.config = dir
	return c
}

// run runs a command; when it prints a sign-in address, a browser visits it.
func (c *authCLI) run(t *testing.T, cmd func(context.Context, []string, io.Writer, io.Writer) int, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	out := newAddressWatcher()
	var errOut bytes.Buffer
	done := make(chan int, 1)
	go func() { done <- cmd(t.Context(), args, out, &errOut) }()
	browser := &authtest.Browser{}
	select {
	case u := <-out.address:
		browser.Open(u)
		code = <-done
	case code = <-done:
	}
	browser.Wait()
	return code, out.String(), errOut.String()
}

func TestAuthCommandsEndToEnd(t *testing.T) {
	c := newAuthCLI(t)
	fake := []string{"--endpoint", c.srv.URL}

	code, out, errOut := c.run(t, Login, append(fake, "--client-secret", c.clientFile, "--no-browser",
		"--store-in-file", "--scopes", "gmail.insert")...)
	if code != 0 {
		t.Fatalf("login exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{"Imported the Google client", "Signed in as ada@example.com (gmail.insert, openid, userinfo.email).", "less safe"} {
		if !strings.Contains(out, want) {
			t.Errorf("login output lacks %q:\n%s", want, out)
		}
	}
	info, err := os.Stat(filepath.Join(c.config, "client_secret.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("imported client file: %v, %v; want mode 0600", info, err)
	}

	c.srv.Set(func(s *authtest.Server) { s.Email = "grace@example.org" })
	if code, out, errOut := c.run(t, Login, append(fake, "--no-browser", "--store-in-file", "--scopes", "androidpublisher")...); code != 0 {
		t.Fatalf("second login exit %d: %s%s", code, out, errOut)
	}

	code, out, _ = c.run(t, Accounts)
	want := "ada@example.com \u2014 stored in a file (less safe)\n    scopes: gmail.insert, openid, userinfo.email\n" +
		"grace@example.org \u2014 stored in a file (less safe)\n    scopes: androidpublisher, openid, userinfo.email\n"
	if code != 0 || out != want {
		t.Errorf("accounts exit %d, output:\n%s\nwant:\n%s", code, out, want)
	}
	secrets := []string{c.srv.RefreshToken("ada@example.com"), c.srv.RefreshToken("grace@example.org")}

	// Sending to Google with two accounts signed in and none chosen stops
	// before any file, naming both.
	eml := filepath.Join(t.TempDir(), "a.eml")
	if err := os.WriteFile(eml, []byte("From: a@example.com\r\nSubject: hi\r\n\r\nhello\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = c.run(t, Send, "--to", "gmail-insert", "--journal", filepath.Join(t.TempDir(), "list.db"), eml)
	if code != exitUsage || !strings.Contains(errOut, "Several Google accounts are signed in (ada@example.com, grace@example.org). Choose one with --account.") {
		t.Errorf("send with two accounts and none chosen: exit %d, %q", code, errOut)
	}

	code, _, errOut = c.run(t, Logout, fake...)
	if code != 2 || !strings.Contains(errOut, "ada@example.com, grace@example.org") {
		t.Errorf("logout without naming one of two: exit %d, %q", code, errOut)
	}
	code, out, errOut = c.run(t, Logout, append(fake, "ada@example.com")...)
	if code != 0 || out != "Signed out ada@example.com.\n" || c.srv.Revocations() != 1 {
		t.Errorf("logout ada: exit %d, %q %q, %d revocations", code, out, errOut, c.srv.Revocations())
	}
	code, out, _ = c.run(t, Logout, fake...)
	if code != 0 || out != "Signed out grace@example.org.\n" {
		t.Errorf("logout of the only account left: exit %d, %q", code, out)
	}
	code, out, _ = c.run(t, Accounts)
	if code != 0 || !strings.Contains(out, "No Google account is signed in.") {
		t.Errorf("accounts after logout: exit %d, %q", code, out)
	}

	err = filepath.WalkDir(c.config, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("%s still holds a refresh token", path)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestAuthCommandsUsage(t *testing.T) {
	tests := []struct {
		name     string
		cmd      func(context.Context, []string, io.Writer, io.Writer) int
		args     []string
		wantCode int
		want     string // in stderr
		notWant  string
	}{
		{"login with a stray argument", Login, []string{"now"}, 2, `unexpected "now"`, ""},
		{"login with an unknown flag", Login, []string{"--colour"}, 2, "-colour", ""},
		{"login help hides test flags", Login, []string{"--help"}, 0, "--client-secret", "endpoint"},
		{"login waiting no time", Login, []string{"--timeout", "0s"}, 2, "--timeout must be longer than zero", ""},
		{"logout of two accounts at once", Logout, []string{"a@example.com", "b@example.com"}, 2, "one account at a time", ""},
		{"accounts with an argument", Accounts, []string{"all"}, 2, `unexpected "all"`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newAuthCLI(t)
			code, _, errOut := c.run(t, tt.cmd, tt.args...)
			if code != tt.wantCode || !strings.Contains(errOut, tt.want) || (tt.notWant != "" && strings.Contains(errOut, tt.notWant)) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d with %q", code, errOut, tt.wantCode, tt.want)
			}
		})
	}
}

func TestAuthCommandFailures(t *testing.T) {
	tests := []struct {
		name    string
		prepare func(c *authCLI) []string // returns the login arguments
		cmd     func(context.Context, []string, io.Writer, io.Writer) int
		want    string
	}{
		{"no client yet", func(c *authCLI) []string { return []string{"--no-browser"} }, Login,
			"Hoist is not set up for Google sign-in yet."},
		{"web client file", func(c *authCLI) []string {
			web := filepath.Join(filepath.Dir(c.clientFile), "client_secret_web.json")
			_ = os.WriteFile(web, []byte(`{"web":{"client_id":"x","client_secret":"GOCSPX-web"}}`), 0o600)
			return []string{"--client-secret", web}
		}, Login, "This client file is for a web application, not a desktop app."},
		{"missing client file", func(c *authCLI) []string {
			return []string{"--client-secret", filepath.Join(c.config, "nope.json")}
		}, Login, "There is no file "},
		{"user declines", func(c *authCLI) []string {
			c.srv.Set(func(s *authtest.Server) { s.DenyWith = "access_denied" })
			return []string{"--endpoint", c.srv.URL, "--client-secret", c.clientFile, "--no-browser", "--store-in-file"}
		}, Login, "You chose not to give Hoist access. Nothing was changed."},
		{"logout of an unknown account", func(c *authCLI) []string { return []string{"nobody@example.com"} }, Logout,
			"This Google account is not signed in to Hoist."},
		{"logout with nobody signed in", func(c *authCLI) []string { return nil }, Logout,
			"No Google account is signed in."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newAuthCLI(t)
			code, out, errOut := c.run(t, tt.cmd, tt.prepare(c)...)
			if code != 1 || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 with %q", code, out, errOut, tt.want)
			}
			if strings.Contains(errOut, "GOCSPX") || strings.Contains(out, "GOCSPX") {
				t.Error("a client secret was printed")
			}
		})
	}
}

// TestLoginCommandGivesUpWaiting: nobody opens the printed address, and the
// sign-in stops after --timeout with a plain sentence.
func TestLoginCommandGivesUpWaiting(t *testing.T) {
	c := newAuthCLI(t)
	var out, errOut bytes.Buffer
	code := Login(t.Context(), []string{"--endpoint", c.srv.URL, "--client-secret", c.clientFile,
		"--no-browser", "--store-in-file", "--timeout", "100ms"}, &out, &errOut)
	want := "Hoist stopped waiting for the sign-in in the browser because it took too long."
	if code != 1 || !strings.Contains(errOut.String(), want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 with %q", code, out.String(), errOut.String(), want)
	}
}

// TestLoginCommandWithoutKeychain runs in a fresh process, since the
// session bus connection is shared by the whole process.
func TestLoginCommandWithoutKeychain(t *testing.T) {
	const childEnv = "HOIST_CLI_AUTH_CHILD"
	if os.Getenv(childEnv) == "" {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestLoginCommandWithoutKeychain$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestLoginCommandWithoutKeychain") {
			t.Fatalf("child: %v\n%s", err, out)
		}
		return
	}
	c := newAuthCLI(t) // points the session bus nowhere
	code, out, errOut := c.run(t, Login, "--endpoint", c.srv.URL, "--client-secret", c.clientFile, "--no-browser")
	if code != 1 || !strings.Contains(errOut, "no keychain") || !strings.Contains(errOut, "hoist login --store-in-file") {
		t.Errorf("exit %d, stderr %q; want exit 1 offering --store-in-file", code, errOut)
	}
	if strings.Contains(out, "/authorize?") {
		t.Error("the sign-in address was shown although the sign-in had nowhere to be kept")
	}
}
