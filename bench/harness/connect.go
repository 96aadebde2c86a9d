package harness

import (
	"encoding/base64"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// connectProxy is an office proxy on loopback as browsers and curl meet
// one: it opens a tunnel (CONNECT) to the server a client names and copies
// bytes both ways, knowing nothing of what goes through it. It knows host
// names no one else resolves, so an upload that reaches such a name went
// through it; it may ask for a sign-in (Basic). It counts the tunnels it
// opened: one per connection a client makes through it.
type connectProxy struct {
	URL   string // http://127.0.0.1:port
	Addr  string // 127.0.0.1:port
	ln    net.Listener
	srv   *http.Server
	hosts map[string]string // lower-case host name → the address it leads to
	login string            // "Basic …" to ask for; "" asks for none

	connects atomic.Int64 // tunnels opened
	refused  atomic.Int64 // answered 407
	mu       sync.Mutex
	tunnels  map[net.Conn]struct{} // both ends of every open tunnel
	wg       sync.WaitGroup        // the tunnels' copies
}

// startConnectProxy runs a CONNECT proxy on 127.0.0.1 where each name of
// hosts leads to its address; with user set it asks for that name and
// password (Basic).
func startConnectProxy(hosts map[string]string, user, password string) (*connectProxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &connectProxy{Addr: ln.Addr().String(), ln: ln, hosts: map[string]string{}, tunnels: map[net.Conn]struct{}{}}
	p.URL = "http://" + p.Addr
	for name, addr := range hosts {
		p.hosts[strings.ToLower(name)] = addr
	}
	if user != "" {
		p.login = "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// close stops the proxy, ends every tunnel and waits for their copies.
func (p *connectProxy) close() {
	_ = p.srv.Close() // closes the listener; hijacked connections are the proxy's own
	p.mu.Lock()
	for c := range p.tunnels {
		_ = c.Close()
	}
	p.tunnels = nil
	p.mu.Unlock()
	p.wg.Wait()
}

// Connects is how many tunnels the proxy has opened.
func (p *connectProxy) Connects() int64 { return p.connects.Load() }

// resetCounts starts counting afresh for a run.
func (p *connectProxy) resetCounts() {
	p.connects.Store(0)
	p.refused.Store(0)
}

// ServeHTTP answers CONNECT with a tunnel; any other request (a proxy's
// plain-HTTP forwarding, which no case here needs) with 405.
func (p *connectProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.login != "" && r.Header.Get("Proxy-Authorization") != p.login {
		p.refused.Add(1)
		w.Header().Set("Proxy-Authenticate", `Basic realm="office"`)
		w.WriteHeader(http.StatusProxyAuthRequired)
		return
	}
	if r.Method != http.MethodConnect {
		http.Error(w, "this proxy only tunnels (CONNECT)", http.StatusMethodNotAllowed)
		return
	}
	up, err := net.DialTimeout("tcp", p.resolve(r.Host), 10*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		http.Error(w, "no hijacking", http.StatusInternalServerError)
		return
	}
	c, rw, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if !p.track(c, up) {
		return // closing
	}
	p.connects.Add(1)
	_, err = io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
	// Bytes the client sent after its request, before the answer (none
	// from a client that waits for it, as every one here does).
	if n := rw.Reader.Buffered(); err == nil && n > 0 {
		b, _ := rw.Reader.Peek(n)
		_, err = up.Write(b)
	}
	if err != nil {
		p.untrack(c, up)
		return
	}
	// From here on the proxy copies between the two sockets directly: as
	// a real proxy, it reads and writes large blocks (the kernel's splice
	// on Linux), and does not stand out as the slowest part of the path.
	p.wg.Add(2)
	go func() {
		defer p.wg.Done()
		_, _ = io.Copy(up, c)
		closeWriteTCP(up)
	}()
	go func() {
		defer p.wg.Done()
		defer p.untrack(c, up)
		// The server closes after the client did, or on its own: either
		// way the tunnel is over.
		_, _ = io.Copy(c, up)
	}()
}

// closeWriteTCP says the end of what goes to c's peer.
func closeWriteTCP(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.CloseWrite()
	}
}

func (p *connectProxy) track(c, up net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tunnels == nil {
		_ = c.Close()
		_ = up.Close()
		return false
	}
	p.tunnels[c], p.tunnels[up] = struct{}{}, struct{}{}
	return true
}

func (p *connectProxy) untrack(c, up net.Conn) {
	p.mu.Lock()
	if p.tunnels != nil {
		delete(p.tunnels, c)
		delete(p.tunnels, up)
	}
	p.mu.Unlock()
	_ = c.Close()
	_ = up.Close()
}

// resolve is where host:port leads: a name only the proxy knows, or itself.
func (p *connectProxy) resolve(hostport string) string {
	h, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return hostport
	}
	if addr, ok := p.hosts[strings.ToLower(h)]; ok {
		return addr
	}
	return net.JoinHostPort(h, port)
}
