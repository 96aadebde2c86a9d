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

// schemeOf is the scheme proxy host is answered in this run; s.mu held.
func (s *signIns) schemeOf(host string) string {
	if s.basic[host] {
		return basicScheme
	}
	return s.ntlm[host]
}

// useScheme makes scheme the one proxy host is answered in; s.mu held.
func (s *signIns) useScheme(host, scheme string) {
	delete(s.basic, host)
	delete(s.ntlm, host)
	switch {
	case scheme == basicScheme:
		if s.basic == nil {
			s.basic = map[string]bool{}
		}
		s.basic[host] = true
	case scheme != "":
		if s.ntlm == nil {
			s.ntlm = map[string]string{}
		}
		s.ntlm[host] = scheme
	}
}

// ntlmOf is the scheme of NTLM's messages (NTLM or Negotiate) proxy host
// is answered in this run; "" for none.
func (s *signIns) ntlmOf(host string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ntlm[host]
}

// takesBasic reports whether a login may go to proxy host as Basic before
// it asks: it asked for Basic this run, or the login was kept with Basic.
func (s *signIns) takesBasic(host string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.basic[host]
}

// follow makes the scheme the proxy's question names the one it is
// answered in; false when it named another already this run (a proxy
// that changes its mind at every question is not followed in a loop).
func (s *signIns) follow(host, scheme string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.schemeOf(host) == scheme {
		return true
	}
	if s.said[host] {
		return false
	}
	if s.said == nil {
		s.said = map[string]bool{}
	}
	s.said[host] = true
	s.useScheme(host, scheme)
	return true
}

// keepScheme keeps scheme with proxy host's login, in kept too, when it
// was kept with another or none; false when there is no login.
func (s *signIns) keepScheme(host, scheme string, kept Logins) bool {
	l := s.login(host, kept)
	if !l.ok {
		return false
	}
	s.mu.Lock()
	changed := l.scheme != scheme
	l.scheme = scheme
	s.mu.Unlock()
	if changed && kept != nil {
		_ = kept.Keep(host, scheme, l.user, l.password)
	}
	return true
}
