package proxy

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"hoist/internal/testproxy"
)

// onlyThroughProxy is a host name nothing resolves but the test proxy.
const onlyThroughProxy = "storage.test.invalid"

// closedAddr is a loopback address where nothing listens.
func closedAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// servers are a plain and a TLS server answering "hello".
func servers(t *testing.T) (plain, secure *httptest.Server) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") })
	plain, secure = httptest.NewServer(h), httptest.NewTLSServer(h)
	t.Cleanup(plain.Close)
	t.Cleanup(secure.Close)
	return plain, secure
}

// client sends through p; it trusts secure's certificate, which names example.com.
func client(p *Proxies, secure *httptest.Server) *http.Client {
	t := secure.Client().Transport.(*http.Transport).Clone()
	t.TLSClientConfig.ServerName = "example.com"
	return &http.Client{Transport: p.Apply(t)}
}

// office is a proxy on loopback that alone reaches a plain and a TLS
// server, and the fixed setting that names it.
type office struct {
	px      *testproxy.Proxy
	setting Setting
	secure  *httptest.Server
	// Addresses of the servers, reached only through the proxy.
	plainURL, secureURL string
}

// officeProxy starts the servers and a proxy (asking for the sign-in opts
// set up) that alone reaches them, set in the system's settings at origin.
func officeProxy(t *testing.T, origin Origin, opts ...testproxy.Option) office {
	t.Helper()
	plain, secure := servers(t)
	px := testproxy.Start(t, append(opts, testproxy.WithHost(onlyThroughProxy, plain.Listener.Addr().String()),
		testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))...)
	return office{px: px, setting: Setting{Origin: origin, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, secure: secure,
		plainURL: "http://" + onlyThroughProxy + "/", secureURL: "https://secure." + onlyThroughProxy + "/"}
}

// run is what one run of Hoist sends through the office's proxy with: the
// proxies, with the logins kept and who is asked (nil: no one), and a client.
func (o office) run(kept Logins, ask Ask) (*Proxies, *http.Client) {
	p := &Proxies{Setting: o.setting, Logins: kept, Ask: ask}
	return p, client(p, o.secure)
}

func get(c *http.Client, address string) (string, error) {
	resp, err := c.Get(address)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.Status + " " + string(b), err
}

func TestFixedProxyCarriesRequests(t *testing.T) {
	plain, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithHost(onlyThroughProxy, plain.Listener.Addr().String()), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	p := &Proxies{Setting: Setting{Origin: FromGNOME, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}}
	c := client(p, secure)
	for _, address := range []string{"http://" + onlyThroughProxy + "/", "https://secure." + onlyThroughProxy + "/"} {
		if got, err := get(c, address); err != nil || got != "200 OK hello" {
			t.Errorf("%s: %q, %v", address, got, err)
		}
	}
	if px.Requests() != 2 {
		t.Errorf("the proxy carried %d requests, want 2", px.Requests())
	}
	// The sandbox (loopback) never goes through the proxy.
	if got, err := get(c, plain.URL); err != nil || got != "200 OK hello" || px.Requests() != 2 {
		t.Errorf("loopback: %q, %v, proxy carried %d", got, err, px.Requests())
	}
}

func TestPACScriptServedOnLoopback(t *testing.T) {
	plain, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithHost(onlyThroughProxy, plain.Listener.Addr().String()), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	dead := closedAddr(t)
	script := fmt.Sprintf(`function FindProxyForURL(url, host) {
		if (dnsDomainIs(host, ".test.invalid") || host == %q) return "PROXY %s; PROXY %s; DIRECT";
		return "DIRECT";
	}`, onlyThroughProxy, dead, px.Addr)
	var fetched atomic.Int64
	pac := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetched.Add(1)
		w.Header().Set("Content-Type", "application/x-ns-proxy-autoconfig")
		fmt.Fprint(w, script)
	}))
	defer pac.Close()
	p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Script, PAC: pac.URL + "/proxy.pac"}}
	c := client(p, secure)
	for _, address := range []string{"http://" + onlyThroughProxy + "/", "https://secure." + onlyThroughProxy + "/", "http://" + onlyThroughProxy + "/again"} {
		if got, err := get(c, address); err != nil || got != "200 OK hello" {
			t.Fatalf("%s: %q, %v", address, got, err)
		}
	}
	if px.Requests() != 3 || fetched.Load() != 1 {
		t.Errorf("the proxy carried %d requests (want 3), the script was fetched %d times (want 1)", px.Requests(), fetched.Load())
	}
	if u, _ := p.InUse(context.Background(), "https://secure."+onlyThroughProxy+"/"); u != px.Addr {
		t.Errorf("in use: %q, want the second proxy of the answer (the first does not answer)", u)
	}
}

func TestPACThatCannotBeFetchedGoesDirectSaidOnce(t *testing.T) {
	var notices []error
	p := &Proxies{Setting: Setting{Origin: FromGNOME, Mode: Script, PAC: "http://" + closedAddr(t) + "/proxy.pac"}, Notice: func(err error) { notices = append(notices, err) }}
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, "https://storage.googleapis.com/upload", nil)
		if u, err := p.Proxy(req); u != nil || err != nil {
			t.Fatalf("Proxy = %v, %v; want direct", u, err)
		}
	}
	var pe *PACError
	if len(notices) != 1 || !errors.As(notices[0], &pe) || pe.Origin != FromGNOME {
		t.Fatalf("notices %v, want one PACError from GNOME", notices)
	}
	if f := pe.Fact(); f.Arg("proxy") != p.Setting.PAC || f.Arg("origin") != "gnome" {
		t.Errorf("fact %+v", f)
	}
}

// logins are kept logins, by proxy: scheme, name, password.
type logins map[string][3]string

func (l logins) Login(proxy string) (string, string, string, bool) {
	v, ok := l[proxy]
	return v[0], v[1], v[2], ok
}

func (l logins) Keep(proxy, scheme, user, password string) error {
	l[proxy] = [3]string{scheme, user, password}
	return nil
}

func (l logins) Forget(proxy string) error {
	delete(l, proxy)
	return nil
}

// answers is the user's answer to the proxy's question, user and
// password, counted in asked; a question about another proxy, or from
// another origin than the office's, fails the test.
func (o office) answers(t *testing.T, asked *atomic.Int64, user, password string) Ask {
	return func(_ context.Context, proxy string, origin Origin) (string, string, bool) {
		asked.Add(1)
		if proxy != o.px.Addr || origin != o.setting.Origin {
			t.Errorf("asked about %s (%s)", proxy, origin)
		}
		return user, password, true
	}
}

// TestProxySignIn: a proxy that asks for Basic and has no login gets the
// sentence naming it; a wrong password kept for it is refused; the right
// one, kept with Basic, goes through on the first request.
func TestProxySignIn(t *testing.T) {
	o := officeProxy(t, FromWindows, testproxy.WithLogin("ali", "s3cret"))
	px := o.px
	for _, address := range []string{o.secureURL, o.plainURL} {
		t.Run(address, func(t *testing.T) {
			before := px.Refused()
			_, c := o.run(nil, nil)
			_, err := get(c, address)
			var e *SignInError
			if !errors.As(err, &e) || e.Refused || e.Proxy != px.Addr || e.Origin != FromWindows || !e.OffersBasic() {
				t.Fatalf("without a login: %v (%#v), want the proxy's request for a sign-in", err, e)
			}
			var retry interface{ Retryable() bool }
			if !errors.As(err, &retry) || retry.Retryable() {
				t.Error("a proxy's refusal would be sent again")
			}
			if n := px.Refused() - before; n != 1 {
				t.Errorf("the proxy was asked %d times, want once", n)
			}
			_, c = o.run(logins{px.Addr: {"Basic", "ali", "wrong"}}, nil)
			_, err = get(c, address)
			if !errors.As(err, &e) || !e.Refused {
				t.Fatalf("a wrong password: %v, want a refusal", err)
			}
			if strings.Contains(err.Error(), "wrong") {
				t.Errorf("the error shows the password: %v", err)
			}
			before = px.Refused()
			_, c = o.run(logins{px.Addr: {"Basic", "ali", "s3cret"}}, nil)
			got, err := get(c, address)
			if err != nil || got != "200 OK hello" {
				t.Fatalf("signed in: %q, %v", got, err)
			}
			if n := px.Refused() - before; n != 0 {
				t.Errorf("a login kept with Basic met the proxy's question %d times, want none", n)
			}
		})
	}
}

func TestProxyThatDoesNotAnswerIsNamed(t *testing.T) {
	_, secure := servers(t)
	dead := closedAddr(t)
	p := &Proxies{Setting: Setting{Origin: FromOrganisation, Mode: Manual, HTTP: dead, HTTPS: dead}}
	_, err := get(client(p, secure), "https://storage.googleapis.com/")
	var e *UnreachableError
	if !errors.As(err, &e) || e.Proxy != dead || e.Origin != FromOrganisation || !errors.Is(err, ErrOfficeProxy) {
		t.Fatalf("%v, want the proxy named as unreachable", err)
	}
	if f := e.Fact(); f.Arg("proxy") != dead || f.Arg("origin") != "organisation" {
		t.Errorf("fact %+v", f)
	}
}

func TestUntrustedCertificateNamesIssuer(t *testing.T) {
	_, secure := servers(t)
	var p *Proxies // no proxy set
	c := &http.Client{Transport: p.Apply(&http.Transport{TLSClientConfig: &tls.Config{ServerName: "example.com"}})}
	_, err := get(c, secure.URL)
	var e *CertificateError
	if !errors.As(err, &e) || e.Issuer != "Acme Co" {
		t.Fatalf("%v (%#v), want the issuer named", err, e)
	}
	if f := e.Fact(); f.Arg("issuer") != "Acme Co" {
		t.Errorf("fact %+v", f)
	}
}

// TestProxySignInAskedOnce: a proxy that asks for a sign-in gets the name
// and password the user types, asked once however many requests meet it;
// the requests go on with them, and they are kept. A wrong password is
// refused once and forgotten, never asked for in a loop.
func TestProxySignInAskedOnce(t *testing.T) {
	o := officeProxy(t, FromGNOME, testproxy.WithLogin("ali", "s3cret"))
	px := o.px
	for _, c := range []struct {
		name, password string
		works          bool
	}{{"right", "s3cret", true}, {"wrong", "guess", false}} {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int64
			kept := logins{}
			_, cl := o.run(kept, o.answers(t, &asked, "ali", c.password))
			errs := make(chan error, 4)
			for range 4 {
				go func() { _, err := get(cl, o.secureURL); errs <- err }()
			}
			refused := 0 // answers that the typed password was refused
			isRefusal := func(err error) bool {
				var e *SignInError
				return errors.As(err, &e) && e.Refused
			}
			for range 4 {
				err := <-errs
				if e := (*SignInError)(nil); !c.works && errors.As(err, &e) {
					// A request that set out after the password was typed
					// meets the refusal on its first try, and one after the
					// refusal the proxy's question, not asked again.
					if e.Refused {
						refused++
					}
					continue
				}
				var retry interface{ Retryable() bool }
				if err != nil && (!errors.As(err, &retry) || !retry.Retryable()) {
					t.Errorf("first attempt: %v, want one that may be sent again", err)
				}
			}
			got, err := get(cl, o.secureURL)
			if c.works {
				if err != nil || got != "200 OK hello" || kept[px.Addr] != [3]string{"Basic", "ali", "s3cret"} {
					t.Errorf("after the sign-in: %q, %v; kept %v", got, err, kept)
				}
			} else {
				var e *SignInError
				if isRefusal(err) {
					refused++
				} else if refused == 0 || !errors.As(err, &e) {
					t.Errorf("a wrong password: %v, want a refusal (or, after one, the proxy's question)", err)
				}
				if refused == 0 {
					t.Error("the wrong password was never refused")
				}
				if _, ok := kept[px.Addr]; ok {
					t.Error("the refused password is still kept")
				}
				if _, err = get(cl, o.secureURL); !errors.As(err, &e) || e.Refused {
					t.Errorf("after the refusal: %v, want the proxy's question, not asked again", err)
				}
			}
			if asked.Load() != 1 {
				t.Errorf("asked %d times, want once", asked.Load())
			}
		})
	}
}
