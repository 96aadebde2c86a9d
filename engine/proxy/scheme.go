package proxy

import (
	"net/url"
	"strings"
)

// A name and password go to a proxy only in the scheme it asks for. The
// scheme is kept with the login, so the next run answers at once in it:
// Basic is sent before the proxy asks only to a proxy kept as Basic (as
// browsers do), NTLM's handshake starts on the first connection to a proxy
// kept as NTLM, and a login kept without a scheme waits for the proxy's
// question. Otherwise a password sent as Basic would reach, in the clear, a
// proxy that never asked for it.

const basicScheme = "Basic"

// knownScheme is a kept scheme as Hoist answers in it, "" for one it does
// not know (a login kept before schemes were).
func knownScheme(s string) string {
	for _, known := range []string{basicScheme, "NTLM", "Negotiate"} {
		if strings.EqualFold(s, known) {
			return known
		}
	}
	return ""
}

// scheme is the scheme to answer the proxy's question in: Basic where it
// offers it, else NTLM's; "" for none Hoist speaks.
func (e *SignInError) scheme() string {
	if e.OffersBasic() {
		return basicScheme
	}
	return e.ntlmScheme()
}

// offers reports whether the proxy's question names scheme.
func (e *SignInError) offers(scheme string) bool {
	if scheme == "" {
		return false
	}
	if scheme == basicScheme {
		return e.OffersBasic()
	}
	for _, s := range e.Schemes {
		name, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		if strings.EqualFold(name, scheme) {
			return true
		}
	}
	return false
}

// sentAs is the scheme Go's transport sent the login in u in: Basic, or
// none.
func sentAs(u *url.URL) string {
	if u != nil && u.User != nil {
		return basicScheme
	}
	return ""
}

// schemeOf is the scheme proxy host is answered in this run; p.mu held.
func (p *Proxies) schemeOf(host string) string {
	if p.basic[host] {
		return basicScheme
	}
	return p.ntlm[host]
}

// useScheme makes scheme the one proxy host is answered in; p.mu held.
func (p *Proxies) useScheme(host, scheme string) {
	delete(p.basic, host)
	delete(p.ntlm, host)
	switch {
	case scheme == basicScheme:
		if p.basic == nil {
			p.basic = map[string]bool{}
		}
		p.basic[host] = true
	case scheme != "":
		if p.ntlm == nil {
			p.ntlm = map[string]string{}
		}
		p.ntlm[host] = scheme
	}
}

// takesBasic reports whether a login may go to proxy host as Basic before
// it asks: it asked for Basic this run, or the login was kept with Basic.
func (p *Proxies) takesBasic(host string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.basic[host]
}

// follow makes the scheme the proxy's question names the one it is
// answered in; false when it named another already this run (a proxy
// that changes its mind at every question is not followed in a loop).
func (p *Proxies) follow(host, scheme string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.schemeOf(host) == scheme {
		return true
	}
	if p.said[host] {
		return false
	}
	if p.said == nil {
		p.said = map[string]bool{}
	}
	p.said[host] = true
	p.useScheme(host, scheme)
	return true
}

// keepScheme keeps scheme with proxy host's login, when it was kept with
// another or none; false when there is no login.
func (p *Proxies) keepScheme(host, scheme string) bool {
	l := p.login(host)
	if !l.ok {
		return false
	}
	p.mu.Lock()
	changed := l.scheme != scheme
	l.scheme = scheme
	p.mu.Unlock()
	if changed && p.Logins != nil {
		_ = p.Logins.Keep(host, scheme, l.user, l.password)
	}
	return true
}
