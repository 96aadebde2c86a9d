package engine_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/proxy"
	"hoist/internal/testproxy"
)

type keptLogins map[string][3]string // scheme, name, password

func (l keptLogins) Login(p string) (string, string, string, bool) {
	v, ok := l[p]
	return v[0], v[1], v[2], ok
}
func (l keptLogins) Keep(p, scheme, user, password string) error {
	l[p] = [3]string{scheme, user, password}
	return nil
}
func (l keptLogins) Forget(p string) error { delete(l, p); return nil }

// TestUploadThroughNTLMProxy: with the upload transport, a file goes over
// HTTPS through a proxy that asks for NTLM to a host only the proxy
// resolves, signed in with the name and password kept for it; a wrong
// password meets the refusal naming the proxy, is forgotten, and the upload
// is not sent again and again.
func TestUploadThroughNTLMProxy(t *testing.T) {
	data, want, arrived, srv := bodySink(t, 10)
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"), testproxy.WithHost("example.com", srv.Listener.Addr().String()))
	_, port, _ := strings.Cut(srv.Listener.Addr().String(), ":")
	address := "https://example.com:" + port + "/upload"
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	put := func(c *http.Client) error {
		req, _ := http.NewRequest(http.MethodPut, address, bytes.NewReader(data))
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return errors.New(resp.Status)
		}
		return nil
	}
	for _, c := range []struct {
		name, password string
		works          bool
	}{{"right", "s3cret", true}, {"wrong", "guess", false}} {
		t.Run(c.name, func(t *testing.T) {
			tr := engine.DefaultTransport()
			if err := engine.AlsoTrust(tr, ca); err != nil {
				t.Fatal(err)
			}
			kept := keptLogins{px.Addr: {"", `OFFICE\ali`, c.password}}
			p := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromWindows, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr}, Logins: kept}
			cl := &http.Client{Transport: p.Apply(tr)}
			// Sent again only while the answer is one that may be sent again.
			var err error
			tries := 0
			for tries < 5 {
				tries++
				var retry interface{ Retryable() bool }
				if err = put(cl); err == nil || !errors.As(err, &retry) || !retry.Retryable() {
					break
				}
			}
			if c.works {
				if err != nil || len(arrived) != 1 || <-arrived != want {
					t.Fatalf("through the NTLM proxy: %v after %d tries; %d arrived", err, tries, len(arrived))
				}
				if kept[px.Addr][0] != "NTLM" {
					t.Errorf("kept with the scheme %q, want NTLM", kept[px.Addr][0])
				}
				// The next run signs in with NTLM at once: the first upload
				// goes through, and the password never goes out as Basic.
				refused := px.Refused()
				next := &proxy.Proxies{Setting: p.Setting, Logins: kept}
				if err := put(&http.Client{Transport: next.Apply(tr.Clone())}); err != nil || len(arrived) != 1 || <-arrived != want {
					t.Fatalf("the next run's first upload: %v", err)
				}
				if px.Refused() != refused {
					t.Errorf("the next run met the proxy's question %d times", px.Refused()-refused)
				}
				for _, a := range px.Authorizations() {
					if !strings.HasPrefix(a, "NTLM ") {
						t.Errorf("the proxy, which asks for NTLM, was sent %.12s…", a)
					}
				}
				return
			}
			var e *proxy.SignInError
			if !errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || !errors.Is(err, proxy.ErrOfficeProxy) {
				t.Fatalf("a wrong password: %v, want the proxy's refusal", err)
			}
			if tries > 2 || len(arrived) != 0 {
				t.Errorf("%d tries, %d arrived; want the refusal on the second, nothing sent", tries, len(arrived))
			}
			if _, ok := kept[px.Addr]; ok {
				t.Error("the refused password is still kept")
			}
		})
	}
}

// bodySink is an HTTPS server on loopback that tells, on arrived (room for
// n), the SHA-256 of each request body it receives; data is a file's worth
// of random bytes to send it, and want their SHA-256. It stops with the test.
func bodySink(t *testing.T, n int) (data []byte, want [32]byte, arrived chan [32]byte, srv *httptest.Server) {
	t.Helper()
	data = make([]byte, 300<<10)
	_, _ = rand.Read(data)
	want = sha256.Sum256(data)
	arrived = make(chan [32]byte, n)
	srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		arrived <- sha256.Sum256(b)
	}))
	t.Cleanup(srv.Close)
	return data, want, arrived, srv
}
