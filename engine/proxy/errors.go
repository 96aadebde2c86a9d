package proxy

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"

	"hoist/engine/fact"
)

// ErrOfficeProxy is what a proxy error is (errors.Is): the office's proxy
// stood between Hoist and the server.
var ErrOfficeProxy = errors.New("the office proxy")

// UnreachableError says nothing answered at the proxy.
type UnreachableError struct {
	Proxy  string // host:port
	Origin Origin
	Err    error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("the office proxy %s (%s) could not be reached: %v", e.Proxy, origin(e.Origin), e.Err)
}
func (e *UnreachableError) Unwrap() error { return e.Err }

// Fact says it without words.
func (e *UnreachableError) Fact() fact.Fact {
	return fact.Fact{Code: fact.ProxyUnreachable, Args: proxyArgs(e.Proxy, e.Origin)}
}

// SignInError says the proxy asks for a sign-in (HTTP 407): Refused when
// the one Hoist gave was refused. Sending again would meet the same answer,
// so it is not retried.
type SignInError struct {
	Proxy   string // host:port
	Origin  Origin
	Schemes []string // what the proxy offers: Basic, NTLM, Negotiate
	Refused bool
}

func (e *SignInError) Error() string {
	if e.Refused {
		return fmt.Sprintf("the office proxy %s (%s) refused the sign-in", e.Proxy, origin(e.Origin))
	}
	return fmt.Sprintf("the office proxy %s (%s) asks for a sign-in", e.Proxy, origin(e.Origin))
}

// Retryable is false: the upload does not go round asking a proxy that refuses.
func (e *SignInError) Retryable() bool { return false }

// Is makes every proxy error ErrOfficeProxy.
func (e *SignInError) Is(target error) bool      { return target == ErrOfficeProxy }
func (e *UnreachableError) Is(target error) bool { return target == ErrOfficeProxy }

// Fact says it without words.
func (e *SignInError) Fact() fact.Fact {
	code := fact.ProxySignIn
	if e.Refused {
		code = fact.ProxyRefused
	}
	return fact.Fact{Code: code, Args: proxyArgs(e.Proxy, e.Origin)}
}

// OffersBasic reports whether the proxy accepts a name and password sent as Basic.
func (e *SignInError) OffersBasic() bool {
	for _, s := range e.Schemes {
		if len(s) >= 5 && (s[:5] == "Basic" || s[:5] == "basic" || s[:5] == "BASIC") {
			return true
		}
	}
	return len(e.Schemes) == 0
}

// PACError says the PAC script could not be fetched or run; Hoist then goes
// direct, as Windows does.
type PACError struct {
	Address string
	Origin  Origin
	Err     error
}

func (e *PACError) Error() string {
	return fmt.Sprintf("the PAC script %s (%s): %v", e.Address, origin(e.Origin), e.Err)
}
func (e *PACError) Unwrap() error { return e.Err }

// Fact says it without words; Google carries the cause.
func (e *PACError) Fact() fact.Fact {
	f := fact.Fact{Code: fact.PACUnavailable, Args: proxyArgs(e.Address, e.Origin)}
	if e.Err != nil {
		f.Google = e.Err.Error()
	}
	return f
}

// BadSettingError says a proxy setting is not an address Hoist can use.
type BadSettingError struct {
	Value  string
	Origin Origin
	Err    error
}

func (e *BadSettingError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("the proxy setting %q (%s): %v", e.Value, origin(e.Origin), e.Err)
	}
	return fmt.Sprintf("the proxy setting %q (%s) is not a proxy's address", e.Value, origin(e.Origin))
}
func (e *BadSettingError) Unwrap() error { return e.Err }

// Fact says it without words.
func (e *BadSettingError) Fact() fact.Fact {
	return fact.Fact{Code: fact.ProxyBadSetting, Args: proxyArgs(e.Value, e.Origin)}
}

// CertificateError says the server's certificate was signed by an authority
// this computer does not trust: behind an office proxy that inspects TLS,
// the organisation's own, whose certificate may be missing here.
type CertificateError struct {
	Issuer string // the issuer's name as the certificate gives it
	Err    error
}

func (e *CertificateError) Error() string {
	return fmt.Sprintf("the server's certificate was signed by %q, which this computer does not trust", e.Issuer)
}
func (e *CertificateError) Unwrap() error { return e.Err }

// Fact says it without words.
func (e *CertificateError) Fact() fact.Fact {
	return fact.Fact{Code: fact.OrgCertificate, Args: map[string]string{"issuer": e.Issuer}}
}

// Untrusted is err as a *CertificateError when it says a certificate's
// authority is unknown, naming the issuer seen; otherwise err itself.
func Untrusted(err error) error {
	var (
		unknown x509.UnknownAuthorityError
		verify  *tls.CertificateVerificationError
		mine    *CertificateError
	)
	if err == nil || errors.As(err, &mine) || !errors.As(err, &unknown) {
		return err
	}
	issuer := ""
	if unknown.Cert != nil {
		issuer = issuerName(unknown.Cert)
	}
	if issuer == "" && errors.As(err, &verify) && len(verify.UnverifiedCertificates) > 0 {
		certs := verify.UnverifiedCertificates
		issuer = issuerName(certs[len(certs)-1])
	}
	return &CertificateError{Issuer: issuer, Err: err}
}

func issuerName(c *x509.Certificate) string {
	if c.Issuer.CommonName != "" {
		if len(c.Issuer.Organization) > 0 && c.Issuer.Organization[0] != c.Issuer.CommonName {
			return c.Issuer.CommonName + " (" + c.Issuer.Organization[0] + ")"
		}
		return c.Issuer.CommonName
	}
	if len(c.Issuer.Organization) > 0 {
		return c.Issuer.Organization[0]
	}
	return c.Issuer.String()
}

func proxyArgs(proxy string, o Origin) map[string]string {
	return map[string]string{"proxy": proxy, "origin": string(o)}
}

// origin is where a setting came from, in the log's words.
func origin(o Origin) string {
	if o == FromNowhere {
		return "no setting"
	}
	return "from " + string(o)
}

// unreachable tells a failed connection to the proxy itself (Go's
// transport names it "proxyconnect").
func unreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "proxyconnect"
}

// host is u's host:port, for sentences.
func host(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Host
}

// NeverReachedServer is true: the proxy stopped the request, so the server
// never saw it (an upload's body that went out went to the proxy only).
func (e *SignInError) NeverReachedServer() bool { return true }

// NeverReachedServer is true: nothing went further than this computer.
func (e *UnreachableError) NeverReachedServer() bool { return true }
