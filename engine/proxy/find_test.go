package proxy

import (
	"context"
	"encoding/binary"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// noDesktop is a Finder that sees no desktop settings.
func noDesktop(t *testing.T) Finder {
	return Finder{
		Getenv:    env(nil),
		KDEConfig: t.TempDir(),
		GNOME:     func(context.Context) (string, error) { return "", errors.New("no gsettings") },
	}
}

func route(t *testing.T, s Setting, address string) string {
	t.Helper()
	u, err := url.Parse(address)
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.manual(u)
	if err != nil {
		return "error"
	}
	if p == nil {
		return "direct"
	}
	return p.String()
}

func TestBypassAsBrowsersRead(t *testing.T) {
	list := []string{"*.corp.example", ".intra", "exact.example", "10.0.0.0/8", "<local>", "[::1]", "host.example:8443"}
	cases := map[string]bool{
		"a.corp.example": true, "corp.example": true, "x.y.intra": true, "intra": true, "exact.example": true,
		"sub.exact.example": false, "10.2.3.4": true, "11.0.0.1": false, "printer": true, "::1": true,
		"host.example": true, "www.google.com": false, "storage.googleapis.com": false,
	}
	for host, want := range cases {
		if got := bypassed(list, host); got != want {
			t.Errorf("bypassed(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestEnvironmentWinsWhenSet(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, OrganisationFile), []byte(`{"proxy": "org.corp:3128"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	f := noDesktop(t)
	f.SystemDir = dir
	f.Getenv = env(map[string]string{"HTTPS_PROXY": "http://env.corp:8080", "NO_PROXY": "skip.example"})
	s, err := f.Find(context.Background())
	if err != nil || s.Origin != FromEnvironment {
		t.Fatalf("Find = %v, %v; want the environment's", s, err)
	}
	if got := route(t, s, "https://www.googleapis.com/upload"); got != "http://env.corp:8080" {
		t.Errorf("https through %s", got)
	}
	if got := route(t, s, "https://skip.example/"); got != "direct" {
		t.Errorf("NO_PROXY host through %s", got)
	}
	f.Getenv = env(nil)
	if s, _ = f.Find(context.Background()); s.Origin != FromOrganisation || s.Name() != "org.corp:3128" {
		t.Errorf("without the variables: %v, want the organisation's", s)
	}
}

func TestOrganisationFolderSetsProxy(t *testing.T) {
	cases := []struct {
		file, want, mode string
	}{
		{`{"proxy": "proxy.corp:8080", "bypass": ["*.corp"]}`, "proxy.corp:8080", "manual"},
		{`{"pac": "http://wpad.corp/proxy.pac"}`, "http://wpad.corp/proxy.pac", "script"},
		{`{"direct": true}`, "", "direct"},
		{`{}`, "", "none"},
		{`{"proxy": "http://"}`, "", "error"},
		{`not json`, "", "error"},
	}
	for _, c := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, OrganisationFile), []byte(c.file), 0o644); err != nil {
			t.Fatal(err)
		}
		f := noDesktop(t)
		f.SystemDir = dir
		s, err := f.Find(context.Background())
		mode := map[Mode]string{Direct: "direct", Manual: "manual", Script: "script"}[s.Mode]
		switch {
		case err != nil:
			mode = "error"
			var bad *BadSettingError
			if !errors.As(err, &bad) || bad.Origin != FromOrganisation {
				t.Errorf("%s: error %v is not the organisation's bad setting", c.file, err)
			}
		case s.Origin == FromNowhere:
			mode = "none"
		case s.Origin != FromOrganisation:
			t.Errorf("%s: origin %q", c.file, s.Origin)
		}
		if mode != c.mode || s.Name() != c.want && mode != "error" {
			t.Errorf("%s: %s %q, want %s %q", c.file, mode, s.Name(), c.mode, c.want)
		}
	}
}

func TestKDESettings(t *testing.T) {
	cases := []struct{ rc, want string }{
		{"[Proxy Settings]\nProxyType=1\nhttpProxy=http://proxy.corp 8080\nhttpsProxy=http://proxy.corp 8443\nNoProxyFor=.corp,localhost\n", "https=http://proxy.corp:8443 corp=direct"},
		{"[Proxy Settings]\nProxyType=2\nProxy Config Script=http://wpad.corp/p.pac\n", "script http://wpad.corp/p.pac"},
		{"[Proxy Settings]\nProxyType=3\n", "script detected"},
		{"[Proxy Settings]\nProxyType=0\nhttpProxy=http://proxy.corp 8080\n", "none"},
		{"[Other]\nProxyType=1\n", "none"},
	}
	for _, c := range cases {
		f := noDesktop(t)
		if err := os.WriteFile(filepath.Join(f.KDEConfig, "kioslaverc"), []byte(c.rc), 0o644); err != nil {
			t.Fatal(err)
		}
		s, _ := f.Find(context.Background())
		var got string
		switch {
		case s.Origin == FromNowhere:
			got = "none"
		case s.Mode == Script && s.Detect && s.PAC == "":
			got = "script detected"
		case s.Mode == Script:
			got = "script " + s.PAC
		default:
			got = "https=" + route(t, s, "https://www.googleapis.com/") + " corp=" + route(t, s, "https://x.corp/")
		}
		if got != c.want || (s.Origin != FromNowhere && s.Origin != FromKDE) {
			t.Errorf("%q: %s (%s), want %s", c.rc, got, s.Origin, c.want)
		}
	}
}

// fakeRegistry is Windows' registry as a map: key\name → value.
// TestKDEFirstOnKDE: on a KDE desktop its own settings win over GNOME's
// (which may linger); elsewhere GNOME's come first.
func TestKDEFirstOnKDE(t *testing.T) {
	f := noDesktop(t)
	f.GNOME = func(context.Context) (string, error) {
		return "org.gnome.system.proxy mode 'manual'\norg.gnome.system.proxy.https host 'gnome.corp'\norg.gnome.system.proxy.https port 1\n", nil
	}
	if err := os.WriteFile(filepath.Join(f.KDEConfig, "kioslaverc"), []byte("[Proxy Settings]\nProxyType=1\nhttpsProxy=http://kde.corp 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for desktop, want := range map[string]Origin{"KDE": FromKDE, "GNOME": FromGNOME, "": FromGNOME} {
		f.Getenv = env(map[string]string{"XDG_CURRENT_DESKTOP": desktop})
		if s, _ := f.Find(context.Background()); s.Origin != want {
			t.Errorf("on %q: %s, want %s", desktop, s.Origin, want)
		}
	}
}

type fakeRegistry map[string]any

func (r fakeRegistry) String(key, name string) (string, bool) {
	v, ok := r[key+`\`+name].(string)
	return v, ok
}

func (r fakeRegistry) Integer(key, name string) (uint64, bool) {
	v, ok := r[key+`\`+name].(int)
	return uint64(v), ok
}

func (r fakeRegistry) Binary(key, name string) ([]byte, bool) {
	v, ok := r[key+`\`+name].([]byte)
	return v, ok
}

// blob is a connection's settings as Windows writes them.
func blob(flags uint32, parts ...string) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 0x46)
	b = binary.LittleEndian.AppendUint32(b, 7)
	b = binary.LittleEndian.AppendUint32(b, flags)
	for _, p := range parts {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(p)))
		b = append(b, p...)
	}
	return b
}

func TestWindowsSettings(t *testing.T) {
	user, policy := `HKCU\`+internetSettings, `HKCU\`+policySettings
	cases := []struct {
		name   string
		reg    fakeRegistry
		origin Origin
		want   string // https route, route of a plain name, or the PAC
	}{
		{"fixed proxy with <local>", fakeRegistry{user + `\ProxyEnable`: 1, user + `\ProxyServer`: "proxy.corp:8080", user + `\ProxyOverride`: "*.corp;<local>"},
			FromWindows, "http://proxy.corp:8080 intranet=direct"},
		{"per scheme", fakeRegistry{user + `\ProxyEnable`: 1, user + `\ProxyServer`: "http=h.corp:80;https=s.corp:3128;socks=k.corp:1080"},
			FromWindows, "http://s.corp:3128 intranet=http://h.corp:80"},
		{"turned off", fakeRegistry{user + `\ProxyEnable`: 0, user + `\ProxyServer`: "proxy.corp:8080"}, FromNowhere, "direct intranet=direct"},
		{"PAC address", fakeRegistry{user + `\AutoConfigURL`: "http://wpad.corp/proxy.pac", user + `\ProxyEnable`: 1, user + `\ProxyServer`: "x:1"},
			FromWindows, "pac http://wpad.corp/proxy.pac"},
		{"policy wins", fakeRegistry{policy + `\ProxyEnable`: 1, policy + `\ProxyServer`: "gpo.corp:8080", user + `\ProxyEnable`: 1, user + `\ProxyServer`: "mine:1"},
			FromWindowsPolicy, "http://gpo.corp:8080 intranet=http://gpo.corp:8080"},
		{"automatic detection", fakeRegistry{connections + `\DefaultConnectionSettings`: blob(0x9, "", "", "")}, FromWindows, "pac detected"},
		{"WinHTTP", fakeRegistry{winHTTPSettings + `\WinHttpSettings`: blob(0x3, "machine.corp:8080", "<local>")}, FromWinHTTP, "http://machine.corp:8080 intranet=direct"},
		{"WinHTTP direct", fakeRegistry{winHTTPSettings + `\WinHttpSettings`: blob(0x1)}, FromNowhere, "direct intranet=direct"},
		{"short blob", fakeRegistry{winHTTPSettings + `\WinHttpSettings`: []byte{1, 2}}, FromNowhere, "direct intranet=direct"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := noDesktop(t)
			f.Windows = c.reg
			s, err := f.Find(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			got := "pac " + s.PAC
			if s.Detect && s.PAC == "" {
				got = "pac detected"
			}
			if s.Mode != Script {
				got = route(t, s, "https://storage.googleapis.com/") + " intranet=" + route(t, s, "http://intranet/")
			}
			if got != c.want || s.Origin != c.origin {
				t.Errorf("%s (%s), want %s (%s)", got, s.Origin, c.want, c.origin)
			}
		})
	}
}

func TestGNOMESettingsAsPrinted(t *testing.T) {
	manual := `org.gnome.system.proxy autoconfig-url ''
org.gnome.system.proxy ignore-hosts ['localhost', '127.0.0.0/8', '::1', '*.corp']
org.gnome.system.proxy mode 'manual'
org.gnome.system.proxy.http host 'web.corp'
org.gnome.system.proxy.http port 3128
org.gnome.system.proxy.http use-authentication true
org.gnome.system.proxy.http authentication-user 'ali'
org.gnome.system.proxy.http authentication-password 'it''s'
org.gnome.system.proxy.https host 'proxy.corp'
org.gnome.system.proxy.https port 8080
org.gnome.system.proxy.socks host ''
org.gnome.system.proxy.socks port 0
`
	s, ok := fromGsettings(manual)
	if !ok || s.Origin != FromGNOME {
		t.Fatalf("manual: %v %v", s, ok)
	}
	if got := route(t, s, "https://www.googleapis.com/") + " " + route(t, s, "http://x.corp/") + " " + route(t, s, "http://example.com/"); got != "http://proxy.corp:8080 direct http://web.corp:3128" {
		t.Errorf("routes %s", got)
	}
	if s.User != "ali" {
		t.Errorf("user %q", s.User)
	}
	if s, ok = fromGsettings("org.gnome.system.proxy mode 'auto'\norg.gnome.system.proxy autoconfig-url 'http://pac.corp/x.pac'\n"); !ok || s.PAC != "http://pac.corp/x.pac" {
		t.Errorf("auto: %v", s)
	}
	// "Automatic" with no address is automatic detection, as browsers read it.
	if s, ok = fromGsettings("org.gnome.system.proxy mode 'auto'\norg.gnome.system.proxy autoconfig-url ''\n"); !ok || !s.Detect || s.PAC != "" || s.Mode != Script {
		t.Errorf("auto without an address: %+v", s)
	}
	if _, ok = fromGsettings("org.gnome.system.proxy mode 'none'\n"); ok {
		t.Error("none read as a setting")
	}
}

// TestGNOMESettingsFromGsettings sets GNOME's proxy with gsettings in a
// private session bus (dconf keeps them under XDG_CONFIG_HOME) and finds
// them as Hoist does on the desktop.
func TestGNOMESettingsFromGsettings(t *testing.T) {
	for _, tool := range []string{"gsettings", "dbus-run-session"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is needed (make deps): %v", tool, err)
		}
	}
	config := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", config)
	t.Setenv("GSETTINGS_BACKEND", "dconf")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	set := func(commands ...string) {
		t.Helper()
		script := strings.Join(commands, " && ")
		cmd := exec.Command("dbus-run-session", "--", "sh", "-c", script)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
	}
	f := Finder{Getenv: env(map[string]string{"XDG_CONFIG_HOME": config}), KDEConfig: t.TempDir()}

	set("gsettings set org.gnome.system.proxy mode manual",
		"gsettings set org.gnome.system.proxy.https host proxy.corp",
		"gsettings set org.gnome.system.proxy.https port 8080",
		`gsettings set org.gnome.system.proxy ignore-hosts "['localhost', '*.corp']"`)
	s, err := f.Find(context.Background())
	if err != nil || s.Origin != FromGNOME || s.Mode != Manual {
		t.Fatalf("manual: %v, %v", s, err)
	}
	if got := route(t, s, "https://storage.googleapis.com/") + " " + route(t, s, "https://files.corp/"); got != "http://proxy.corp:8080 direct" {
		t.Errorf("manual routes: %s", got)
	}

	set("gsettings set org.gnome.system.proxy mode auto",
		"gsettings set org.gnome.system.proxy autoconfig-url http://127.0.0.1:1/proxy.pac")
	if s, err = f.Find(context.Background()); err != nil || s.Mode != Script || s.PAC != "http://127.0.0.1:1/proxy.pac" {
		t.Fatalf("auto: %v, %v", s, err)
	}

	set("gsettings set org.gnome.system.proxy mode none")
	if s, err = f.Find(context.Background()); err != nil || s.Origin != FromNowhere {
		t.Fatalf("none: %v, %v", s, err)
	}
}

// TestSettingNeverShowsPassword: a proxy written with its password (as
// HTTPS_PROXY may be) is named without it, in sentences and in the log.
func TestSettingNeverShowsPassword(t *testing.T) {
	f := noDesktop(t)
	f.Getenv = env(map[string]string{"HTTPS_PROXY": "http://ali:s3cret@proxy.corp:3128"})
	s, err := f.Find(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Name() + " " + s.String(); strings.Contains(got, "s3cret") || !strings.Contains(got, "proxy.corp:3128") {
		t.Errorf("named %q", got)
	}
	p := &Proxies{Setting: s}
	if at, _ := p.InUse(context.Background(), "https://storage.googleapis.com/"); at != "proxy.corp:3128" {
		t.Errorf("in use: %q", at)
	}
}
