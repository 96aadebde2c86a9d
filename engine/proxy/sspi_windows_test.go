package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"hoist/engine/fact"
	"hoist/internal/testproxy"
)

// TestOwnSignInThroughSSPI signs in to a proxy that asks for Negotiate or
// NTLM through Windows' own security packages (secur32.dll), the proxy
// checking NTLMv2's proof for real. No one is signed in to a domain in a
// test's Wine prefix, so the name and password are given to SSPI
// explicitly; everything else is the path the signed-in user's sign-in
// takes. A wrong password is refused with the sentence naming the proxy.
func TestOwnSignInThroughSSPI(t *testing.T) {
	if os.Getenv(throwawayEnv) == "" {
		t.Skip("needs Windows' security packages with a name and password: run by scripts/wine-proxy-test.sh in a Wine prefix of its own")
	}
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "hello") }))
	defer origin.Close()
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"), testproxy.WithHost(onlyThroughProxy, origin.Listener.Addr().String()))
	for _, c := range []struct {
		name, scheme, password string
		works                  bool
	}{
		{"Negotiate", "", "s3cret", true},
		{"NTLM", "NTLM", "s3cret", true},
		{"wrong password", "", "guess", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var started []string
			var problem error
			asked := 0
			p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, Ask: mustNotAsk(t)}
			if !c.works {
				// After the refusal the name and password are asked for once;
				// the user gives none.
				p.Ask = func(context.Context, string, Origin) (string, string, bool) { asked++; return "", "", false }
			}
			p.own.start = func(scheme, proxy string) (handshake, error) {
				if c.scheme != "" {
					scheme = c.scheme
				}
				started = append(started, scheme+" "+proxy)
				h, err := newSSPI(scheme, proxy, &explicitLogin{domain: "OFFICE", user: "ali", password: c.password})
				if err != nil {
					problem = err
					return nil, err
				}
				return &loudHandshake{h: h, t: t}, nil
			}
			cl := &http.Client{Transport: p.Apply(http.DefaultTransport.(*http.Transport).Clone())}
			address := "http://" + onlyThroughProxy + "/"
			before := px.Requests()
			var err error
			for range 3 {
				var resp *http.Response
				if resp, err = cl.Get(address); err == nil {
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("answered %s", resp.Status)
					}
				}
				if err == nil || !retryable(err) {
					break
				}
			}
			t.Logf("sign-ins started: %q; could not start: %v; the last answer: %v", started, problem, err)
			if problem != nil {
				t.Fatalf("Windows' security package could not start the sign-in: %v", problem)
			}
			if len(started) != 1 {
				t.Errorf("the own sign-in started %d times, want once", len(started))
			}
			if c.works {
				if err != nil || px.Requests() != before+1 {
					t.Fatalf("signed in through SSPI: %v, %d requests through the proxy", err, px.Requests()-before)
				}
				return
			}
			if asked != 1 {
				t.Errorf("asked %d times after the refusal, want once", asked)
			}
			var e *SignInError
			if !errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || e.Fact().Code != fact.ProxyRefused || retryable(err) {
				t.Fatalf("a wrong password: %v, want the proxy's refusal, not sent again", err)
			}
			if !strings.Contains(err.Error(), "refused the sign-in") || !strings.Contains(err.Error(), px.Addr) {
				t.Errorf("the sentence: %v", err)
			}
		})
	}
}

// loudHandshake logs each message's kind, so a failure shows how far SSPI got.
type loudHandshake struct {
	h *sspiHandshake
	t *testing.T
}

func (l *loudHandshake) Next(challenge []byte) ([]byte, error) {
	token, err := l.h.Next(challenge)
	kind := "?"
	if len(token) >= 12 && strings.HasPrefix(string(token), "NTLMSSP\x00") {
		kind = fmt.Sprintf("NTLM message %d", token[8])
	}
	l.t.Logf("SSPI, given %d bytes: %d bytes (%s), %v", len(challenge), len(token), kind, err)
	return token, err
}

func (l *loudHandshake) Close() { l.h.Close() }
