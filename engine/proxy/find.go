package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// OrganisationFile is the file in the organisation's folder that sets the
// proxy for everyone on the computer.
const OrganisationFile = "proxy.json"

// Finder finds the proxy setting in force, looking where the system keeps
// it; each field is a dependency, injected so tests set every source.
type Finder struct {
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// SystemDir is the organisation's folder ("" means none).
	SystemDir string
	// KDEConfig is the folder holding kioslaverc ("" means
	// $XDG_CONFIG_HOME, else ~/.config).
	KDEConfig string
	// GNOME reads org.gnome.system.proxy as `gsettings list-recursively`
	// prints it; nil means running gsettings. Not asked on Windows.
	GNOME func(ctx context.Context) (string, error)
	// Windows reads the registry; nil means the system's (on Windows only).
	Windows Registry
}

// Find is the setting in force, in this order: the environment's variables
// (when set), the organisation's folder, then the system's own settings
// (Windows: Group Policy, the user's Internet Options, the computer's WinHTTP
// proxy; elsewhere GNOME's, then KDE's, or KDE's first on a KDE desktop). A source that cannot be read is
// passed over; a setting that cannot be used is the error, with the
// setting read so far (the caller goes direct and says so).
func (f Finder) Find(ctx context.Context) (Setting, error) {
	if s, ok := f.environment(); ok {
		return s, nil
	}
	if s, ok, err := f.organisation(); ok || err != nil {
		return s, err
	}
	if reg := f.registry(); reg != nil {
		if s, ok := FromRegistry(reg); ok {
			return s, nil
		}
		return Setting{}, nil
	}
	desktops := []func() (Setting, bool){func() (Setting, bool) { return f.gnome(ctx) }, f.kde}
	if strings.Contains(strings.ToUpper(f.getenv("XDG_CURRENT_DESKTOP")), "KDE") {
		desktops[0], desktops[1] = desktops[1], desktops[0] // Plasma's own settings first
	}
	for _, read := range desktops {
		if s, ok := read(); ok {
			return s, nil
		}
	}
	return Setting{}, nil
}

func (f Finder) getenv(k string) string {
	if f.Getenv != nil {
		return f.Getenv(k)
	}
	return os.Getenv(k)
}

// environment is the setting of HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or
// their lower-case forms), when one of the first two is set.
func (f Finder) environment() (Setting, bool) {
	either := func(k string) string {
		if v := f.getenv(k); v != "" {
			return v
		}
		return f.getenv(strings.ToLower(k))
	}
	cfg := &httpproxy.Config{HTTPProxy: either("HTTP_PROXY"), HTTPSProxy: either("HTTPS_PROXY"), NoProxy: either("NO_PROXY")}
	if cfg.HTTPProxy == "" && cfg.HTTPSProxy == "" {
		return Setting{}, false
	}
	var bypass []string
	if cfg.NoProxy != "" {
		bypass = strings.Split(cfg.NoProxy, ",")
	}
	return Setting{Origin: FromEnvironment, Where: "HTTPS_PROXY", Mode: Manual, HTTP: cfg.HTTPProxy, HTTPS: cfg.HTTPSProxy, Bypass: bypass, env: cfg}, true
}

// organisationSetting is proxy.json: a fixed proxy or a PAC address, and
// the hosts that go direct.
type organisationSetting struct {
	Proxy  string   `json:"proxy"` // host:port, for http and https
	HTTP   string   `json:"http"`
	HTTPS  string   `json:"https"`
	SOCKS  string   `json:"socks"`
	PAC    string   `json:"pac"`
	Bypass []string `json:"bypass"`
	Direct bool     `json:"direct"` // no proxy, whatever the desktop says
	// Certificates names a file of PEM certificates (beside proxy.json, or
	// a full path) to trust besides the system's: the organisation's root.
	Certificates string `json:"certificates"`
}

// OrganisationCertificates is the file of certificates the organisation's
// proxy.json names for every user to trust (its path made whole), or "".
func OrganisationCertificates(systemDir string) string {
	if systemDir == "" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(systemDir, OrganisationFile))
	if err != nil {
		return ""
	}
	var o organisationSetting
	if json.Unmarshal(data, &o) != nil || o.Certificates == "" {
		return ""
	}
	if filepath.IsAbs(o.Certificates) {
		return o.Certificates
	}
	return filepath.Join(systemDir, o.Certificates)
}

func (f Finder) organisation() (Setting, bool, error) {
	if f.SystemDir == "" {
		return Setting{}, false, nil
	}
	path := filepath.Join(f.SystemDir, OrganisationFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Setting{}, false, nil
	}
	s := Setting{Origin: FromOrganisation, Where: path}
	if err != nil {
		return s, true, &BadSettingError{Value: path, Origin: FromOrganisation, Err: err}
	}
	var o organisationSetting
	if err := json.Unmarshal(data, &o); err != nil {
		return s, true, &BadSettingError{Value: path, Origin: FromOrganisation, Err: err}
	}
	s.Bypass = o.Bypass
	switch {
	case o.Direct:
	case o.PAC != "":
		s.Mode, s.PAC = Script, o.PAC
	case o.Proxy != "" || o.HTTP != "" || o.HTTPS != "" || o.SOCKS != "":
		s.Mode, s.HTTP, s.HTTPS, s.SOCKS = Manual, first(o.HTTP, o.Proxy), first(o.HTTPS, o.Proxy), o.SOCKS
		for _, p := range []string{s.HTTP, s.HTTPS} {
			if _, err := proxyURL(p, "http"); p != "" && err != nil {
				return s, true, &BadSettingError{Value: p, Origin: FromOrganisation}
			}
		}
	default:
		return s, false, nil // a file that sets nothing leaves the desktop's setting
	}
	return s, true, nil
}

func first(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// kde reads kioslaverc's [Proxy Settings].
func (f Finder) kde() (Setting, bool) {
	dir := f.KDEConfig
	if dir == "" {
		dir = f.getenv("XDG_CONFIG_HOME")
	}
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return Setting{}, false
		}
		dir = filepath.Join(home, ".config")
	}
	path := filepath.Join(dir, "kioslaverc")
	data, err := os.ReadFile(path)
	if err != nil {
		return Setting{}, false
	}
	return fromKioslaverc(string(data), path, f.environment)
}

func fromKioslaverc(text, path string, environment func() (Setting, bool)) (Setting, bool) {
	keys := map[string]string{}
	section := ""
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			section = strings.Trim(line, "[]")
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && section == "Proxy Settings" {
			k = strings.TrimSpace(k)
			if i := strings.IndexByte(k, '['); i > 0 {
				k = k[:i] // a key's [$e] or [$i] flags
			}
			keys[k] = strings.TrimSpace(v)
		}
	}
	s := Setting{Origin: FromKDE, Where: path}
	// KDE writes "http://proxy.corp 8080": the port after a space.
	addr := func(v string) string {
		if h, p, ok := strings.Cut(strings.TrimSpace(v), " "); ok {
			h = strings.TrimSuffix(h, "/")
			if i := strings.Index(h, "://"); i >= 0 {
				h = h[i+3:]
			}
			return h + ":" + strings.TrimSpace(p)
		}
		return v
	}
	switch keys["ProxyType"] {
	case "1":
		s.Mode, s.HTTP, s.HTTPS, s.SOCKS = Manual, addr(keys["httpProxy"]), addr(keys["httpsProxy"]), addr(keys["socksProxy"])
		if keys["NoProxyFor"] != "" {
			s.Bypass = strings.Split(keys["NoProxyFor"], ",")
		}
		if keys["ReversedException"] == "true" {
			return Setting{}, false // every host but the listed ones goes direct: not read here
		}
	case "2":
		s.Mode, s.PAC = Script, keys["Proxy Config Script"]
	case "3":
		s.Mode, s.Detect = Script, true
	default:
		return Setting{}, false
	}
	if s.Mode == Manual && s.HTTP == "" && s.HTTPS == "" && s.SOCKS == "" {
		return Setting{}, false
	}
	return s, true
}

// gnome reads org.gnome.system.proxy through gsettings.
func (f Finder) gnome(ctx context.Context) (Setting, bool) {
	read := f.GNOME
	if read == nil {
		read = runGsettings
	}
	text, err := read(ctx)
	if err != nil {
		return Setting{}, false
	}
	return fromGsettings(text)
}

func fromGsettings(text string) (Setting, bool) {
	v := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		schema, rest, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok {
			continue
		}
		key, value, ok := strings.Cut(rest, " ")
		if ok {
			v[strings.TrimPrefix(schema, "org.gnome.system.proxy")+" "+key] = strings.TrimSpace(value)
		}
	}
	s := Setting{Origin: FromGNOME, Where: "org.gnome.system.proxy"}
	switch gvString(v[" mode"]) {
	case "manual":
		hp := func(scheme string) string {
			h, port := gvString(v["."+scheme+" host"]), gvNumber(v["."+scheme+" port"])
			if h == "" || port == "" || port == "0" {
				return ""
			}
			return h + ":" + port
		}
		s.Mode, s.HTTP, s.HTTPS, s.SOCKS = Manual, hp("http"), hp("https"), hp("socks")
		if s.HTTP == "" && s.HTTPS == "" && s.SOCKS == "" {
			return Setting{}, false
		}
		s.Bypass = gvStrings(v[" ignore-hosts"])
		if v[".http use-authentication"] == "true" {
			s.User, s.Password = gvString(v[".http authentication-user"]), gvString(v[".http authentication-password"])
		}
	case "auto":
		s.Mode, s.PAC = Script, gvString(v[" autoconfig-url"])
		s.Detect = s.PAC == "" // "automatic" with no address: WPAD
	default:
		return Setting{}, false
	}
	return s, true
}

// gvString reads a GVariant string as gsettings prints it: 'text' or "text".
func gvString(v string) string {
	v = strings.TrimSpace(v)
	if len(v) >= 2 && (v[0] == '\'' || v[0] == '"') && v[len(v)-1] == v[0] {
		q := v[0]
		var b strings.Builder
		for i := 1; i < len(v)-1; i++ {
			if v[i] == '\\' && i+1 < len(v)-1 {
				i++
			}
			b.WriteByte(v[i])
		}
		_ = q
		return b.String()
	}
	return ""
}

// gvNumber reads a GVariant integer ("8080", "uint32 8080").
func gvNumber(v string) string {
	f := strings.Fields(v)
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// gvStrings reads a GVariant array of strings: ['a', 'b'] (or @as []).
func gvStrings(v string) []string {
	v = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), "@as"))
	v = strings.TrimSuffix(strings.TrimPrefix(v, "["), "]")
	var out []string
	for len(v) > 0 {
		v = strings.TrimLeft(v, " ,")
		if v == "" || (v[0] != '\'' && v[0] != '"') {
			break
		}
		q := v[0]
		end := 1
		for end < len(v) && v[end] != q {
			if v[end] == '\\' {
				end++
			}
			end++
		}
		if end >= len(v) {
			break
		}
		out = append(out, gvString(v[:end+1]))
		v = v[end+1:]
	}
	return out
}

// String is the setting in the log's words (never a password).
func (s Setting) String() string {
	switch s.Mode {
	case Script:
		if s.Detect && s.PAC == "" {
			return fmt.Sprintf("WPAD (%s)", origin(s.Origin))
		}
		return fmt.Sprintf("PAC %s (%s)", s.PAC, origin(s.Origin))
	case Manual:
		return fmt.Sprintf("proxy %s (%s)", s.Name(), origin(s.Origin))
	}
	return "direct (" + origin(s.Origin) + ")"
}

// registry is the injected registry, else the system's (Windows only).
func (f Finder) registry() Registry {
	if f.Windows != nil {
		return f.Windows
	}
	return f.systemRegistry()
}
