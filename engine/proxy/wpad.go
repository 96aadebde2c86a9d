package proxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"

	"golang.org/x/net/publicsuffix"
)

// MaxDetectTime bounds automatic detection, DHCP and DNS together: a
// network without WPAD must not hold the first upload for long.
const MaxDetectTime = 20 * time.Second

// ErrNotDetected says automatic detection (WPAD) found no proxy script:
// neither the DHCP lease nor a wpad name in the computer's DNS domain
// names one. Hoist goes direct.
var ErrNotDetected = errors.New("automatic detection found no proxy script")

// How automatic detection found the script's address (Detected.How).
const (
	ByDHCP    = "dhcp"    // the DHCP lease's option 252
	ByWinHTTP = "winhttp" // WinHTTP's own detection (DHCP, then DNS)
	ByDNS     = "dns"     // a wpad name in the computer's DNS domain
)

// Detected is the PAC script's address automatic detection found.
type Detected struct {
	Address string
	// How is ByDHCP, ByWinHTTP or ByDNS; Name is the wpad name that
	// resolved (ByDNS).
	How, Name string
}

// Detector finds the PAC script's address when the setting is
// "automatically detect" (WPAD), as Windows and browsers do: the DHCP
// lease's option 252 first, then http://wpad.<domain>/wpad.dat up the
// computer's DNS domain. Each source is a dependency, injected so tests
// need no DHCP server or DNS; the zero value asks the system's.
type Detector struct {
	// DHCP is the address the DHCP lease names (option 252), "" for none;
	// nil means the system's: WinHTTP on Windows, NetworkManager elsewhere.
	DHCP func(ctx context.Context) (string, error)
	// Lookup resolves a name; nil means the system's resolver.
	Lookup func(ctx context.Context, host string) ([]string, error)
	// ResolvConf is the resolver's file whose search and domain lines name
	// the computer's DNS domains ("" means /etc/resolv.conf).
	ResolvConf string
	// Hostname is this computer's name (its domain counts when it has a
	// dot); nil means os.Hostname.
	Hostname func() (string, error)
	// Domains are more DNS domains of the computer (Windows' primary DNS
	// suffix); nil means the system's.
	Domains func() []string
	// Bus is the address of the system's D-Bus, where NetworkManager
	// answers ("" means the system bus).
	Bus string
}

// Detect finds the script's address, within MaxDetectTime; ErrNotDetected
// when there is none.
func (d Detector) Detect(ctx context.Context) (Detected, error) {
	ctx, cancel := context.WithTimeout(ctx, MaxDetectTime)
	defer cancel()
	dhcp, how := d.DHCP, ByDHCP
	if dhcp == nil {
		dhcp, how = d.systemDHCP()
	}
	if address, err := dhcp(ctx); err == nil {
		// The option may carry a trailing NUL, as some DHCP servers send it.
		if address = strings.TrimSpace(strings.TrimRight(address, "\x00")); usableScript(address) {
			return Detected{Address: address, How: how}, nil
		}
	}
	lookup := d.Lookup
	if lookup == nil {
		lookup = net.DefaultResolver.LookupHost
	}
	for _, name := range d.Names() {
		if ctx.Err() != nil {
			break
		}
		if addrs, err := lookup(ctx, name); err == nil && len(addrs) > 0 {
			return Detected{Address: "http://" + name + "/wpad.dat", How: ByDNS, Name: name}, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return Detected{}, fmt.Errorf("%w: %w", ErrNotDetected, err)
	}
	return Detected{}, ErrNotDetected
}

// usableScript reports whether a DHCP lease's answer is an address to
// fetch a script from.
func usableScript(address string) bool {
	return strings.HasPrefix(address, "http://") || strings.HasPrefix(address, "https://")
}

// Names are the wpad names to look up, in order: for each of the
// computer's DNS domains (the resolver's domain and search list, then the
// host's own), wpad.<domain> walking up to two labels. A public suffix is
// never used (wpad.com, wpad.co.uk would ask strangers for the script).
func (d Detector) Names() []string {
	var names []string
	seen := map[string]bool{}
	for _, domain := range d.domains() {
		domain = strings.ToLower(strings.Trim(strings.TrimSpace(domain), "."))
		for strings.Count(domain, ".") >= 1 {
			if suffix, _ := publicsuffix.PublicSuffix(domain); suffix == domain {
				break
			}
			if name := "wpad." + domain; !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
			_, domain, _ = strings.Cut(domain, ".")
		}
	}
	return names
}

// domains are the computer's DNS domains, most specific first.
func (d Detector) domains() []string {
	path := d.ResolvConf
	if path == "" {
		path = "/etc/resolv.conf"
	}
	var out []string
	if data, err := os.ReadFile(path); err == nil {
		out = resolvDomains(string(data))
	}
	hostname := d.Hostname
	if hostname == nil {
		hostname = os.Hostname
	}
	if h, err := hostname(); err == nil {
		if _, domain, ok := strings.Cut(strings.TrimSpace(h), "."); ok {
			out = append(out, domain)
		}
	}
	more := d.Domains
	if more == nil {
		more = systemDomains
	}
	return append(out, more()...)
}

// resolvDomains reads resolv.conf's domain and search lines, in order.
func resolvDomains(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || (f[0] != "domain" && f[0] != "search") {
			continue
		}
		for _, d := range f[1:] {
			if strings.HasPrefix(d, "#") || strings.HasPrefix(d, ";") {
				break
			}
			out = append(out, d)
		}
	}
	return out
}

// detection is automatic detection's result: the script's address found,
// or why there is none.
type detection struct {
	found Detected
	err   error
}

// NotDetected names, in a PACError, the script automatic detection did not
// find.
const NotDetected = "WPAD"

// scriptAddress is the PAC script's address: the setting's, or the one
// automatic detection finds, detecting once (callers hold fetchMu, so
// others wait for its answer). Detection outlives the request that needed
// it first, within its own bound.
func (p *Proxies) scriptAddress(ctx context.Context) (string, error) {
	if !p.Setting.Detect || p.Setting.PAC != "" {
		return p.Setting.PAC, nil
	}
	p.mu.Lock()
	w := p.wpad
	p.mu.Unlock()
	if w == nil {
		found, err := p.Detector.Detect(context.WithoutCancel(ctx))
		w = &detection{found: found, err: err}
		p.mu.Lock()
		p.wpad = w
		p.mu.Unlock()
	}
	if w.err != nil {
		return NotDetected, w.err
	}
	return w.found.Address, nil
}

// Current is the setting in use: for automatic detection, once it has run,
// with the script's address it found (PAC) and how (Detected).
func (p *Proxies) Current() Setting {
	if p == nil {
		return Setting{}
	}
	s := p.Setting
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.Detect && s.PAC == "" && p.wpad != nil && p.wpad.err == nil {
		s.PAC = p.wpad.found.Address
	}
	return s
}

// Detected is what automatic detection found, and whether it has run and
// found a script.
func (p *Proxies) Detected() (Detected, bool) {
	if p == nil {
		return Detected{}, false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.wpad == nil || p.wpad.err != nil {
		return Detected{}, false
	}
	return p.wpad.found, true
}
