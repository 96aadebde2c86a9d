package proxy

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"hoist/engine/fact"
	"hoist/internal/testproxy"
)

// TestNTLMProxySignIn: a proxy that asks for NTLM gets the three messages on
// one connection, signed with the name (domain\user or user@domain) and
// password kept for it; the proxy checks NTLMv2's proof for real.
func TestNTLMProxySignIn(t *testing.T) {
	o := officeProxy(t, FromWindows, testproxy.WithNTLM("office.example", "ali", "s3cret"))
	px := o.px
	for _, name := range []string{`OFFICE.EXAMPLE\ali`, "ali@office.example"} {
		for _, address := range []string{o.secureURL, o.plainURL} {
			t.Run(name+" "+address, func(t *testing.T) {
				kept := logins{px.Addr: {"", name, "s3cret"}}
				p, c := o.run(kept, nil)
				// The first attempt learns that the proxy asks for NTLM; the next signs in with it.
				if _, err := get(c, address); err != nil {
					var retry interface{ Retryable() bool }
					if !errors.As(err, &retry) || !retry.Retryable() {
						t.Fatalf("first attempt: %v, want one that may be sent again", err)
					}
				}
				for range 2 {
					if got, err := get(c, address); err != nil || got != "200 OK hello" {
						t.Fatalf("signed in with NTLM: %q, %v", got, err)
					}
				}
				if _, ok := kept[px.Addr]; !ok {
					t.Error("the login that works was forgotten")
				}
				if u, _ := p.InUse(context.Background(), address); u != px.Addr {
					t.Errorf("in use: %q, want %s", u, px.Addr)
				}
			})
		}
	}
}

// TestNTLMProxySignInAskedOnce: the name and password are asked once and
// kept; a wrong password is refused with the sentence naming the proxy,
// forgotten, and never tried in a loop.
func TestNTLMProxySignInAskedOnce(t *testing.T) {
	o := officeProxy(t, FromGNOME, testproxy.WithNTLM("OFFICE", "ali", "s3cret"))
	px, address := o.px, o.secureURL
	for _, c := range []struct {
		name, password string
		works          bool
	}{{"right", "s3cret", true}, {"wrong", "guess", false}} {
		t.Run(c.name, func(t *testing.T) {
			var asked atomic.Int64
			kept := logins{}
			_, cl := o.run(kept, o.answers(t, &asked, `OFFICE\ali`, c.password))
			// Several at once meet the question and go on with the login
			// given; with a wrong password one goes on to the refusal.
			at := 4
			if !c.works {
				at = 1
			}
			before := px.Refused()
			errs := make(chan error, at)
			for range at {
				go func() { _, err := get(cl, address); errs <- err }()
			}
			var err error
			for range at {
				if e := <-errs; e != nil {
					err = e
				}
			}
			got := ""
			if c.works {
				if err != nil {
					t.Errorf("the first requests: %v, want them through once the login is given", err)
				}
				got, err = get(cl, address)
			}
			if c.works {
				if err != nil || got != "200 OK hello" || kept[px.Addr] != [3]string{"NTLM", `OFFICE\ali`, "s3cret"} {
					t.Errorf("after the sign-in: %q, %v; kept %v", got, err, kept)
				}
			} else {
				var e *SignInError
				if !errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || e.Fact().Code != fact.ProxyRefused {
					t.Fatalf("a wrong password: %v, want the proxy's refusal", err)
				}
				var retry interface{ Retryable() bool }
				if errors.As(err, &retry) && retry.Retryable() {
					t.Error("a refused password would be sent again")
				}
				if strings.Contains(err.Error(), "guess") {
					t.Errorf("the error shows the password: %v", err)
				}
				if _, ok := kept[px.Addr]; ok {
					t.Error("the refused password is still kept")
				}
				for range 3 {
					if _, err = get(cl, address); !errors.As(err, &e) || e.Refused {
						t.Errorf("after the refusal: %v, want the proxy's question, not asked again", err)
					}
				}
				if n := px.Refused() - before; n != 2 {
					t.Errorf("the proxy asked or refused %d times, want twice: its question, then the refusal (no loop)", n)
				}
			}
			if asked.Load() != 1 {
				t.Errorf("asked %d times, want once", asked.Load())
			}
		})
	}
}

// TestNTLMSchemeChosen: NTLM's messages go to a proxy that offers NTLM, or
// Negotiate alone; a proxy that takes Basic gets Basic.
func TestNTLMSchemeChosen(t *testing.T) {
	for _, c := range []struct {
		offers []string
		want   string
	}{
		{[]string{"NTLM"}, "NTLM"},
		{[]string{"Negotiate", "NTLM"}, "NTLM"},
		{[]string{"negotiate"}, "Negotiate"},
		{[]string{`Basic realm="office"`, "NTLM"}, ""},
		{nil, ""},
		{[]string{"Digest realm=x"}, ""},
	} {
		if got := (&SignInError{Schemes: c.offers}).ntlmScheme(); got != c.want {
			t.Errorf("%q: %q, want %q", c.offers, got, c.want)
		}
	}
}
