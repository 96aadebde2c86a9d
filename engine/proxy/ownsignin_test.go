package proxy

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"hoist/engine/fact"
	"hoist/internal/testproxy"
	"hoist/internal/webaddr"
)

// asWindows stands for the user's own Windows sign-in: NTLM's messages made
// with the account's name and password, as the system would make them, and
// a count of the sign-ins started.
type asWindows struct {
	user, password string
	fail           error // the system could not start the sign-in

	mu      sync.Mutex
	started []string // scheme and proxy of each sign-in started
	closed  atomic.Int64
}

func (w *asWindows) start(scheme, proxy string) (handshake, error) {
	w.mu.Lock()
	w.started = append(w.started, scheme+" "+proxy)
	w.mu.Unlock()
	if w.fail != nil {
		return nil, w.fail
	}
	return &closing{typedNTLM: &typedNTLM{user: w.user, password: w.password}, closed: &w.closed}, nil
}

func (w *asWindows) starts() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.started...)
}

type closing struct {
	*typedNTLM
	closed *atomic.Int64
}

func (c *closing) Close() { c.closed.Add(1) }

// mustNotAsk fails the test if the user is asked anything.
func mustNotAsk(t *testing.T) Ask {
	return func(context.Context, string, Origin) (string, string, bool) {
		t.Error("the user was asked for a name and password")
		return "", "", false
	}
}

// firstMayRetry sends the first request: the proxy's question may make it
// fail with an error that says it may be sent again.
func firstMayRetry(t *testing.T, c *http.Client, address string) {
	t.Helper()
	if _, err := get(c, address); err != nil {
		var retry interface{ Retryable() bool }
		if !errors.As(err, &retry) || !retry.Retryable() {
			t.Fatalf("first attempt: %v, want one that may be sent again", err)
		}
	}
}

// TestOwnSignInFirst: a proxy that offers Negotiate (and NTLM) is answered
// with the user's own sign-in under Negotiate, for the service HTTP/<proxy>
// on one connection; the user is asked nothing and nothing is kept.
func TestOwnSignInFirst(t *testing.T) {
	plain, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"),
		testproxy.WithHost(onlyThroughProxy, plain.Listener.Addr().String()), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	for _, address := range []string{"https://secure." + onlyThroughProxy + "/", "http://" + onlyThroughProxy + "/"} {
		t.Run(address, func(t *testing.T) {
			w := &asWindows{user: `OFFICE\ali`, password: "s3cret"}
			kept := logins{}
			p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, Logins: kept, Ask: mustNotAsk(t), own: ownSignIn{start: w.start}}
			c := client(p, secure)
			firstMayRetry(t, c, address)
			for range 2 {
				if got, err := get(c, address); err != nil || got != "200 OK hello" {
					t.Fatalf("signed in as the user: %q, %v", got, err)
				}
			}
			if s := w.starts(); len(s) == 0 || s[0] != "Negotiate "+px.Addr {
				t.Errorf("sign-ins started: %q, want Negotiate at %s", s, px.Addr)
			}
			if int(w.closed.Load()) != len(w.starts()) {
				t.Errorf("%d sign-ins started, %d freed", len(w.starts()), w.closed.Load())
			}
			if len(kept) != 0 {
				t.Errorf("kept %v; the user's own sign-in keeps nothing", kept)
			}
		})
	}
}

// TestOwnSignInRefusedAsksOnce: when the proxy refuses the user's own
// sign-in, the name and password are asked for once (several requests at
// once included) and NTLM goes on with them; the own sign-in is not tried
// again, and a wrong typed password is refused, never in a loop.
func TestOwnSignInRefusedAsksOnce(t *testing.T) {
	_, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	address := "https://secure." + onlyThroughProxy + "/"
	for _, c := range []struct {
		name, typed string
		works       bool
	}{{"right typed", "s3cret", true}, {"wrong typed", "guess", false}} {
		t.Run(c.name, func(t *testing.T) {
			w := &asWindows{user: `OFFICE\other`, password: "s3cret"}
			var asked atomic.Int64
			p := &Proxies{Setting: Setting{Origin: FromWindowsPolicy, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, Logins: logins{}, own: ownSignIn{start: w.start},
				Ask: func(_ context.Context, proxy string, o Origin) (string, string, bool) {
					asked.Add(1)
					if proxy != px.Addr || o != FromWindowsPolicy {
						t.Errorf("asked about %s (%s)", proxy, o)
					}
					return `OFFICE\ali`, c.typed, true
				}}
			cl := client(p, secure)
			before := px.Refused()
			var err error
			for range 4 { // as an upload sends again what may be sent again
				if _, err = get(cl, address); err == nil || !retryable(err) {
					break
				}
			}
			if c.works {
				if err != nil {
					t.Fatalf("after the own sign-in's refusal and the typed password: %v", err)
				}
			} else {
				var e *SignInError
				if !errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || e.Fact().Code != fact.ProxyRefused || retryable(err) {
					t.Fatalf("a wrong typed password: %v, want the proxy's refusal, not sent again", err)
				}
			}
			for range 3 {
				_, err = get(cl, address)
				if c.works != (err == nil) {
					t.Fatalf("again: %v", err)
				}
			}
			if s := w.starts(); len(s) != 1 {
				t.Errorf("the own sign-in started %d times (%q), want once", len(s), s)
			}
			if asked.Load() != 1 {
				t.Errorf("asked %d times, want once", asked.Load())
			}
			want := int64(1) // the own sign-in's refusal
			if !c.works {
				want = 2 // and the typed password's, once
			}
			if n := px.Refused() - before; n != want+1 { // and the first question
				t.Errorf("the proxy refused %d times, want %d (no loop)", n, want+1)
			}
		})
	}
}

func retryable(err error) bool {
	var retry interface{ Retryable() bool }
	return errors.As(err, &retry) && retry.Retryable()
}

// TestOwnSignInRefusedNoOneToAsk: with no one to ask (the command line
// without a terminal), the refusal of the user's own sign-in is said,
// naming the proxy, and not sent again.
func TestOwnSignInRefusedNoOneToAsk(t *testing.T) {
	_, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	w := &asWindows{user: `OFFICE\ali`, password: "guess"}
	p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, own: ownSignIn{start: w.start}}
	c := client(p, secure)
	address := "https://secure." + onlyThroughProxy + "/"
	_, err := get(c, address) // the own sign-in is tried at once after the question, and refused
	var e *SignInError
	if !errors.As(err, &e) || !e.Refused || e.Proxy != px.Addr || e.Origin != FromWindows || retryable(err) {
		t.Fatalf("the own sign-in refused: %v, want the proxy's refusal, not sent again", err)
	}
	if f := e.Fact(); f.Code != fact.ProxyRefused || f.Arg("proxy") != px.Addr {
		t.Errorf("fact %+v", f)
	}
	if strings.Contains(err.Error(), "guess") {
		t.Errorf("the error shows the password: %v", err)
	}
	for range 2 {
		if _, err := get(c, address); !errors.As(err, &e) || retryable(err) {
			t.Errorf("again: %v, want the proxy's question", err)
		}
	}
	if s := w.starts(); len(s) != 1 {
		t.Errorf("the own sign-in started %d times, want once", len(s))
	}
}

// TestOwnSignInCannotStart: when the system cannot sign in as the user (no
// domain account), the name and password are asked for once instead.
func TestOwnSignInCannotStart(t *testing.T) {
	_, secure := servers(t)
	px := testproxy.Start(t, testproxy.WithNTLM("OFFICE", "ali", "s3cret"), testproxy.WithHost("secure."+onlyThroughProxy, secure.Listener.Addr().String()))
	cannot := errors.New("no credentials are available in the security package")
	w := &asWindows{fail: cannot}
	var asked atomic.Int64
	p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTP: px.Addr, HTTPS: px.Addr}, own: ownSignIn{start: w.start},
		Ask: func(context.Context, string, Origin) (string, string, bool) {
			asked.Add(1)
			return "ali@office", "s3cret", true
		}}
	c := client(p, secure)
	address := "https://secure." + onlyThroughProxy + "/"
	var err error
	for range 4 {
		if _, err = get(c, address); err == nil || !retryable(err) {
			break
		}
	}
	if err != nil || asked.Load() != 1 || len(w.starts()) != 1 {
		t.Errorf("got %v, asked %d times, own sign-in started %d times; want it to work, asked once, started once", err, asked.Load(), len(w.starts()))
	}
	if !errors.Is(p.own.problem(px.Addr), cannot) {
		t.Errorf("why the own sign-in could not start: %v", p.own.problem(px.Addr))
	}
}

// TestOwnSignInChosen: the user's own sign-in answers a proxy that offers
// Negotiate or NTLM, even beside Basic, once per proxy; after its refusal a
// proxy that takes Basic gets the typed name and password as Basic again.
// Where the system has no own sign-in nothing changes.
func TestOwnSignInChosen(t *testing.T) {
	for _, c := range []struct {
		offers []string
		want   string
	}{
		{[]string{"NTLM"}, "NTLM"},
		{[]string{"NTLM", "Negotiate"}, "Negotiate"},
		{[]string{"negotiate abc="}, "Negotiate"},
		{[]string{`Basic realm="office"`, "Negotiate"}, "Negotiate"},
		{[]string{`Basic realm="office"`}, ""},
		{[]string{"Digest realm=x"}, ""},
		{nil, ""},
	} {
		if got := ownScheme(c.offers); got != c.want {
			t.Errorf("%q: %q, want %q", c.offers, got, c.want)
		}
	}

	u := &url.URL{Scheme: "http", Host: "proxy.corp:8080"}
	res := &http.Response{Header: http.Header{"Proxy-Authenticate": {`Basic realm="office"`, "Negotiate"}}}
	w := &asWindows{}
	p := &Proxies{Setting: Setting{Origin: FromWindows, Mode: Manual, HTTP: u.Host, HTTPS: u.Host}, own: ownSignIn{start: w.start},
		Ask: func(context.Context, string, Origin) (string, string, bool) { return "ali", "s3cret", true }}
	for range 2 { // asked again while the own sign-in is on its way: still the own sign-in
		if err := p.signIn(context.Background(), u, "", res); !retryable(err) || p.own.using(u.Host) != "Negotiate" {
			t.Fatalf("first question: %v, using %q; want the own sign-in under Negotiate", err, p.own.using(u.Host))
		}
	}
	req, _ := http.NewRequest(http.MethodGet, "https://storage.googleapis.com/upload", nil)
	if host, scheme := p.tunnelFor(webaddr.HostPort(req.URL)); host != "" || scheme != "" {
		t.Errorf("a tunnel before any request: %s %s", host, scheme)
	}
	through := p.throughNTLM(req, u)
	if host, scheme := p.tunnelFor(webaddr.HostPort(req.URL)); !through || host != u.Host || scheme != "Negotiate" {
		t.Errorf("the own sign-in's tunnel: %v %q %q", through, host, scheme)
	}
	if err := p.ownRefused(context.Background(), u, nil); !retryable(err) || p.own.using(u.Host) != "" {
		t.Fatalf("after the refusal: %v, using %q; want the typed login next", err, p.own.using(u.Host))
	}
	if got, err := p.Proxy(req); err != nil || got == nil || got.Host != u.Host {
		t.Errorf("after the refusal the request goes through %v, %v; want Go's own proxy path with Basic", got, err)
	}
	_ = p.signIn(context.Background(), u, "", res)
	if p.own.using(u.Host) != "" {
		t.Error("the own sign-in was offered again after its refusal")
	}

	if systemSignIn != nil {
		return // Windows: the system's own sign-in is always offered
	}
	elsewhere := &Proxies{Setting: Setting{Origin: FromGNOME}}
	if err := elsewhere.signIn(context.Background(), u, "", res); retryable(err) || elsewhere.own.using(u.Host) != "" {
		t.Errorf("without an own sign-in: %v", err)
	}
}
