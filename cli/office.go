package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"hoist/auth"
	"hoist/dirs"
	"hoist/engine/fact"
	"hoist/engine/proxy"
	"hoist/words"
)

// officeNets are the office networks this process found, by the setting in
// force: commands that find the same setting share its proxies (what was
// asked, the PAC script fetched), and a setting changed meanwhile is found
// anew.
var officeNets sync.Map // string → *proxy.Proxies

// office is the office network's proxies as the system sets them now:
// found where the system keeps them, their problems said once on stderr,
// their sign-in asked once on the terminal and kept in the keychain.
func office(ctx context.Context, l *words.Lang, stderr io.Writer) *proxy.Proxies {
	s, problem := proxy.Finder{SystemDir: dirs.System()}.Find(ctx)
	key := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%q", s.Origin, s.Where, s.HTTP, s.HTTPS, s.SOCKS, s.PAC, s.Bypass)
	if p, ok := officeNets.Load(key); ok {
		return p.(*proxy.Proxies)
	}
	var once sync.Once
	sayOnce := func(err error) {
		once.Do(func() {
			if f, ok := err.(interface{ Fact() fact.Fact }); ok {
				fmt.Fprintln(stderr, visible(l.Fact(f.Fact())))
			}
		})
	}
	p := &proxy.Proxies{Setting: s, Problem: problem, Logins: auth.ProxyLogins{}, Notice: sayOnce}
	if problem != nil {
		sayOnce(problem)
	}
	if isTerminal(os.Stdin) && isTerminal(stderr) {
		p.Ask = func(ctx context.Context, at string, from proxy.Origin) (string, string, bool) {
			return askProxyLogin(l, stderr, at, from)
		}
	}
	actual, _ := officeNets.LoadOrStore(key, p)
	return actual.(*proxy.Proxies)
}

// askProxyLogin asks on the terminal for the proxy's name and password (the
// password not shown as it is typed).
func askProxyLogin(l *words.Lang, stderr io.Writer, at string, from proxy.Origin) (user, password string, ok bool) {
	fmt.Fprintln(stderr)
	say(stderr, l, "proxy.ask", words.Args{"Proxy": l.Isolate(at), "From": l.ProxyOrigin(string(from))})
	fmt.Fprint(stderr, l.Say("proxy.user", nil))
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	user = strings.TrimSpace(line)
	if err != nil || user == "" {
		return "", "", false
	}
	fmt.Fprint(stderr, l.Say("proxy.password", nil))
	pw, err := term.ReadPassword(int(os.Stdin.Fd()))
	fmt.Fprintln(stderr)
	if err != nil {
		return "", "", false
	}
	return user, string(pw), true
}

// signInClient is the client of the sign-in's token requests, through the
// office network's proxies as found when it sends.
func signInClient(stderr io.Writer) *http.Client {
	return &http.Client{Timeout: 60 * time.Second, Transport: &throughOffice{stderr: stderr}}
}

// throughOffice sends each request through the office network found at
// the time, over a transport of each network's own.
type throughOffice struct {
	stderr io.Writer
	mu     sync.Mutex
	by     map[*proxy.Proxies]http.RoundTripper
}

func (o *throughOffice) RoundTrip(req *http.Request) (*http.Response, error) {
	p := office(req.Context(), lang(), o.stderr)
	o.mu.Lock()
	if o.by == nil {
		o.by = map[*proxy.Proxies]http.RoundTripper{}
	}
	rt, ok := o.by[p]
	if !ok {
		rt = p.Apply(http.DefaultTransport.(*http.Transport).Clone())
		o.by[p] = rt
	}
	o.mu.Unlock()
	return rt.RoundTrip(req)
}
