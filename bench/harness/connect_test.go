package harness

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// TestConnectProxy: the office proxy tunnels to a name only it resolves,
// one tunnel per connection however many requests go through it, and asks
// for its sign-in when it has one.
func TestConnectProxy(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, "kept")
	}))
	defer srv.Close()
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	address := "https://" + officeHost + ":" + port + "/upload"

	for _, c := range []struct {
		name, user, login string
		want              int
	}{
		{"open", "", "", http.StatusOK},
		{"signed in", "ali", "ali:s3cret", http.StatusOK},
		{"no sign-in", "ali", "", http.StatusProxyAuthRequired},
		{"wrong password", "ali", "ali:guess", http.StatusProxyAuthRequired},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := startConnectProxy(map[string]string{officeHost: srv.Listener.Addr().String()}, c.user, "s3cret")
			if err != nil {
				t.Fatal(err)
			}
			defer p.close()
			pu, _ := url.Parse(p.URL)
			if c.login != "" {
				user, password, _ := strings.Cut(c.login, ":")
				pu.User = url.UserPassword(user, password)
			}
			tr := srv.Client().Transport.(*http.Transport).Clone()
			tr.TLSClientConfig = &tls.Config{RootCAs: tr.TLSClientConfig.RootCAs, ServerName: "example.com"}
			tr.Proxy = http.ProxyURL(pu)
			defer tr.CloseIdleConnections()
			status := 0
			tr.OnProxyConnectResponse = func(_ context.Context, _ *url.URL, _ *http.Request, res *http.Response) error {
				status = res.StatusCode
				return nil
			}
			cl := &http.Client{Transport: tr}
			for range 3 {
				resp, err := cl.Post(address, "application/octet-stream", strings.NewReader("report"))
				if c.want != http.StatusOK {
					if err == nil {
						resp.Body.Close()
					}
					if status != c.want {
						t.Fatalf("the proxy answered %d, want %d (%v)", status, c.want, err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if string(b) != "kept" {
					t.Fatalf("the server answered %q through the tunnel", b)
				}
			}
			if n := p.Connects(); n != 1 {
				t.Errorf("%d tunnels for 3 requests on one connection, want 1", n)
			}
		})
	}
}
