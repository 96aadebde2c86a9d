package proxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// On Windows a proxy that asks for Negotiate or NTLM is first answered with
// the user's own Windows sign-in, so a domain user types nothing; only if
// the proxy refuses it is the name and password asked for, once. Which
// scheme, when to try it and when to give up on it is decided here, the
// same on every system; the system's part is a handshake.

// ownSignIn keeps, for each proxy, how the user's own sign-in went.
type ownSignIn struct {
	// start begins the user's own sign-in; nil means the system's, where
	// there is one (Windows).
	start startHandshake

	mu    sync.Mutex
	tries map[string]*ownTry // by proxy host:port
}

type ownTry struct {
	scheme  string   // Negotiate or NTLM
	offered []string // the proxy's Proxy-Authenticate values when it first asked
	refused bool     // the proxy refused it, or it could not start: never again this run
	err     error    // why it could not start
}

// ownScheme is the scheme to answer with the user's own sign-in: Negotiate
// (Kerberos where the domain offers it) before NTLM; "" when neither is offered.
func ownScheme(offered []string) string {
	scheme := ""
	for _, s := range offered {
		name, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		switch {
		case strings.EqualFold(name, "Negotiate"):
			return "Negotiate"
		case strings.EqualFold(name, "NTLM"):
			scheme = "NTLM"
		}
	}
	return scheme
}

func (o *ownSignIn) starter() startHandshake {
	if o.start != nil {
		return o.start
	}
	if systemSignIn != nil {
		return systemSignIn
	}
	return nil
}

// offer reports whether the request a proxy answered with these schemes
// may go again with the user's own sign-in: it is offered and not refused.
func (o *ownSignIn) offer(proxy string, offered []string) bool {
	scheme := ownScheme(offered)
	if scheme == "" || o.starter() == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if t := o.tries[proxy]; t != nil {
		return !t.refused
	}
	if o.tries == nil {
		o.tries = map[string]*ownTry{}
	}
	o.tries[proxy] = &ownTry{scheme: scheme, offered: offered}
	return true
}

// using is the scheme the user's own sign-in answers proxy with, or "".
func (o *ownSignIn) using(proxy string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t := o.tries[proxy]; t != nil && !t.refused {
		return t.scheme
	}
	return ""
}

// refuse gives up the user's own sign-in at proxy; the schemes the proxy offered.
func (o *ownSignIn) refuse(proxy string, err error) []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	t := o.tries[proxy]
	if t == nil {
		return nil
	}
	t.refused, t.err = true, err
	return t.offered
}

// problem is why the user's own sign-in could not start at proxy, or nil.
func (o *ownSignIn) problem(proxy string) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if t := o.tries[proxy]; t != nil {
		return t.err
	}
	return nil
}

// handshakeFor is the handshake for a tunnel through proxy u and its
// scheme: the user's own sign-in while it is being used, or NTLM with the
// login kept or given (typed is the scheme for it). l is that login.
func (p *Proxies) handshakeFor(ctx context.Context, u *url.URL, typed string) (h handshake, scheme string, l *login, err error) {
	if own := p.own.using(u.Host); own != "" {
		h, err := p.own.starter()(own, u.Host)
		if err != nil {
			return nil, "", nil, p.ownRefused(ctx, u, err)
		}
		return h, own, nil, nil
	}
	l = p.login(u.Host, p.Logins)
	if !l.ok {
		return nil, "", nil, p.signIn(ctx, u, "", &http.Response{Header: http.Header{"Proxy-Authenticate": {typed}}})
	}
	return &typedNTLM{user: l.user, password: l.password}, typed, l, nil
}

// ownRefused is what a proxy's refusal of the user's own sign-in (or its
// failure to start, err) means: the name and password are asked for once,
// as where there is no own sign-in; with no one to ask, the proxy refused.
func (p *Proxies) ownRefused(ctx context.Context, u *url.URL, err error) error {
	offered := p.own.refuse(u.Host, err)
	res := &http.Response{Header: http.Header{"Proxy-Authenticate": offered}}
	asked := p.signIn(ctx, &url.URL{Scheme: u.Scheme, Host: u.Host}, "", res)
	var e *SignInError
	var again *AskedError
	if !errors.As(asked, &again) && errors.As(asked, &e) {
		e.Refused = true
	}
	return asked
}

// hostOnly is a proxy's host name without its port: the name in the
// service principal HTTP/<host> the user's own sign-in is asked for.
func hostOnly(proxy string) string {
	if h, _, err := net.SplitHostPort(proxy); err == nil {
		return h
	}
	return proxy
}
