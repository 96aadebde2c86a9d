package engine

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"hoist/engine/upload"
)

// DefaultTransport is tuned for large bodies: big writes so a chunk streams
// from the file to the socket in few system calls, and HTTP/1.1 over TLS
// too, so that every upload at once has a TCP connection of its own.
//
// HTTP/2 would put every upload to a host on one connection, and an
// upload's bytes in flight are bounded by the receiver's flow-control
// windows: Go's server, like Google's front ends, grants 1 MiB per stream
// and per connection, so on a far link an HTTP/2 upload cannot go faster
// than 1 MiB per round trip (about 16 MiB/s at 50 ms, against 93 MiB/s over
// HTTP/1.1 in docs/benchmarks.md), and parallel uploads share that. No
// client setting widens the server's windows (http.HTTP2Config's receive
// buffers govern the answers only), so uploads avoid HTTP/2 unless asked.
func DefaultTransport() *http.Transport {
	t := defaultTransport()
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	// A clone of http.DefaultTransport offers HTTP/2 in its TLS settings.
	// Where net/http makes the TLS connection itself with these settings
	// (through a proxy, when the tunnel is not opened by the dial), offering
	// HTTP/2 makes a server that speaks it (Google's do) answer in it, which
	// this transport cannot read.
	if t.TLSClientConfig != nil {
		t.TLSClientConfig.NextProtos = []string{"http/1.1"}
	}
	t.DialTLSContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dialTLS(ctx, t, network, addr)
	}
	return t
}

// dialTLS opens a TLS connection for t as t itself would (t's TLS settings
// and handshake timeout, the host's name checked, ALPN offering HTTP/1.1),
// but one whose records leave in large writes (upload.TLSConn): over a
// tls.Conn each 16 KiB record is a system call and a trip through both
// ends' TCP stacks of its own. Through an office proxy the tunnel is what
// t.DialContext gives (proxy.Proxies.Apply opens it there), so the TLS
// connection inside it is this one too.
func dialTLS(ctx context.Context, t *http.Transport, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	raw, err := t.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	upload.KeepSendQueueShort(raw)
	cfg := t.TLSClientConfig.Clone()
	if cfg == nil {
		cfg = &tls.Config{}
	}
	if cfg.ServerName == "" {
		cfg.ServerName = host
	}
	cfg.NextProtos = []string{"http/1.1"}
	c := upload.ClientTLS(raw, cfg)
	hctx := ctx
	if d := t.TLSHandshakeTimeout; d > 0 {
		var cancel context.CancelFunc
		hctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	if err := c.HandshakeContext(hctx); err != nil {
		raw.Close()
		return nil, err
	}
	return c, nil
}

// HTTP2Transport is DefaultTransport speaking HTTP/2 where the server
// offers it: one connection per host, shared by every upload at once.
func HTTP2Transport() *http.Transport {
	t := defaultTransport()
	t.Protocols = new(http.Protocols)
	t.Protocols.SetHTTP1(true)
	t.Protocols.SetHTTP2(true)
	// The answers are small; the windows that bound an upload are the server's.
	t.HTTP2 = &http.HTTP2Config{MaxReceiveBufferPerConnection: 4 << 20, MaxReceiveBufferPerStream: 1 << 20}
	return t
}

func defaultTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.WriteBufferSize = 256 << 10
	t.ReadBufferSize = 64 << 10
	t.MaxIdleConnsPerHost = 16
	dialer := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dialer.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &upload.Conn{Conn: c}, nil
	}
	return t
}

// CAFileEnv names the environment variable that, like hoist send's
// --ca-file, names a file of PEM certificates to trust besides the system's:
// the HTTPS sandbox's authority, or a company's proxy.
const CAFileEnv = "HOIST_CA_FILE"

// ErrBadCAFile says a file of certificates to trust holds none.
var ErrBadCAFile = errors.New("the file holds no PEM certificate")

// TrustingTransport is DefaultTransport (HTTP2Transport with http2)
// trusting, besides the system's authorities, the PEM certificates in caFile
// ("" adds none). Verification stays on: a server must still show a
// certificate for its name.
func TrustingTransport(caFile string, http2 bool) (*http.Transport, error) {
	t := DefaultTransport()
	if http2 {
		t = HTTP2Transport()
	}
	if caFile == "" {
		return t, nil
	}
	return t, AlsoTrust(t, caFile)
}

// AlsoTrust makes t trust, besides the authorities it trusts already (the
// system's, when none were named), the PEM certificates in each file: the
// organisation's own authority, which an office proxy that inspects secure
// connections signs with.
func AlsoTrust(t *http.Transport, files ...string) error {
	if !slices.ContainsFunc(files, func(f string) bool { return f != "" }) {
		return nil
	}
	var pool *x509.CertPool
	if t.TLSClientConfig != nil && t.TLSClientConfig.RootCAs != nil {
		pool = t.TLSClientConfig.RootCAs.Clone()
	} else if sys, err := x509.SystemCertPool(); err == nil && sys != nil {
		pool = sys
	} else {
		pool = x509.NewCertPool()
	}
	for _, f := range files {
		if f == "" {
			continue
		}
		pem, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("certificates to trust: %w", err)
		}
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("certificates to trust: %s: %w", f, ErrBadCAFile)
		}
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if t.TLSClientConfig != nil {
		cfg = t.TLSClientConfig.Clone()
	}
	cfg.RootCAs = pool
	t.TLSClientConfig = cfg
	return nil
}

// bandwidth caps the bytes per second of all uploads together.
type bandwidth struct {
	mu  sync.RWMutex
	lim *rate.Limiter // nil: no cap
}

// burst is the most bytes one read may take from the limiter at once.
const burst = 256 << 10

func newBandwidth(bps int64) *bandwidth {
	b := &bandwidth{}
	b.set(bps)
	return b
}

func (b *bandwidth) set(bps int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if bps <= 0 {
		b.lim = nil
		return
	}
	if b.lim == nil {
		b.lim = rate.NewLimiter(rate.Limit(bps), burst)
		return
	}
	b.lim.SetLimit(rate.Limit(bps))
}

func (b *bandwidth) limiter() *rate.Limiter {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.lim
}

// source wraps f so its reads wait for the cap. The context lives only as
// long as one run of one job: it is what makes a pause cut the wait short.
func (b *bandwidth) source(ctx context.Context, f sourceChecker) upload.Source {
	return &limitedSource{sourceChecker: f, b: b, ctx: ctx}
}

type sourceChecker interface {
	upload.Source
	upload.Checker
}

type limitedSource struct {
	sourceChecker
	b   *bandwidth
	ctx context.Context
}

func (s *limitedSource) ReadAt(p []byte, off int64) (int, error) {
	lim := s.b.limiter()
	if lim == nil {
		return s.sourceChecker.ReadAt(p, off)
	}
	for left := len(p); left > 0; left -= burst {
		if err := lim.WaitN(s.ctx, min(left, burst)); err != nil {
			return 0, err
		}
	}
	return s.sourceChecker.ReadAt(p, off)
}
