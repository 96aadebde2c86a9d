package auth

import (
	"testing"
)

func proxyLoginsRoundTrip(t *testing.T, p ProxyLogins) {
	t.Helper()
	const proxy = "proxy.test.invalid:8080"
	_ = p.Forget(proxy)
	if _, _, _, ok := p.Login(proxy); ok {
		t.Fatal("a login before any was kept")
	}
	for _, scheme := range []string{"Basic", "NTLM"} {
		if err := p.Keep(proxy, scheme, "ali", "p@ss word"); err != nil {
			t.Fatal(err)
		}
		if s, u, pw, ok := p.Login(proxy); !ok || s != scheme || u != "ali" || pw != "p@ss word" {
			t.Fatalf("Login = %q %q %q %v, want %s ali", s, u, pw, ok, scheme)
		}
	}
	if err := p.Forget(proxy); err != nil {
		t.Fatal(err)
	}
	if _, _, _, ok := p.Login(proxy); ok {
		t.Fatal("a forgotten login is still kept")
	}
}

// TestProxyLoginsKeptApartFromSignIns: a proxy's name and password go in
// the keychain under a service of their own, never beside a Google grant.
func TestProxyLoginsKeptApartFromSignIns(t *testing.T) {
	k := mapKeyring{}
	proxyLoginsRoundTrip(t, ProxyLogins{Backend: k})
	_ = ProxyLogins{Backend: k}.Keep("p:1", "Basic", "u", "x")
	if len(k) != 1 {
		t.Errorf("kept %d entries, want 1", len(k))
	}
	for key := range k {
		if len(key) < len(ProxyKeychainService) || key[:len(ProxyKeychainService)] != ProxyKeychainService {
			t.Errorf("kept under %q", key)
		}
	}
}

// TestProxyLoginKeptWithoutScheme: a login kept by an older Hoist, without
// the proxy's scheme, is still read, its scheme unknown (so nothing is sent
// before the proxy asks).
func TestProxyLoginKeptWithoutScheme(t *testing.T) {
	k := mapKeyring{}
	_ = k.Set(ProxyKeychainService, "proxy.corp:8080", `{"user":"OFFICE\\ali","password":"s3cret"}`)
	s, u, pw, ok := ProxyLogins{Backend: k}.Login("proxy.corp:8080")
	if !ok || s != "" || u != `OFFICE\ali` || pw != "s3cret" {
		t.Fatalf("Login = %q %q %q %v, want an unknown scheme with the name and password", s, u, pw, ok)
	}
}
