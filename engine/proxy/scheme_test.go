package proxy

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"hoist/internal/testproxy"
)

// basicSent lists the Proxy-Authorization headers px received as Basic.
func basicSent(px *testproxy.Proxy) []string {
	var out []string
	for _, a := range px.Authorizations() {
		if len(a) >= 6 && strings.EqualFold(a[:6], "Basic ") {
			out = append(out, a)
		}
	}
	return out
}

// mayBeSentAgain fails t unless err is nil or one to send the request again with.
func mayBeSentAgain(t *testing.T, err error) {
	t.Helper()
	var retry interface{ Retryable() bool }
	if err != nil && (!errors.As(err, &retry) || !retry.Retryable()) {
		t.Fatalf("first attempt: %v, want one that may be sent again", err)
	}
}

// TestKeptNTLMLoginNeverSentAsBasic: a login kept for a proxy that asks
// for NTLM is kept with its scheme, so the next run's first request starts
// NTLM's handshake at once: it goes through on the first attempt, and the
// password never goes out as Basic.
func TestKeptNTLMLoginNeverSentAsBasic(t *testing.T) {
	o := officeProxy(t, FromWindows, testproxy.WithNTLM("OFFICE", "ali", "s3cret"))
	for _, address := range []string{o.secureURL, o.plainURL} {
		t.Run(address, func(t *testing.T) {
			kept := logins{o.px.Addr: {"NTLM", `OFFICE\ali`, "s3cret"}}
			said := len(o.px.Authorizations())
			refused := o.px.Refused()
			_, c := o.run(kept, nil)
			if got, err := get(c, address); err != nil || got != "200 OK hello" {
				t.Fatalf("the run's first request: %q, %v; want it through at once", got, err)
			}
			if n := o.px.Refused() - refused; n != 0 {
				t.Errorf("the proxy asked %d times before NTLM's handshake, want none", n)
			}
			if a := o.px.Authorizations(); len(a) <= said || !strings.HasPrefix(a[said], "NTLM ") {
				t.Errorf("the proxy was sent %.12q first, want NTLM's first message", a[said:])
			}
			if b := basicSent(o.px); len(b) > 0 {
				t.Errorf("the password went to the NTLM proxy as Basic %d times", len(b))
			}
		})
	}
}

// TestLoginKeptWithoutSchemeWaitsForQuestion: a login kept by an older
// Hoist, without its scheme, goes out only when the proxy has asked, in
// the scheme it asked for, which is then kept with it: the next run needs
// no question.
func TestLoginKeptWithoutSchemeWaitsForQuestion(t *testing.T) {
	for _, c := range []struct {
		name   string
		asks   testproxy.Option
		user   string
		scheme string
	}{
		{"NTLM", testproxy.WithNTLM("OFFICE", "ali", "s3cret"), `OFFICE\ali`, "NTLM"},
		{"Basic", testproxy.WithLogin("ali", "s3cret"), "ali", "Basic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := officeProxy(t, FromGNOME, c.asks)
			kept := logins{o.px.Addr: {"", c.user, "s3cret"}}
			_, cl := o.run(kept, nil)
			got, err := get(cl, o.secureURL)
			if a := o.px.SentBeforeAsked(); err != nil || got != "200 OK hello" || o.px.Refused() != 1 || len(a) > 0 {
				t.Errorf("the first request: %q, %v after %d questions, sent %.12q before the first; want through after one question, nothing sent before it", got, err, o.px.Refused(), a)
			}
			if kept[o.px.Addr] != [3]string{c.scheme, c.user, "s3cret"} {
				t.Errorf("kept %q, want the login with %s", kept[o.px.Addr], c.scheme)
			}
			if c.scheme != "Basic" && len(basicSent(o.px)) > 0 {
				t.Error("the password went to the NTLM proxy as Basic")
			}
			refused := o.px.Refused()
			_, next := o.run(kept, nil)
			if got, err := get(next, o.secureURL); err != nil || got != "200 OK hello" || o.px.Refused() != refused {
				t.Errorf("the next run: %q, %v, after %d questions; want through at once", got, err, o.px.Refused()-refused)
			}
		})
	}
}

// TestProxyThatChangedSchemeFollowed: a proxy that now asks for another
// scheme than the one kept is answered in the one it asks for, with the
// same login, which is kept with the new scheme, not forgotten nor asked
// for again.
func TestProxyThatChangedSchemeFollowed(t *testing.T) {
	for _, c := range []struct {
		name      string
		asks      testproxy.Option
		user, was string
		now       string
	}{
		{"Basic to NTLM", testproxy.WithNTLM("OFFICE", "ali", "s3cret"), `OFFICE\ali`, "Basic", "NTLM"},
		{"NTLM to Basic", testproxy.WithLogin("ali", "s3cret"), "ali", "NTLM", "Basic"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := officeProxy(t, FromWindows, c.asks)
			kept := logins{o.px.Addr: {c.was, c.user, "s3cret"}}
			var asked atomic.Int64
			_, cl := o.run(kept, func(_ context.Context, _ string, _ Origin) (string, string, bool) {
				asked.Add(1)
				return "", "", false
			})
			_, err := get(cl, o.secureURL)
			mayBeSentAgain(t, err)
			if got, err := get(cl, o.secureURL); err != nil || got != "200 OK hello" {
				t.Fatalf("in the scheme the proxy asks for: %q, %v", got, err)
			}
			if kept[o.px.Addr] != [3]string{c.now, c.user, "s3cret"} || asked.Load() != 0 {
				t.Errorf("kept %q, asked %d times; want the login kept with %s, not asked", kept[o.px.Addr], asked.Load(), c.now)
			}
			// The kept scheme goes out first, before the proxy asks.
			if a := o.px.Authorizations(); len(a) == 0 || !strings.HasPrefix(a[0], c.was+" ") {
				t.Errorf("sent %.12q, want the kept %s first", a, c.was)
			}
		})
	}
}

// TestSchemeNotFollowedBackAndForth: a proxy that names one scheme and then
// another in the same run is followed once; after that its question ends
// the request, which is not sent again in a loop.
func TestSchemeNotFollowedBackAndForth(t *testing.T) {
	kept := logins{"proxy.corp:8080": {"", "ali", "s3cret"}}
	p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTPS: "proxy.corp:8080"}, Logins: kept}
	u := &url.URL{Scheme: "http", Host: "proxy.corp:8080"}
	asks := func(scheme string) *http.Response {
		return &http.Response{Header: http.Header{"Proxy-Authenticate": {scheme}}}
	}
	var retry interface{ Retryable() bool }
	if err := p.signIn(t.Context(), u, "", asks(`Basic realm="office"`)); !errors.As(err, &retry) || !retry.Retryable() {
		t.Fatalf("the first question: %v, want the request sent again with the kept login", err)
	}
	if !p.takesBasic(u.Host) || kept[u.Host][0] != "Basic" {
		t.Fatalf("after the question for Basic: Basic %v, kept %q", p.takesBasic(u.Host), kept[u.Host])
	}
	err := p.signIn(t.Context(), u, "Basic", asks("NTLM"))
	var e *SignInError
	if !errors.As(err, &e) || e.Refused || errors.As(err, &retry) && retry.Retryable() {
		t.Fatalf("a second scheme: %v, want the proxy's question, not sent again", err)
	}
	if _, ok := kept[u.Host]; !ok || !p.takesBasic(u.Host) {
		t.Errorf("the login was forgotten, or the scheme changed: kept %q", kept[u.Host])
	}
}
