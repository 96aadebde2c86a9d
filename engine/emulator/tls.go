package emulator

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"time"
)

// Authority is a certificate authority made at start, and a server
// certificate it signed for this computer's loopback names (127.0.0.1, ::1,
// localhost) and any other names given. A client trusts the emulator's HTTPS
// by adding the authority's certificate to its roots (CertPEM, Pool,
// WriteCert), never by turning verification off. The key never leaves memory.
type Authority struct {
	certPEM []byte
	pool    *x509.CertPool
	leaf    tls.Certificate
	// HTTP2 are the server's HTTP/2 settings; nil: Go's defaults (a 1 MiB
	// receive window per stream and per connection).
	HTTP2 *http.HTTP2Config
}

// NewAuthority makes a fresh authority and server certificate, valid from an
// hour ago for a week.
func NewAuthority(names ...string) (*Authority, error) {
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("emulator: making a key: %w", err)
	}
	ca := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "Hoist sandbox authority", Organization: []string{"Hoist sandbox"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("emulator: making the authority's certificate: %w", err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("emulator: making a key: %w", err)
	}
	leaf := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "localhost", Organization: []string{"Hoist sandbox"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, n := range names {
		if ip := net.ParseIP(n); ip != nil {
			leaf.IPAddresses = append(leaf.IPAddresses, ip)
		} else if n != "" {
			leaf.DNSNames = append(leaf.DNSNames, n)
		}
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("emulator: making the server's certificate: %w", err)
	}
	a := &Authority{
		certPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		pool:    x509.NewCertPool(),
		leaf:    tls.Certificate{Certificate: [][]byte{leafDER, caDER}, PrivateKey: key},
	}
	a.pool.AddCert(caCert)
	return a, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// CertPEM is the authority's certificate in PEM, what a client adds to its roots.
func (a *Authority) CertPEM() []byte { return append([]byte(nil), a.certPEM...) }

// Pool is a certificate pool holding only the authority.
func (a *Authority) Pool() *x509.CertPool { return a.pool.Clone() }

// WriteCert writes the authority's certificate (public, PEM) to path.
func (a *Authority) WriteCert(path string) error {
	return os.WriteFile(path, a.certPEM, 0o644)
}

// ServerConfig is a TLS configuration serving the certificate with HTTP/2
// and HTTP/1.1 offered, as Google's servers do.
func (a *Authority) ServerConfig() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{a.leaf},
		NextProtos:   []string{"h2", "http/1.1"},
		MinVersion:   tls.VersionTLS12,
	}
}

// configure makes hs serve HTTPS with HTTP/2 and HTTP/1.1.
func (a *Authority) configure(hs *http.Server) {
	hs.TLSConfig = a.ServerConfig()
	hs.Protocols = new(http.Protocols)
	hs.Protocols.SetHTTP1(true)
	hs.Protocols.SetHTTP2(true)
	hs.HTTP2 = a.HTTP2
}

// Configure makes hs, an HTTP server of the caller's, serve HTTPS with HTTP/2
// and HTTP/1.1 under the authority's certificate; serve it with
// hs.ServeTLS(ln, "", "").
func (a *Authority) Configure(hs *http.Server) { a.configure(hs) }

// StartTLS is Start over HTTPS with ca's certificate: HTTP/2 for clients that
// offer it, HTTP/1.1 for the others. The base URL it returns is https.
func (s *Server) StartTLS(ctx context.Context, addr string, ca *Authority) (baseURL string, stop func() error, err error) {
	if ca == nil {
		return "", nil, fmt.Errorf("emulator: StartTLS needs an authority")
	}
	return s.start(ctx, addr, ca)
}
