package dest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"hoist/redact"
	"io"
	"net"
	"regexp"
	"strings"
	"syscall"

	"hoist/engine/fact"
	"hoist/engine/upload"
)

// NetworkFact is the code of the fact that says what happened to a
// connection, or "" when err is not about one.
func NetworkFact(err error) fact.Code {
	var (
		dns           *net.DNSError
		unknownAuth   x509.UnknownAuthorityError
		hostname      x509.HostnameError
		invalid       x509.CertificateInvalidError
		verification  *tls.CertificateVerificationError
		timeout       interface{ Timeout() bool }
		netErr        net.Error
		opErr         *net.OpError
		recordHeader  tls.RecordHeaderError
		connectionErr = errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
			errors.Is(err, syscall.EPIPE) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
			errors.Is(err, net.ErrClosed)
	)
	switch {
	case errors.As(err, &dns):
		return fact.NoServer
	case errors.As(err, &unknownAuth), errors.As(err, &hostname), errors.As(err, &invalid), errors.As(err, &verification), errors.As(err, &recordHeader):
		return fact.NotVerified
	case errors.Is(err, syscall.ECONNREFUSED):
		return fact.NothingAnswered
	case errors.Is(err, syscall.ENETUNREACH), errors.Is(err, syscall.EHOSTUNREACH):
		return fact.Unreachable
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &timeout) && timeout.Timeout():
		return fact.TimedOut
	case connectionErr, errors.As(err, &opErr), errors.As(err, &netErr):
		return fact.Dropped
	}
	return ""
}

// GoogleWords is the server's own explanation carried by err (the message
// of Google's JSON error, or a short plain-text answer), made safe to show;
// "" when there is none. It goes beside the words of the error's fact, never instead.
func GoogleWords(err error) string {
	var api *upload.APIError
	if !errors.As(err, &api) {
		return ""
	}
	return Redact(strings.TrimSpace(api.Message))
}

// BlamesAccess reports whether a refusal's reason (lower case) says the
// account may not do this, rather than something else forbidden.
func BlamesAccess(reason string) bool {
	switch reason {
	case "", "forbidden", "permission_denied", "accessdenied", "access_denied":
		return true
	}
	return false
}

// urlPattern finds web addresses, whose queries are left out of what is shown.
var urlPattern = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>]+`)

// Redact removes from text what must never be shown or logged: the query of
// any web address (a session URI's upload_id is a capability), secret
// parameters, bearer tokens and Google tokens.
func Redact(text string) string {
	text = urlPattern.ReplaceAllStringFunc(text, func(u string) string {
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			return u[:i]
		}
		return u
	})
	return redact.Text(text) // the one place that knows what a secret looks like
}
