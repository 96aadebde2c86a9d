// Package testproxy is for tests only: an office proxy on loopback that
// forwards plain HTTP requests and tunnels CONNECT, may ask for a sign-in
// (Basic or NTLM), and knows host names no one else resolves, so a request that
// reaches such a name proves it went through the proxy.
package testproxy

import (
	"bufio"
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Proxy is a running proxy.
type Proxy struct {
	// Addr is its host:port on 127.0.0.1.
	Addr string

	user, password string
	ntlm           *ntlmAccount      // set: the proxy asks for NTLM instead of Basic
	hosts          map[string]string // name → host:port only the proxy knows
	ln             net.Listener
	wg             sync.WaitGroup

	requests atomic.Int64 // requests and tunnels served
	refused  atomic.Int64 // answered 407
	mu       sync.Mutex
	conns    map[net.Conn]bool
	said     []string // every Proxy-Authorization received, in order
	early    []string // those received before the proxy first asked
	asked    bool     // the proxy has asked for a sign-in (a 407)
}

// Option sets a proxy up.
type Option func(*Proxy)

// WithLogin makes the proxy ask for this name and password (Basic).
func WithLogin(user, password string) Option {
	return func(p *Proxy) { p.user, p.password = user, password }
}

// WithHost makes name (a host name no one else resolves) lead to addr.
func WithHost(name, addr string) Option {
	return func(p *Proxy) { p.hosts[strings.ToLower(name)] = addr }
}

// Start runs a proxy until the test ends.
func Start(t testing.TB, opts ...Option) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{Addr: ln.Addr().String(), hosts: map[string]string{}, ln: ln, conns: map[net.Conn]bool{}}
	for _, o := range opts {
		o(p)
	}
	p.wg.Add(1)
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Requests is how many requests and tunnels the proxy let through.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Refused is how many times it asked for a sign-in.
func (p *Proxy) Refused() int64 { return p.refused.Load() }

// Authorizations is every Proxy-Authorization header the proxy received,
// in the order it received them: a test sees which scheme a name and
// password went out in, and that none went out before the proxy asked.
func (p *Proxy) Authorizations() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.said...)
}

// SentBeforeAsked is every Proxy-Authorization header the proxy received
// before it first asked for a sign-in: a login that went out unasked.
func (p *Proxy) SentBeforeAsked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.early...)
}

// Close stops the proxy and every connection through it.
func (p *Proxy) Close() {
	p.ln.Close()
	p.mu.Lock()
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	p.wg.Wait()
}

func (p *Proxy) track(c net.Conn, on bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if on {
		if p.conns == nil {
			return false // closed
		}
		p.conns[c] = true
	} else {
		delete(p.conns, c)
	}
	return true
}

func (p *Proxy) serve() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.track(c, true)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer p.track(c, false)
			defer c.Close()
			p.handle(c)
		}()
	}
}

func (p *Proxy) resolve(hostport string) string {
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		h, port = hostport, "80"
	}
	if a, ok := p.hosts[strings.ToLower(h)]; ok {
		return a
	}
	return net.JoinHostPort(h, port)
}

func (p *Proxy) allowed(r *http.Request) bool {
	if p.user == "" {
		return true
	}
	auth := r.Header.Get("Proxy-Authorization")
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(p.user+":"+p.password))
	return auth == want
}

func (p *Proxy) handle(c net.Conn) {
	br := bufio.NewReader(c)
	var st ntlmState
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if v := req.Header.Values("Proxy-Authorization"); len(v) > 0 {
			p.mu.Lock()
			p.said = append(p.said, v...)
			if !p.asked {
				p.early = append(p.early, v...)
			}
			p.mu.Unlock()
		}
		ok, ask := p.allowed(req), "Proxy-Authenticate: Basic realm=\"office\"\r\n"
		if p.ntlm != nil {
			ok, ask = p.ntlm.check(req, &st)
		}
		if !ok {
			if st.challenge == nil {
				p.refused.Add(1) // a challenge is the handshake going on, not a refusal
			}
			p.mu.Lock()
			p.asked = true
			p.mu.Unlock()
			_, _ = io.Copy(io.Discard, req.Body)
			_, _ = io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\n"+ask+"Content-Length: 0\r\n\r\n")
			continue
		}
		p.requests.Add(1)
		if req.Method == http.MethodConnect {
			p.tunnel(c, br, req.Host)
			return
		}
		if !p.forward(c, req) {
			return
		}
	}
}

func (p *Proxy) tunnel(c net.Conn, br *bufio.Reader, host string) {
	up, err := net.Dial("tcp", p.resolve(host))
	if err != nil {
		_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return
	}
	if !p.track(up, true) {
		up.Close()
		return
	}
	defer p.track(up, false)
	defer up.Close()
	_, _ = io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(up, br)
		if tc, ok := up.(*net.TCPConn); ok {
			_ = tc.CloseWrite()
		}
	}()
	_, _ = io.Copy(c, up)
	c.Close()
	<-done
}

// forward sends a plain request on and its answer back; false ends the connection.
func (p *Proxy) forward(c net.Conn, req *http.Request) bool {
	up, err := net.Dial("tcp", p.resolve(req.URL.Host))
	if err != nil {
		_, _ = io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return false
	}
	defer up.Close()
	req.Header.Del("Proxy-Authorization")
	req.Header.Del("Proxy-Connection")
	req.RequestURI = ""
	if err := req.Write(up); err != nil {
		return false
	}
	resp, err := http.ReadResponse(bufio.NewReader(up), req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	resp.Close = true // one upstream connection per request: simple and enough
	_ = resp.Write(c)
	return false
}
