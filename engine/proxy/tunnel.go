package proxy

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// A transport that makes its own TLS connections (DialTLSContext, as
// Hoist's upload transport does, to send its records in large writes) has
// them only when it dials the server itself: through a proxy, net/http
// makes the TLS connection inside the tunnel on its own, with none of that.
// For such a transport Hoist opens the tunnel (CONNECT) itself, as it does
// for an NTLM proxy: the transport is told to go direct to an https server,
// and its dial to the server goes through the tunnel.

// tunnels are, for one transport, the proxy each server's dial tunnels
// through, by the server's host:port.
type tunnels struct {
	mu  sync.Mutex
	via map[string]*url.URL
}

// route notes that a request to target goes through u (nil: not tunnelled
// by the dial).
func (ts *tunnels) route(target string, u *url.URL) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if u == nil {
		delete(ts.via, target)
		return
	}
	if ts.via == nil {
		ts.via = map[string]*url.URL{}
	}
	ts.via[target] = u
}

// proxyFor is the proxy a dial to target tunnels through, or nil.
func (ts *tunnels) proxyFor(target string) *url.URL {
	if ts == nil {
		return nil
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.via[target]
}

// ownTunnel reports whether the dial should open req's tunnel through u: an
// https server through an http proxy, for a transport with its own TLS.
func ownTunnel(req *http.Request, u *url.URL) bool {
	return u != nil && req.URL.Scheme == "https" && (u.Scheme == "http" || u.Scheme == "")
}

// tunnel opens a tunnel to target through the proxy u, signing in with u's
// name and password (Basic) when it has them. Its answers mean what they
// mean on net/http's own CONNECT (see Apply).
func (p *Proxies) tunnel(ctx context.Context, dial func(context.Context, string, string) (net.Conn, error), u *url.URL, target string) (net.Conn, error) {
	c, err := dial(ctx, "tcp", u.Host)
	if err != nil {
		p.markDown(u.Host)
		return nil, &UnreachableError{Proxy: u.Host, Origin: p.Origin(), Err: err}
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if d, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(d)
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: target}, Host: target, Header: http.Header{}}
	if u.User != nil {
		password, _ := u.User.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+password)))
	}
	br := bufio.NewReader(c)
	var res *http.Response
	if err = req.Write(c); err == nil {
		res, err = http.ReadResponse(br, req)
	}
	if err != nil {
		c.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("the office proxy %s (%s): %w", u.Host, origin(p.Origin()), err)
	}
	switch {
	case res.StatusCode == http.StatusOK && br.Buffered() == 0:
		// A TLS server says nothing before the client's hello, so nothing
		// of the tunnel's can have been read with the proxy's answer.
		if !stop() {
			c.Close()
			return nil, ctx.Err()
		}
		_ = c.SetDeadline(time.Time{})
		return c, nil
	case res.StatusCode == http.StatusOK:
		c.Close()
		return nil, fmt.Errorf("the office proxy %s (%s): %w", u.Host, origin(p.Origin()), errors.New("bytes arrived before the secure connection began"))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	c.Close()
	if res.StatusCode == http.StatusProxyAuthRequired {
		return nil, p.signIn(ctx, u, sentAs(u), res)
	}
	return nil, fmt.Errorf("the office proxy %s (%s) answered %s", u.Host, origin(p.Origin()), res.Status)
}
