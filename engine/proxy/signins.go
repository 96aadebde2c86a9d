package proxy

import (
	"net/url"
	"sync"
)

// signIns are the names, passwords and schemes the proxies are answered
// with this run, by proxy host:port: read from the keychain once, given by
// the user when a proxy asks, forgotten when it refuses them. Which scheme
// each proxy is answered in is in scheme.go.
type signIns struct {
	mu     sync.Mutex
	logins map[string]*login // names and passwords by proxy, read or given once
	ntlm   map[string]string // proxies that sign in with NTLM: their scheme
	basic  map[string]bool   // proxies that take Basic: asked for it this run, or kept with it
	said   map[string]bool   // proxies whose question named their scheme this run
	askMu  sync.Mutex        // one question at a time
	asked  map[string]bool   // proxies the user was asked about; askMu held
}

type login struct {
	user, password string
	ok             bool
	scheme         string // the scheme kept with it; read and written with mu held
}

// cached is the login of proxy host read or given this run, or nil.
func (s *signIns) cached(host string) *login {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins[host]
}

// login is the name and password for a proxy: given while Hoist runs, or
// kept, read once. A kept login's scheme is the proxy's until it names
// another.
func (s *signIns) login(host string, kept Logins) *login {
	if l := s.cached(host); l != nil {
		return l
	}
	l := &login{}
	if kept != nil {
		l.scheme, l.user, l.password, l.ok = kept.Login(host)
		l.scheme = knownScheme(l.scheme)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if have, ok := s.logins[host]; ok {
		return have // given meanwhile
	}
	s.put(host, l)
	if l.ok && l.scheme != "" && !s.said[host] && s.schemeOf(host) == "" {
		s.useScheme(host, l.scheme)
	}
	return l
}

// give makes l proxy host's login for this run, given by the user.
func (s *signIns) give(host string, l *login) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.put(host, l)
}

// put is give with s.mu held.
func (s *signIns) put(host string, l *login) {
	if s.logins == nil {
		s.logins = map[string]*login{}
	}
	s.logins[host] = l
}

// forget drops a login the proxy refused, from kept too, unless another
// has replaced it.
func (s *signIns) forget(host string, refused *url.Userinfo, kept Logins) {
	s.mu.Lock()
	l := s.logins[host]
	drop := l != nil && l.ok && l.user == refused.Username() && samePassword(refused, l.password)
	if drop {
		s.logins[host] = &login{}
	}
	s.mu.Unlock()
	if drop && kept != nil {
		_ = kept.Forget(host)
	}
}

// firstQuestion reports whether the user may be asked about proxy host:
// not yet this run. s.askMu held.
func (s *signIns) firstQuestion(host string) bool {
	if s.asked[host] {
		return false
	}
	if s.asked == nil {
		s.asked = map[string]bool{}
	}
	s.asked[host] = true
	return true
}
