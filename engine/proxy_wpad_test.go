package engine_test

import (
	"bytes"
	"context"
	"encoding/pem"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"hoist/engine"
	"hoist/engine/proxy"
	"hoist/internal/testproxy"
)

// TestUploadThroughDetectedProxy: with "automatically detect settings" on
// the computer host.a.corp.example.test, Hoist finds the script at
// wpad.corp.example.test (served on loopback), and an upload over HTTPS
// goes through the proxy that script names to a host only that proxy
// resolves; Settings then shows the script's address found.
func TestUploadThroughDetectedProxy(t *testing.T) {
	data, want, arrived, srv := bodySink(t, 4)
	px := testproxy.Start(t, testproxy.WithHost("example.com", srv.Listener.Addr().String()))
	var fetched atomic.Int64
	pac := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/wpad.dat" || r.Host != "wpad.corp.example.test" {
			http.NotFound(w, r)
			return
		}
		fetched.Add(1)
		fmt.Fprintf(w, `function FindProxyForURL(url, host) { return host == "example.com" ? "PROXY %s" : "DIRECT"; }`, px.Addr)
	}))
	defer pac.Close()

	// Only wpad.corp.example.test resolves, and it leads to the script's server.
	resolvConf := filepath.Join(t.TempDir(), "resolv.conf")
	if err := os.WriteFile(resolvConf, []byte("nameserver 192.0.2.53\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var looked []string
	dialer := &net.Dialer{}
	p := &proxy.Proxies{
		Setting: proxy.Setting{Origin: proxy.FromWindows, Mode: proxy.Script, Detect: true},
		Detector: proxy.Detector{
			DHCP: func(context.Context) (string, error) { return "", nil },
			Lookup: func(_ context.Context, host string) ([]string, error) {
				looked = append(looked, host)
				if host == "wpad.corp.example.test" {
					return []string{"127.0.0.1"}, nil
				}
				return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
			},
			ResolvConf: resolvConf,
			Hostname:   func() (string, error) { return "host.a.corp.example.test", nil },
			Domains:    func() []string { return nil },
		},
		Fetch: &http.Client{Transport: &http.Transport{Proxy: nil, DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == "wpad.corp.example.test:80" {
				addr = pac.Listener.Addr().String()
			}
			return dialer.DialContext(ctx, network, addr)
		}}},
		Notice: func(err error) { t.Errorf("notice: %v", err) },
	}

	tr := engine.DefaultTransport()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := engine.AlsoTrust(tr, ca); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: p.Apply(tr)}
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	for range 2 {
		req, _ := http.NewRequest(http.MethodPut, "https://example.com:"+port+"/upload", bytes.NewReader(data))
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || <-arrived != want {
			t.Fatalf("upload: %s", resp.Status)
		}
	}
	if px.Requests() < 1 || fetched.Load() != 1 {
		t.Errorf("the proxy carried %d tunnels (want at least 1); the script was fetched %d times (want 1)", px.Requests(), fetched.Load())
	}
	if want := "wpad.a.corp.example.test wpad.corp.example.test"; strings.Join(looked, " ") != want {
		t.Errorf("looked up %v, want %s", looked, want)
	}
	s := p.Current()
	found, ok := p.Detected()
	if s.PAC != "http://wpad.corp.example.test/wpad.dat" || s.Origin != proxy.FromWindows || !ok || found.How != proxy.ByDNS {
		t.Errorf("in use: %+v, found %+v", s, found)
	}
}
