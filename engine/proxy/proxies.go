package proxy

import (
	"context"
	"errors"
	"fmt"
	"hoist/internal/webaddr"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"
)

// Logins keeps the names and passwords of proxies (by host:port), each
// with the scheme the proxy asked for it in (Basic, NTLM or Negotiate; ""
// when unknown, as for one kept before schemes were): in the keychain,
// never in a log.
type Logins interface {
	Login(proxy string) (scheme, user, password string, ok bool)
	Keep(proxy, scheme, user, password string) error
	Forget(proxy string) error
}

// Ask asks the user, in the window or the terminal, for the name and
// password of a proxy that asks for a sign-in; ok is false when the user
// gives none (or no one can be asked).
type Ask func(ctx context.Context, proxy string, origin Origin) (user, password string, ok bool)

// Proxies chooses, for each request, the proxy the setting names (or none):
// the fixed one, or the PAC script's first way that answers. Loopback
// addresses — the sandbox — always go direct. The zero value goes direct.
type Proxies struct {
	Setting Setting
	// Problem is why the setting could not be used (the caller goes direct).
	Problem error
	// Logins are the names and passwords kept for proxies; nil means none.
	Logins Logins
	// Fetch gets the PAC script; nil means a client that goes direct.
	Fetch *http.Client
	// Environment is what the PAC script's helpers ask of the system.
	Environment Environment
	// Dial checks that a proxy answers before a request goes to it, when a
	// PAC script names more than one way; nil means a plain TCP dial.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// Notice hears, once, why the PAC script cannot be used: Hoist goes direct.
	Notice func(error)
	// Ask asks for a proxy's name and password, at most once per proxy
	// while Hoist runs; nil means no one is asked.
	Ask Ask
	// Detector finds the script's address when the setting is to detect
	// it automatically (WPAD); the zero value asks the system.
	Detector Detector

	mu      sync.Mutex
	fetchMu sync.Mutex // held while the PAC script is fetched
	pac     *PAC
	pacErr  error
	tried   time.Time            // when the script was last fetched
	noticed bool                 // Notice has been called
	answers map[string]answer    // recent answers, by scheme and host
	down    map[string]time.Time // proxies that did not answer, until when
	proxies map[string]bool      // every proxy handed out, by host:port
	via     map[string]string    // server host:port → the NTLM proxy its tunnel goes through
	own     ownSignIn            // the user's own sign-in (Windows), by proxy
	signIns                      // the logins and schemes of this run, by proxy
	wpad    *detection           // automatic detection's result, once it has run
}

type answer struct {
	ways []*url.URL
	at   time.Time
}

// How long answers and failures are remembered.
const (
	answerLife = time.Minute
	downLife   = time.Minute
	refetch    = 5 * time.Minute
	checkDial  = 5 * time.Second
)

// Find is the proxies of the setting f finds.
func Find(ctx context.Context, f Finder) *Proxies {
	s, err := f.Find(ctx)
	return &Proxies{Setting: s, Problem: err}
}

// Origin is where the setting in use comes from.
func (p *Proxies) Origin() Origin {
	if p == nil {
		return FromNowhere
	}
	return p.Setting.Origin
}

// Apply makes t send its requests through these proxies, and report a
// proxy that asks for a sign-in or does not answer as such. The returned
// transport also turns a plain-HTTP request's 407 into a *SignInError.
// A t with its own TLS dial (DialTLSContext) must make its connections
// with t.DialContext: through a proxy, that opens the tunnel (tunnel.go).
func (p *Proxies) Apply(t *http.Transport) http.RoundTripper {
	t.Proxy = p.Proxy
	var own *tunnels
	if t.DialTLSContext != nil {
		own = &tunnels{}
		t.Proxy = func(req *http.Request) (*url.URL, error) {
			u, err := p.Proxy(req)
			if err != nil || !ownTunnel(req, u) {
				own.route(webaddr.HostPort(req.URL), nil)
				return u, err
			}
			own.route(webaddr.HostPort(req.URL), u)
			return nil, nil // the dial to the server opens the tunnel
		}
	}
	t.OnProxyConnectResponse = func(ctx context.Context, u *url.URL, _ *http.Request, res *http.Response) error {
		if res.StatusCode == http.StatusProxyAuthRequired {
			return p.signIn(ctx, u, sentAs(u), res)
		}
		return nil
	}
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second}).DialContext
	}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		if host, scheme := p.tunnelFor(addr); scheme != "" {
			return p.tunnelNTLM(ctx, dial, host, scheme, addr)
		}
		if u := own.proxyFor(addr); u != nil {
			return p.tunnel(ctx, dial, u, addr)
		}
		c, err := dial(ctx, network, addr)
		if err != nil && p.isProxy(addr) {
			p.markDown(addr)
			return nil, &UnreachableError{Proxy: addr, Origin: p.Origin(), Err: err}
		}
		return c, err
	}
	return &refusals{base: t, p: p}
}

// refusals turns a proxy's 407 to a plain-HTTP request into an error, and
// a certificate from an unknown authority into one naming its issuer.
type refusals struct {
	base http.RoundTripper
	p    *Proxies
}

// RoundTrip sends req again, at once, when the proxy's question has just
// been answered (the user gave a login, or the own sign-in or another
// scheme is to be tried): the proxy stopped the request before any server
// saw it, so a sign-in's token exchange, which nothing above retries, goes
// on as the user expects. A request whose body cannot be read again is not
// sent again here; its caller retries it.
func (r *refusals) RoundTrip(req *http.Request) (*http.Response, error) {
	for round := 1; ; round++ {
		resp, err := r.once(req)
		var asked *AskedError
		if err == nil || round == signInRounds || !errors.As(err, &asked) {
			return resp, err
		}
		switch {
		case req.Body == nil || req.Body == http.NoBody:
		case req.GetBody != nil:
			body, berr := req.GetBody()
			if berr != nil {
				return nil, err
			}
			req = req.Clone(req.Context())
			req.Body = body
		default:
			return nil, err
		}
	}
}

// signInRounds bounds the attempts of one request against a proxy's
// questions: the user's own sign-in, a typed login, another scheme.
const signInRounds = 4

func (r *refusals) once(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err != nil {
		return nil, Untrusted(err)
	}
	if resp.StatusCode != http.StatusProxyAuthRequired {
		return resp, nil
	}
	u, _ := r.p.Proxy(req)
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return nil, r.p.signIn(req.Context(), u, sentAs(u), resp)
}

// signIn is what a proxy's 407 to a request that carried a login in scheme
// sent ("" for none) means: the user is asked once for a name and
// password, and the request may be sent again with them (a retryable
// error); otherwise a *SignInError, not retried. A refused login is
// forgotten, so the next run asks again.
func (p *Proxies) signIn(ctx context.Context, u *url.URL, sent string, res *http.Response) error {
	e := &SignInError{Origin: p.Origin(), Schemes: res.Header.Values("Proxy-Authenticate")}
	if u == nil {
		return e
	}
	e.Proxy = u.Host
	if p.own.offer(u.Host, e.Schemes) {
		return &AskedError{SignInError: e} // the next attempt signs in as the user, asking nothing
	}
	scheme := e.scheme()
	// A login sent in a scheme the proxy does not ask for, or none sent, is
	// not refused: the proxy has now said its scheme, and the next attempt
	// answers in it, with the login kept.
	moved := scheme != "" && !e.offers(sent)
	e.Proxy, e.Refused = u.Host, sent != "" && !moved
	if moved {
		if !p.follow(u.Host, scheme) {
			return e // it named another scheme before: not followed back and forth
		}
		if p.keepScheme(u.Host, scheme, p.Logins) {
			return &AskedError{SignInError: e}
		}
	} else if sent != "" {
		scheme = sent
	}
	if e.Refused {
		p.forget(u.Host, u.User, p.Logins)
	}
	if p.Ask == nil || scheme == "" {
		return e
	}
	p.askMu.Lock()
	defer p.askMu.Unlock()
	if l := p.cached(u.Host); l != nil && l.ok && (u.User == nil || u.User.Username() != l.user || !samePassword(u.User, l.password)) {
		return &AskedError{SignInError: e} // another request's question already brought a new login
	}
	if !p.firstQuestion(u.Host) {
		return e
	}
	user, password, ok := p.Ask(ctx, u.Host, p.Origin())
	if !ok {
		return e
	}
	p.give(u.Host, &login{user: user, password: password, ok: true, scheme: scheme})
	if p.Logins != nil {
		_ = p.Logins.Keep(u.Host, scheme, user, password) // kept for this run at least
	}
	return &AskedError{SignInError: e}
}

func samePassword(u *url.Userinfo, password string) bool {
	p, _ := u.Password()
	return p == password
}

// AskedError says the proxy asked for a sign-in and the user has just given
// one: the request may be sent again.
type AskedError struct{ *SignInError }

// Retryable is true: the next attempt carries the name and password given.
func (e *AskedError) Retryable() bool { return true }

// Unwrap is the proxy's request for a sign-in.
func (e *AskedError) Unwrap() error { return e.SignInError }

// Proxy is the proxy req goes through, or nil for direct: the signature of
// http.Transport's Proxy.
func (p *Proxies) Proxy(req *http.Request) (*url.URL, error) {
	u, err := p.choose(req)
	if err != nil || p == nil || p.throughNTLM(req, u) {
		return nil, err // an NTLM proxy's tunnel is opened by the dial
	}
	return u, nil
}

// choose is the proxy req goes through, or nil for direct.
func (p *Proxies) choose(req *http.Request) (*url.URL, error) {
	if p == nil || loopback(req.URL.Hostname()) {
		return nil, nil
	}
	ways, err := p.ways(req.Context(), req.URL)
	if err != nil || len(ways) == 0 {
		return nil, err
	}
	chosen := ways[len(ways)-1]
	for _, w := range ways[:len(ways)-1] {
		if w == nil || p.takes(req.Context(), w.Host) {
			chosen = w
			break
		}
	}
	if chosen == nil {
		return nil, nil
	}
	u := *chosen
	p.mu.Lock()
	if p.proxies == nil {
		p.proxies = map[string]bool{}
	}
	p.proxies[u.Host] = true
	p.mu.Unlock()
	if l := p.login(u.Host, p.Logins); l.ok && p.takesBasic(u.Host) {
		u.User = url.UserPassword(l.user, l.password)
	}
	if u.User == nil && p.Setting.Mode == Manual && p.Setting.User != "" {
		u.User = url.UserPassword(p.Setting.User, p.Setting.Password)
	}
	return &u, nil
}

// ways are the ways to try for u, in order (nil: direct).
func (p *Proxies) ways(ctx context.Context, u *url.URL) ([]*url.URL, error) {
	switch p.Setting.Mode {
	case Manual:
		w, err := p.Setting.manual(u)
		if err != nil {
			return nil, err
		}
		return []*url.URL{w}, nil
	case Script:
		if bypassed(p.Setting.Bypass, u.Hostname()) || p.isScript(u) {
			return nil, nil
		}
		return p.scriptWays(ctx, u)
	}
	return nil, nil
}

// isScript reports whether u is the PAC script's own address, fetched direct.
func (p *Proxies) isScript(u *url.URL) bool {
	s, err := url.Parse(p.Current().PAC)
	return err == nil && s.Host != "" && strings.EqualFold(s.Host, u.Host)
}

func (p *Proxies) scriptWays(ctx context.Context, u *url.URL) ([]*url.URL, error) {
	key := u.Scheme + "://" + u.Host
	p.mu.Lock()
	if a, ok := p.answers[key]; ok && time.Since(a.at) < answerLife {
		p.mu.Unlock()
		return a.ways, nil
	}
	p.mu.Unlock()
	pac := p.script(ctx)
	if pac == nil {
		return nil, nil // as Windows does: no script, direct
	}
	// Browsers give https addresses to the script without their path.
	address := u.String()
	if u.Scheme == "https" {
		address = u.Scheme + "://" + u.Host + "/"
	}
	text, err := pac.FindProxyForURL(ctx, address, u.Hostname())
	var ways []*url.URL
	if err == nil {
		ways, err = ParseAnswer(text)
	}
	if err != nil {
		p.notice(&PACError{Address: p.Current().PAC, Origin: p.Setting.Origin, Err: err})
		return nil, nil
	}
	p.mu.Lock()
	if p.answers == nil {
		p.answers = map[string]answer{}
	}
	p.answers[key] = answer{ways: ways, at: time.Now()}
	p.mu.Unlock()
	return ways, nil
}

// script is the PAC script, fetched once (again after a while when it could
// not be); nil when there is none to run.
func (p *Proxies) script(ctx context.Context) *PAC {
	p.fetchMu.Lock() // one fetch at a time; the others wait for its script
	defer p.fetchMu.Unlock()
	p.mu.Lock()
	if p.pac != nil || (!p.tried.IsZero() && time.Since(p.tried) < refetch) {
		pac := p.pac
		p.mu.Unlock()
		return pac
	}
	p.tried = time.Now()
	p.mu.Unlock()
	// Fetched without holding p.mu: a slow server must not hold up direct connections.
	address, err := p.scriptAddress(ctx)
	var text string
	if err == nil {
		text, err = p.fetch(ctx, address)
	}
	var pac *PAC
	if err == nil {
		pac, err = Compile(text, p.Environment)
	}
	if err != nil {
		problem := &PACError{Address: address, Origin: p.Setting.Origin, Err: err}
		p.mu.Lock()
		p.pacErr = problem
		p.mu.Unlock()
		p.notice(problem)
		return nil
	}
	p.mu.Lock()
	p.pac, p.pacErr = pac, nil
	p.mu.Unlock()
	return pac
}

func (p *Proxies) fetch(ctx context.Context, address string) (string, error) {
	u, err := url.Parse(address)
	if err != nil {
		return "", err
	}
	if u.Scheme == "file" {
		data, err := os.ReadFile(u.Path)
		if err != nil {
			return "", err
		}
		return string(data), nil
	}
	client := p.Fetch
	if client == nil {
		client = &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{Proxy: nil}}
	}
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("the server answered %s", resp.Status)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxScriptSize+1))
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// notice tells Notice of err, the first time only.
func (p *Proxies) notice(err error) {
	p.mu.Lock()
	first := !p.noticed && p.Notice != nil
	if first {
		p.noticed = true
	}
	p.mu.Unlock()
	if first {
		p.Notice(err)
	}
}

// PACProblem is why the PAC script could not be used, or nil.
func (p *Proxies) PACProblem() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pacErr
}

// takes reports whether a proxy takes a connection, remembering one that
// does not for a while.
func (p *Proxies) takes(ctx context.Context, addr string) bool {
	p.mu.Lock()
	until, isDown := p.down[addr]
	p.mu.Unlock()
	if isDown && time.Now().Before(until) {
		return false
	}
	dial := p.Dial
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	ctx, cancel := context.WithTimeout(ctx, checkDial)
	defer cancel()
	c, err := dial(ctx, "tcp", addr)
	if err != nil {
		p.markDown(addr)
		return false
	}
	c.Close()
	return true
}

func (p *Proxies) markDown(addr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down == nil {
		p.down = map[string]time.Time{}
	}
	p.down[addr] = time.Now().Add(downLife)
}

func (p *Proxies) isProxy(addr string) bool {
	if p == nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.proxies[addr]
}

// InUse is the proxy a request to address would go through now ("" for
// direct) and where its setting came from, for Settings.
func (p *Proxies) InUse(ctx context.Context, address string) (string, Origin) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, address, nil)
	if err != nil || p == nil {
		return "", FromNowhere
	}
	u, err := p.choose(req)
	if err != nil || u == nil {
		return "", p.Origin()
	}
	return u.Host, p.Origin()
}
