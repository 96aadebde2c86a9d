package auth

import (
	"testing"
)

func proxyLoginsRoundTrip(t *testing.T, p ProxyLogins) {
	t.Helper()
	const proxy = "proxy.test.invalid:8080"
	_ = p.Forget(proxy)
	if _, _, ok := p.Login(proxy); ok {
		t.Fatal("a login before any was kept")
	}
	if err := p.Keep(proxy, "ali", "p@ss word"); err != nil {
		t.Fatal(err)
	}
	if u, pw, ok := p.Login(proxy); !ok || u != "ali" || pw != "p@ss word" {
		t.Fatalf("Login = %q %q %v", u, pw, ok)
	}
	if err := p.Forget(proxy); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := p.Login(proxy); ok {
		t.Fatal("a forgotten login is still kept")
	}
}

// TestProxyLoginsKeptApartFromSignIns: a proxy's name and password go in
// the keychain under a service of their own, never beside a Google grant.
func TestProxyLoginsKeptApartFromSignIns(t *testing.T) {
	k := mapKeyring{}
	proxyLoginsRoundTrip(t, ProxyLogins{Backend: k})
	_ = ProxyLogins{Backend: k}.Keep("p:1", "u", "x")
	if len(k) != 1 {
		t.Errorf("kept %d entries, want 1", len(k))
	}
	for key := range k {
		if len(key) < len(ProxyKeychainService) || key[:len(ProxyKeychainService)] != ProxyKeychainService {
			t.Errorf("kept under %q", key)
		}
	}
}
