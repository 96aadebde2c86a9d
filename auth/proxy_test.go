package auth

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"hoist/engine/fact"
	"hoist/engine/proxy"
	"hoist/internal/testproxy"
)

// TestRefreshThroughOfficeProxy: the sign-in's token requests go through
// the office proxy; one that asks for a sign-in of its own is said as the
// proxy's question, naming it, not as Google being out of reach.
func TestRefreshThroughOfficeProxy(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	_, port, _ := net.SplitHostPort(f.srv.Host())
	const name = "oauth2.test.invalid"
	for _, c := range []struct {
		login bool
		want  fact.Code
	}{{false, fact.ProxySignIn}, {true, ""}} {
		opts := []testproxy.Option{testproxy.WithHost(name, f.srv.Host())}
		if !c.login {
			opts = append(opts, testproxy.WithLogin("ali", "s3cret"))
		}
		px := testproxy.Start(t, opts...)
		p := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromKDE, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr}}
		f.svc.HTTPClient = &http.Client{Timeout: time.Minute, Transport: p.Apply(http.DefaultTransport.(*http.Transport).Clone())}
		f.svc.Endpoints = EndpointsAt("http://" + name + ":" + port)
		(tokenSources{f.svc}).forgetSources()
		f.clock.Advance(2 * time.Hour) // the access token has expired: the next call refreshes it
		_, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
		if err == nil {
			var ts *TokenSource
			ts, err = f.svc.TokenSource(t.Context(), acct.Email, nil)
			if err == nil {
				_, err = ts.TokenContext(t.Context())
			}
		}
		if c.want == "" {
			if err != nil || f.srv.Refreshes() == 0 || px.Requests() == 0 {
				t.Errorf("through an open proxy: %v; %d refreshes, %d requests through the proxy", err, f.srv.Refreshes(), px.Requests())
			}
			continue
		}
		got, ok := Fact(err)
		if !ok || got.Code != c.want || got.Arg("proxy") != px.Addr || got.Arg("origin") != "kde" {
			t.Errorf("error %v: fact %+v, want %s naming the proxy", err, got, c.want)
		}
		if strings.Contains(err.Error(), "s3cret") {
			t.Error("the password shows in the error")
		}
	}
}

// TestRefreshGoesOnAfterProxyQuestion: a proxy that asks for a sign-in
// during a token request gets the name and password the user types, and
// the same token request goes on with them: the user is asked once and
// the refresh works the first time, with nothing else to retry it.
func TestRefreshGoesOnAfterProxyQuestion(t *testing.T) {
	f := newFixture(t)
	acct := f.login(t)
	_, port, _ := net.SplitHostPort(f.srv.Host())
	const name = "oauth2.test.invalid"
	px := testproxy.Start(t, testproxy.WithHost(name, f.srv.Host()), testproxy.WithLogin("ali", "s3cret"))
	asked := 0
	p := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromKDE, Mode: proxy.Manual, HTTP: px.Addr, HTTPS: px.Addr},
		Ask: func(context.Context, string, proxy.Origin) (string, string, bool) {
			asked++
			return "ali", "s3cret", true
		}}
	f.svc.HTTPClient = &http.Client{Timeout: time.Minute, Transport: p.Apply(http.DefaultTransport.(*http.Transport).Clone())}
	f.svc.Endpoints = EndpointsAt("http://" + name + ":" + port)
	(tokenSources{f.svc}).forgetSources()
	f.clock.Advance(2 * time.Hour) // the access token has expired: the next call refreshes it
	ts, err := f.svc.TokenSource(t.Context(), acct.Email, nil)
	if err == nil {
		_, err = ts.TokenContext(t.Context())
	}
	if err != nil || f.srv.Refreshes() == 0 || asked != 1 || px.Requests() == 0 {
		t.Errorf("refresh: %v; %d refreshes, asked %d times, %d requests through the proxy; want it through, asked once", err, f.srv.Refreshes(), asked, px.Requests())
	}
}
