package proxy

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/windows/registry"

	"hoist/internal/testproxy"
)

// throwawayEnv names the variable scripts/wine-proxy-test.sh sets in a Wine
// prefix of its own: only there may the test change Internet Options.
const throwawayEnv = "HOIST_THROWAWAY_WINDOWS"

// TestInternetOptionsAsWindowsKeepsThem sets the proxy in the registry as
// Internet Options and Group Policy do (a fixed proxy, a PAC address, a
// policy), and finds each as Hoist does, sending a request through it to a
// name only the proxy resolves.
func TestInternetOptionsAsWindowsKeepsThem(t *testing.T) {
	if os.Getenv(throwawayEnv) == "" {
		t.Skip("changes the user's Internet Options: run by scripts/wine-proxy-test.sh in a Wine prefix of its own")
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") }))
	defer origin.Close()
	px := testproxy.Start(t, testproxy.WithHost(onlyThroughProxy, origin.Listener.Addr().String()))
	pac := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `function FindProxyForURL(url, host) { return dnsDomainIs(host, ".invalid") ? "PROXY %s" : "DIRECT"; }`, px.Addr)
	}))
	defer pac.Close()

	set := func(path string, values map[string]any) {
		t.Helper()
		k, _, err := registry.CreateKey(registry.CURRENT_USER, path, registry.SET_VALUE)
		if err != nil {
			t.Fatal(err)
		}
		defer k.Close()
		for name, v := range values {
			switch v := v.(type) {
			case string:
				err = k.SetStringValue(name, v)
			case int:
				err = k.SetDWordValue(name, uint32(v))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	unset := func(path string, names ...string) {
		k, err := registry.OpenKey(registry.CURRENT_USER, path, registry.SET_VALUE)
		if err != nil {
			return
		}
		defer k.Close()
		for _, n := range names {
			_ = k.DeleteValue(n)
		}
	}
	through := func(name string, wantOrigin Origin) {
		t.Helper()
		s, err := Finder{Getenv: func(string) string { return "" }}.Find(context.Background())
		if err != nil || s.Origin != wantOrigin {
			t.Fatalf("%s: found %v, %v; want a setting from %s", name, s, err, wantOrigin)
		}
		before := px.Requests()
		c := &http.Client{Transport: (&Proxies{Setting: s}).Apply(http.DefaultTransport.(*http.Transport).Clone())}
		resp, err := c.Get("http://" + onlyThroughProxy + "/")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 || px.Requests() != before+1 {
			t.Fatalf("%s: %s, %d requests through the proxy", name, resp.Status, px.Requests()-before)
		}
	}

	user := `Software\Microsoft\Windows\CurrentVersion\Internet Settings`
	policy := `Software\Policies\Microsoft\Windows\CurrentVersion\Internet Settings`
	defer unset(user, "ProxyEnable", "ProxyServer", "ProxyOverride", "AutoConfigURL")
	defer unset(policy, "ProxyEnable", "ProxyServer", "AutoConfigURL")

	set(user, map[string]any{"ProxyEnable": 1, "ProxyServer": px.Addr, "ProxyOverride": "*.corp;<local>"})
	through("Internet Options' fixed proxy", FromWindows)
	if s, _ := (Finder{Getenv: func(string) string { return "" }}).Find(context.Background()); !strings.Contains(strings.Join(s.Bypass, ";"), "<local>") {
		t.Errorf("bypass %v", s.Bypass)
	}

	set(user, map[string]any{"AutoConfigURL": pac.URL + "/proxy.pac"})
	through("Internet Options' PAC address", FromWindows)

	unset(user, "AutoConfigURL")
	set(user, map[string]any{"ProxyServer": "127.0.0.1:1"})
	set(policy, map[string]any{"ProxyEnable": 1, "ProxyServer": px.Addr})
	through("Group Policy's proxy", FromWindowsPolicy)
}
