package auth

import (
	"context"
	"encoding/json"
	"time"
)

// ProxyKeychainService is the keychain's service name for the office
// proxies' names and passwords, apart from the Google sign-ins.
const ProxyKeychainService = "Hoist office proxy"

// ProxyLogins keeps the name and password of each office proxy that asks
// for a sign-in in the keychain (one entry per proxy, its host:port as the
// entry's user), with the scheme the proxy asked for them in, never in a
// file or a log. A keychain that is locked or absent keeps nothing: the
// user is asked again next time.
type ProxyLogins struct {
	Backend Keyring       // nil means SystemKeyring
	Timeout time.Duration // per call; 0 means DefaultKeychainTimeout
}

type proxyLogin struct {
	// Scheme is Basic, NTLM or Negotiate; absent from an entry kept by an
	// older Hoist, which is read as an unknown scheme.
	Scheme   string `json:"scheme,omitempty"`
	User     string `json:"user"`
	Password string `json:"password"`
}

func (p ProxyLogins) keychain() *Keychain {
	return &Keychain{Service: ProxyKeychainService, Backend: p.Backend, Timeout: p.Timeout}
}

// Login is the scheme, name and password kept for proxy; the scheme is ""
// when unknown.
func (p ProxyLogins) Login(proxy string) (scheme, user, password string, ok bool) {
	k := p.keychain()
	var secret string
	err := k.call(context.Background(), func(b Keyring) (err error) {
		secret, err = b.Get(k.service(), proxy)
		return err
	})
	var l proxyLogin
	if err != nil || json.Unmarshal([]byte(secret), &l) != nil || l.User == "" {
		return "", "", "", false
	}
	return l.Scheme, l.User, l.Password, true
}

// Keep keeps a name and password for proxy, with the scheme the proxy
// asked for them in.
func (p ProxyLogins) Keep(proxy, scheme, user, password string) error {
	secret, err := json.Marshal(proxyLogin{Scheme: scheme, User: user, Password: password})
	if err != nil {
		return err
	}
	k := p.keychain()
	return k.call(context.Background(), func(b Keyring) error { return b.Set(k.service(), proxy, string(secret)) })
}

// Forget drops what is kept for proxy.
func (p ProxyLogins) Forget(proxy string) error {
	k := p.keychain()
	return k.call(context.Background(), func(b Keyring) error { return b.Delete(k.service(), proxy) })
}
