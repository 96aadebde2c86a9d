package cli

import (
	"context"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/dirs"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/internal/sessionbus"
	"hoist/internal/testproxy"
)

// storageOnlyThroughProxy is a host name only the office proxy of these
// tests resolves (to the emulator): an upload that reaches it went through
// the proxy.
const storageOnlyThroughProxy = "storage.test.invalid"

// noProxyVariables clears the environment's proxy, which would win, and
// points the keychain (where proxies' logins are looked for) at no bus, as
// Hoist's start does without one, so that none is started.
func noProxyVariables(t *testing.T) {
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "NO_PROXY", "no_proxy"} {
		t.Setenv(k, "")
	}
	t.Setenv(sessionbus.Variable, sessionbus.None)
}

// organisationProxy sets the office proxy for everyone, in the
// organisation's folder.
func organisationProxy(t *testing.T, body string) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "proxy.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(dirs.SystemEnv, dir)
}

// TestSendThroughOrganisationProxy: with the proxy set in the
// organisation's folder, hoist send goes through it; a proxy that asks for
// a sign-in is named, with where its setting came from, asked once, and
// never called a refusal of the upload to be resumed.
func TestSendThroughOrganisationProxy(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(l.url, "http://"))
	to := []string{"--to", "http://" + storageOnlyThroughProxy + ":" + port + dest.SandboxPath, "--no-auth", "--method", "multipart"}
	data := make([]byte, 300<<10)
	_, _ = rand.Read(data)
	file := l.file("report.bin", data)

	guarded := testproxy.Start(t, testproxy.WithLogin("ali", "s3cret"), testproxy.WithHost(storageOnlyThroughProxy, strings.TrimPrefix(l.url, "http://")))
	organisationProxy(t, `{"proxy": "`+guarded.Addr+`"}`)
	code, stdout, stderr := l.send(append(to, file)...)
	stderr += stdout
	if code == exitOK {
		t.Fatal("sent through a proxy that asks for a sign-in, without one")
	}
	for _, want := range []string{"office proxy " + guarded.Addr, "from your organisation's settings for Hoist", "sign-in"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	for _, never := range []string{"407", "refused the upload", "Sign in with Google"} {
		if strings.Contains(stderr, never) {
			t.Errorf("stderr says %q:\n%s", never, stderr)
		}
	}
	if n := guarded.Refused(); n != 1 {
		t.Errorf("the proxy was asked %d times, want once (no retries against a proxy that refuses)", n)
	}

	open := testproxy.Start(t, testproxy.WithHost(storageOnlyThroughProxy, strings.TrimPrefix(l.url, "http://")))
	organisationProxy(t, `{"proxy": "`+open.Addr+`"}`)
	code, stdout, stderr = l.send(append(to, "--resume", file)...)
	if code != exitOK {
		t.Fatalf("through the proxy: exit %d: %s%s", code, stdout, stderr)
	}
	if open.Requests() == 0 {
		t.Error("the upload did not go through the proxy")
	}
	if _, ok := l.objectsBySHA()[fileSHA(t, file)]; !ok {
		t.Error("the file did not arrive")
	}
}

// TestSendWithUnreachableProxyNamesIt: a proxy where nothing answers is
// named, with where its setting came from.
func TestSendWithUnreachableProxyNamesIt(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	organisationProxy(t, `{"proxy": "`+dead+`"}`)
	file := l.file("a.txt", []byte("hello"))
	code, stdout, stderr := l.send("--to", "http://"+storageOnlyThroughProxy+dest.SandboxPath, "--no-auth", "--max-wait", "1s", file)
	stderr += stdout
	if code == exitOK {
		t.Fatal("sent with no proxy answering")
	}
	if want := "Hoist could not reach the office proxy " + dead + " (from your organisation's settings for Hoist)"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
}

// tlsSandbox runs `hoist sandbox --tls` until the test ends: its address
// and the file of its authority.
func tlsSandbox(t *testing.T) (base, ca string) {
	t.Helper()
	ca = filepath.Join(t.TempDir(), "ca.pem")
	ctx, stop := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Sandbox(ctx, []string{"--tls", "--addr", "127.0.0.1:0", "--store", "memory", "--ca-out", ca}, pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		stop()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the sandbox did not stop")
		}
	})
	line := make([]byte, 256)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatalf("the sandbox printed no address: %v", err)
	}
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	return strings.TrimSpace(string(line[:n])), ca
}

// TestCertificateOfUnknownAuthorityNamesIssuer: a server whose certificate
// no trusted authority vouches for (as behind an office proxy that inspects
// secure connections) is said with the issuer seen and the organisation's
// certificate as the likely want, never in x509's words; a file of
// certificates the organisation's folder names is trusted besides the
// system's.
func TestCertificateOfUnknownAuthorityNamesIssuer(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	t.Setenv(engine.CAFileEnv, "")
	base, ca := tlsSandbox(t)
	file := l.file("a.txt", []byte("hello"))
	to := []string{"--to", base + dest.SandboxPath, "--no-auth", "--method", "multipart"}

	t.Setenv(dirs.SystemEnv, t.TempDir())
	code, stdout, stderr := l.send(append(to, file)...)
	if code == exitOK {
		t.Fatal("trusted the sandbox's certificate without being told to")
	}
	out := stdout + stderr
	for _, want := range []string{"issued by Hoist sandbox authority", "organisation's certificate"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, never := range []string{"x509", "unknown authority"} {
		if strings.Contains(out, never) {
			t.Errorf("output says %q:\n%s", never, out)
		}
	}

	pem, err := os.ReadFile(ca)
	if err != nil {
		t.Fatal(err)
	}
	organisationProxy(t, `{"certificates": "corp-root.pem"}`)
	if err := os.WriteFile(filepath.Join(os.Getenv(dirs.SystemEnv), "corp-root.pem"), pem, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr = l.send(append(to, "--resume", file)...); code != exitOK {
		t.Fatalf("with the organisation's certificate: exit %d: %s%s", code, stdout, stderr)
	}
}

// gnomeProxy sets GNOME's proxy settings as the desktop's Settings would:
// gsettings in a private session bus, dconf keeping them under the test's
// XDG_CONFIG_HOME.
func gnomeProxy(t *testing.T, commands ...string) {
	t.Helper()
	for _, tool := range []string{"gsettings", "dbus-run-session"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (make deps): %v", tool, err)
		}
	}
	t.Setenv("GSETTINGS_BACKEND", "dconf")
	script := "gsettings " + strings.Join(commands, " && gsettings ")
	cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script)
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// pacServer serves a PAC script on loopback that sends the test's host
// name through proxyAddr, and everything else direct.
func pacServer(t *testing.T, proxyAddr string) string {
	script := `function FindProxyForURL(url, host) {
		if (dnsDomainIs(host, ".test.invalid")) return "PROXY ` + proxyAddr + `; DIRECT";
		if (isPlainHostName(host) || shExpMatch(host, "*.corp")) return "DIRECT";
		return "DIRECT";
	}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-ns-proxy-autoconfig")
		_, _ = io.WriteString(w, script)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/proxy.pac"
}

// TestSendThroughGNOMEProxy: with the proxy set in GNOME's settings,
// manual and then by a PAC script, hoist send goes through it.
func TestSendThroughGNOMEProxy(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	t.Setenv(dirs.SystemEnv, t.TempDir())
	emu := strings.TrimPrefix(l.url, "http://")
	_, port, _ := net.SplitHostPort(emu)
	px := testproxy.Start(t, testproxy.WithHost(storageOnlyThroughProxy, emu))
	host, pport, _ := net.SplitHostPort(px.Addr)
	to := []string{"--to", "http://" + storageOnlyThroughProxy + ":" + port + dest.SandboxPath, "--no-auth"}

	gnomeProxy(t, "set org.gnome.system.proxy mode manual", "set org.gnome.system.proxy.http host "+host, "set org.gnome.system.proxy.http port "+pport)
	if code, stdout, stderr := l.send(append(to, l.file("manual.txt", []byte("manual")))...); code != exitOK || px.Requests() == 0 {
		t.Fatalf("GNOME's manual proxy: exit %d, %d requests through it: %s%s", code, px.Requests(), stdout, stderr)
	}
	before := px.Requests()
	gnomeProxy(t, "set org.gnome.system.proxy mode auto", "set org.gnome.system.proxy autoconfig-url "+pacServer(t, px.Addr))
	if code, stdout, stderr := l.send(append(to, l.file("pac.txt", []byte("by the script")))...); code != exitOK || px.Requests() == before {
		t.Fatalf("GNOME's PAC script: exit %d, %d requests through it: %s%s", code, px.Requests()-before, stdout, stderr)
	}
}

// TestSendPACThatCannotBeFetched: a PAC script that cannot be fetched is
// said once, naming it and where it was set, and Hoist goes direct.
func TestSendPACThatCannotBeFetched(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pac := "http://" + ln.Addr().String() + "/proxy.pac"
	ln.Close()
	organisationProxy(t, `{"pac": "`+pac+`"}`)
	a, b := l.file("a.txt", []byte("a")), l.file("b.txt", []byte("b"))
	code, stdout, stderr := l.send("--to", "http://"+storageOnlyThroughProxy+dest.SandboxPath, "--no-auth", "--max-wait", "1s", a, b)
	if code == exitOK {
		t.Fatal("reached a name only the proxy knows, without the proxy")
	}
	want := "Hoist could not use the proxy script " + pac + " (from your organisation's settings for Hoist), so it connects directly."
	if n := strings.Count(stdout+stderr, want); n != 1 {
		t.Errorf("said %d times, want once: %q\n%s%s", n, want, stdout, stderr)
	}
}

// TestSignInGoesThroughProxy: the sign-in's own requests (the token
// exchange and its refreshes) go through the office proxy too.
func TestSignInGoesThroughProxy(t *testing.T) {
	noProxyVariables(t)
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"access_token": "ya29.x", "token_type": "Bearer", "expires_in": 3600}`)
	}))
	defer tokens.Close()
	_, port, _ := net.SplitHostPort(tokens.Listener.Addr().String())
	px := testproxy.Start(t, testproxy.WithHost("oauth2.test.invalid", tokens.Listener.Addr().String()))
	organisationProxy(t, `{"proxy": "`+px.Addr+`"}`)
	svc := NewAuthService(io.Discard)
	resp, err := svc.HTTPClient.Post("http://oauth2.test.invalid:"+port+"/token", "application/x-www-form-urlencoded", strings.NewReader("grant_type=refresh_token"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || px.Requests() != 1 {
		t.Errorf("%s, %d requests through the proxy; want 200 OK through it", resp.Status, px.Requests())
	}
}

// TestSandboxNeverThroughProxy: the sandbox on this computer is reached
// directly whatever proxy is set, even one where nothing answers.
func TestSandboxNeverThroughProxy(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	noProxyVariables(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	organisationProxy(t, `{"proxy": "`+dead+`"}`)
	t.Setenv("HTTPS_PROXY", "http://"+dead)
	t.Setenv("HTTP_PROXY", "http://"+dead)
	for _, base := range []string{l.url, strings.Replace(l.url, "127.0.0.1", "localhost", 1)} {
		if code, stdout, stderr := l.send("--to", base+dest.SandboxPath, "--no-auth", l.file("a.txt", []byte(base))); code != exitOK {
			t.Errorf("%s: exit %d: %s%s", base, code, stdout, stderr)
		}
	}
}
