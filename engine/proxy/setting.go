// Package proxy finds the proxy the system's settings name — the environment,
// the organisation's folder, Windows' Internet Options, GNOME's and KDE's
// network settings — runs a PAC script as browsers do, and chooses for each
// request the proxy (or none) it goes through. Each setting knows where it was
// found, so a sentence can name it. It holds no words: problems are typed
// errors carrying facts.
package proxy

import (
	"net"
	"net/netip"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpproxy"
)

// Origin says where a proxy setting was found.
type Origin string

const (
	FromNowhere       Origin = ""              // no setting anywhere: Hoist goes direct
	FromEnvironment   Origin = "environment"   // HTTPS_PROXY, HTTP_PROXY, NO_PROXY
	FromOrganisation  Origin = "organisation"  // proxy.json in the organisation's folder
	FromWindows       Origin = "windows"       // the user's Internet Options
	FromWindowsPolicy Origin = "windowsPolicy" // Internet Options set by Group Policy
	FromWinHTTP       Origin = "winhttp"       // the computer's WinHTTP proxy (netsh winhttp)
	FromGNOME         Origin = "gnome"         // org.gnome.system.proxy
	FromKDE           Origin = "kde"           // kioslaverc
)

// Mode is how a setting chooses a proxy.
type Mode int

const (
	Direct Mode = iota // no proxy
	Manual             // a fixed proxy per scheme, with addresses that go direct
	Script             // a PAC script at an address
)

// Setting is a proxy setting as the system keeps it.
type Setting struct {
	Origin Origin
	// Where is the file or registry key it was read from, for Settings.
	Where string
	Mode  Mode
	// HTTP, HTTPS and SOCKS are the fixed proxies (Manual) for http and
	// https addresses ("host:port" or a proxy URL); SOCKS serves either
	// scheme that has none of its own.
	HTTP, HTTPS, SOCKS string
	// Bypass lists the hosts that go direct: names ("corp.example"),
	// wildcards ("*.corp.example", ".corp.example"), addresses and
	// networks ("10.0.0.0/8"), and "<local>" (names without a dot).
	Bypass []string
	// PAC is the script's address (Script); "" until automatic detection
	// has found it (Detect).
	PAC string
	// Detect is "automatically detect settings" (WPAD): the script's
	// address is found when first needed (see Detector).
	Detect bool
	// User and Password sign in to the fixed proxy, where the setting
	// keeps them (GNOME's use-authentication); never logged.
	User, Password string

	env *httpproxy.Config // the environment's own rules (NO_PROXY), when from there
}

// Name is the proxy a setting names, as people read it: "proxy.corp:8080",
// or the PAC script's address; "" for none.
func (s Setting) Name() string {
	switch s.Mode {
	case Script:
		return s.PAC
	case Manual:
		for _, p := range []string{s.HTTPS, s.HTTP, s.SOCKS} {
			if p != "" {
				if u, err := proxyURL(p, "http"); err == nil {
					return u.Host
				}
				return p
			}
		}
	}
	return ""
}

// manual is the fixed proxy for u, or nil to go direct.
func (s Setting) manual(u *url.URL) (*url.URL, error) {
	if s.env != nil {
		return s.env.ProxyFunc()(u)
	}
	if bypassed(s.Bypass, u.Hostname()) {
		return nil, nil
	}
	p, scheme := s.HTTP, "http"
	if u.Scheme == "https" || u.Scheme == "wss" {
		p = s.HTTPS
	}
	if p == "" && s.SOCKS != "" {
		p, scheme = s.SOCKS, "socks5"
	}
	if p == "" {
		return nil, nil
	}
	return proxyURL(p, scheme)
}

// proxyURL reads a proxy's address: "host:port", "host", or a URL;
// scheme is the one assumed when none is written.
func proxyURL(p, scheme string) (*url.URL, error) {
	p = strings.TrimSpace(p)
	if !strings.Contains(p, "://") {
		p = scheme + "://" + p
	}
	u, err := url.Parse(p)
	if err != nil {
		return nil, &BadSettingError{Value: p, Err: err}
	}
	if u.Hostname() == "" {
		return nil, &BadSettingError{Value: p}
	}
	switch u.Scheme {
	case "socks", "socks4", "socks4a", "socks5h":
		u.Scheme = "socks5" // the one SOCKS Go's transport speaks
	case "http", "https", "socks5":
	default:
		return nil, &BadSettingError{Value: p}
	}
	if u.Port() == "" {
		port := map[string]string{"http": "80", "https": "443", "socks5": "1080"}[u.Scheme]
		if scheme == "http" && u.Scheme == "http" {
			port = "8080" // a proxy written without a port: the usual one
		}
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	u.Path, u.RawQuery, u.Fragment = "", "", ""
	return u, nil
}

// bypassed reports whether host goes direct by the list.
func bypassed(list []string, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	ip, ipErr := netip.ParseAddr(host)
	for _, b := range list {
		b = strings.ToLower(strings.TrimSpace(b))
		b = strings.TrimPrefix(strings.TrimPrefix(b, "http://"), "https://")
		switch {
		case b == "":
			continue
		case b == "<local>":
			if !strings.Contains(host, ".") && ipErr != nil {
				return true
			}
			continue
		case b == "*":
			return true
		}
		if pfx, err := netip.ParsePrefix(b); err == nil {
			if ipErr == nil && pfx.Contains(ip.Unmap()) {
				return true
			}
			continue
		}
		if h, _, err := net.SplitHostPort(b); err == nil {
			b = h // the port is not compared: one host, one answer
		}
		b = strings.Trim(b, "[]")
		if strings.HasPrefix(b, ".") {
			b = "*" + b
		}
		if shExpMatch(host, b) || (strings.HasPrefix(b, "*.") && host == b[2:]) {
			return true
		}
	}
	return false
}

// loopback reports whether host is this computer, which no proxy serves.
func loopback(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
