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
	"strings"
	"time"

	"hoist/internal/webaddr"
)

// A proxy that asks for NTLM (or Negotiate, which takes NTLM's messages)
// needs its three messages — negotiate, challenge, authenticate — on one
// connection, which Go's transport cannot do on a CONNECT. For such a
// proxy Hoist opens the tunnel itself: the transport is told to go direct,
// and its dial to the server goes through the tunnel instead.

// ntlmScheme is the scheme to answer a proxy with that offers NTLM (or
// Negotiate) but not Basic, or "".
func (e *SignInError) ntlmScheme() string {
	if e.OffersBasic() {
		return ""
	}
	negotiate := false
	for _, s := range e.Schemes {
		name, _, _ := strings.Cut(strings.TrimSpace(s), " ")
		switch {
		case strings.EqualFold(name, "NTLM"):
			return "NTLM"
		case strings.EqualFold(name, "Negotiate"):
			negotiate = true
		}
	}
	if negotiate {
		return "Negotiate"
	}
	return ""
}

// throughNTLM notes that req goes through proxy u, and whether Hoist opens
// that tunnel itself (the proxy signs in with NTLM).
func (p *Proxies) throughNTLM(req *http.Request, u *url.URL) bool {
	target := webaddr.HostPort(req.URL)
	p.mu.Lock()
	defer p.mu.Unlock()
	if u == nil || p.ntlmOf(u.Host) == "" && p.own.using(u.Host) == "" {
		delete(p.via, target)
		return false
	}
	if p.via == nil {
		p.via = map[string]string{}
	}
	p.via[target] = u.Host
	return true
}

// tunnelFor is the NTLM proxy a dial to addr goes through, and its scheme.
func (p *Proxies) tunnelFor(addr string) (host, scheme string) {
	if p == nil {
		return "", ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	host = p.via[addr]
	if scheme = p.ntlmOf(host); scheme == "" && host != "" {
		scheme = p.own.using(host)
	}
	return host, scheme
}

// tunnelNTLM opens a tunnel to target through the NTLM proxy at host,
// signing in with the user's own sign-in while it is used there, or with
// the login kept or given for it.
func (p *Proxies) tunnelNTLM(ctx context.Context, dial func(context.Context, string, string) (net.Conn, error), host, scheme, target string) (net.Conn, error) {
	u := &url.URL{Scheme: "http", Host: host}
	h, scheme, l, err := p.handshakeFor(ctx, u, scheme)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	c, err := dial(ctx, "tcp", host)
	if err != nil {
		p.markDown(host)
		return nil, &UnreachableError{Proxy: host, Origin: p.Origin(), Err: err}
	}
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if d, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(d)
	}
	br := bufio.NewReader(c)
	res, err := exchange(c, br, h, scheme, target)
	if err != nil {
		c.Close()
		var failed *handshakeError
		if l == nil && errors.As(err, &failed) {
			return nil, p.ownRefused(ctx, u, err)
		}
		return nil, err
	}
	switch res.StatusCode {
	case http.StatusOK:
		if !stop() {
			c.Close()
			return nil, ctx.Err()
		}
		_ = c.SetDeadline(time.Time{})
		if br.Buffered() > 0 {
			return &bufferedConn{Conn: c, r: br}, nil
		}
		return c, nil
	case http.StatusProxyAuthRequired:
		c.Close()
		if l == nil {
			return nil, p.ownRefused(ctx, u, nil)
		}
		u.User = url.UserPassword(l.user, l.password)
		return nil, p.signIn(ctx, u, scheme, res)
	}
	c.Close()
	return nil, fmt.Errorf("the office proxy %s (%s) answered %s", host, origin(p.Origin()), res.Status)
}

// connect sends one CONNECT and reads its answer, leaving the connection
// ready for the next message.
func connect(c net.Conn, br *bufio.Reader, target, authorization string) (*http.Response, error) {
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: target}, Host: target,
		Header: http.Header{"Proxy-Authorization": {authorization}, "Proxy-Connection": {"Keep-Alive"}}}
	if err := req.Write(c); err != nil {
		return nil, err
	}
	res, err := http.ReadResponse(br, req)
	if err != nil {
		return nil, err
	}
	if res.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
		res.Body.Close()
	}
	return res, nil
}

// challengeIn is the proxy's challenge message, or nil.
func challengeIn(res *http.Response, scheme string) []byte {
	for _, v := range res.Header.Values("Proxy-Authenticate") {
		name, token, ok := strings.Cut(strings.TrimSpace(v), " ")
		if !ok || !strings.EqualFold(name, scheme) {
			continue
		}
		if b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(token)); err == nil {
			return b
		}
	}
	return nil
}

// bufferedConn is a tunnel whose first bytes were read with the proxy's answer.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (b *bufferedConn) Read(p []byte) (int, error) { return b.r.Read(p) }
