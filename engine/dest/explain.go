package dest

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"hoist/redact"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"syscall"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Explain turns an error from planning or uploading to d into one or two
// plain sentences for the user. It never repeats a session URI, a token or
// any web address's query.
func Explain(d Destination, err error) string {
	if err == nil {
		return ""
	}
	text := explain(d, err)
	if errors.Is(err, upload.ErrTooManyRetries) {
		text += " Hoist tried several times and gave up for now."
	}
	return text
}

func explain(d Destination, err error) string {
	var (
		refusal *Refusal
		fields  FieldErrors
		problem *media.Problem
		api     *upload.APIError
	)
	switch {
	case errors.As(err, &refusal):
		return refusal.Message
	case errors.As(err, &fields):
		return fields.Error()
	case errors.As(err, &problem):
		return problem.Message
	case errors.Is(err, upload.ErrFileChanged):
		return "The file changed while it was being uploaded, so Hoist stopped rather than mix old and new parts."
	case errors.Is(err, ErrNoSandbox):
		return "The sandbox is not running, so there is nowhere to send the file. Start the sandbox and try again."
	case errors.As(err, &api):
		return explainAPI(d, api)
	case errors.Is(err, upload.ErrAnswerLost):
		return fmt.Sprintf("The file was sent, but the connection broke before %s answered, so it may or may not have arrived. Check %s before sending it again.", d.who(), d.where())
	case errors.Is(err, upload.ErrSessionExpired):
		return "The upload session on the server expired, so this file has to start again from the beginning."
	case errors.Is(err, upload.ErrForeignHost):
		return "The server tried to send the upload to another address. Hoist refused, to keep your sign-in safe."
	case errors.Is(err, upload.ErrStalled):
		return "The connection stalled: no data moved for a long time."
	case errors.Is(err, upload.ErrBadResponse):
		return fmt.Sprintf("%s gave an answer Hoist could not understand.", capital(d.who()))
	case errors.Is(err, upload.ErrInvalid):
		return "Hoist could not start this upload because its settings are not valid. Check the destination's settings."
	case errors.Is(err, context.Canceled):
		return "The upload was stopped."
	}
	if s := explainNetwork(err); s != "" {
		return s
	}
	var final interface {
		error
		Retryable() bool
	}
	if errors.As(err, &final) && !final.Retryable() {
		// Such errors (e.g. "sign in again") are written for the user.
		return Redact(final.Error())
	}
	return "The upload failed: " + Redact(err.Error())
}

// explainNetwork says what happened to a connection, or "" when err is not about one.
func explainNetwork(err error) string {
	return networkWords[NetworkFact(err)]
}

// networkWords are the English sentences of NetworkFact's codes.
var networkWords = map[fact.Code]string{
	fact.NoServer:        "Hoist could not find the server. Check the internet connection.",
	fact.NotVerified:     "The server's identity could not be verified, so Hoist did not send the file. Check the network (a hotel or office login page can cause this).",
	fact.NothingAnswered: "Nothing answered at the server's address. Check that the server is running and the internet connection works.",
	fact.Unreachable:     "Hoist could not reach the server. Check the internet connection.",
	fact.TimedOut:        "The connection timed out.",
	fact.Dropped:         "The connection dropped.",
}

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

// explainAPI says in a sentence, per destination, what a refusal means and
// what to do next. Google's own words are not in it: GoogleWords gives them,
// to show beside it.
func explainAPI(d Destination, e *upload.APIError) string {
	reason := strings.ToLower(e.Reason)
	if s := d.of().refused(d, e); s != "" {
		return s
	}
	switch class := e.Class(); {
	case class == upload.ClassRetired:
		return d.retired(e.RetiredVersion())
	case class == upload.ClassQuota:
		return fmt.Sprintf("%s says this account has hit its upload limit for now. Wait a while before trying again.", capital(d.who()))
	case class == upload.ClassAuth || reason == "autherror" || reason == "unauthenticated" || reason == "invalid_grant":
		return "Your Google sign-in expired. Sign in again to continue."
	case reason == "accessnotconfigured" || reason == "service_disabled":
		return "This Google service is not turned on for the app's Google Cloud project."
	case class == upload.ClassPermission:
		return d.forbidden(reason)
	case class == upload.ClassNotFound:
		return d.notFound()
	case class == upload.ClassTooLarge || reason == "uploadtoolarge":
		return fmt.Sprintf("%s says the file is too large for %s.", capital(d.who()), d.where())
	case class == upload.ClassServer:
		return fmt.Sprintf("%s had a problem on its side (error %d). Try again later.", capital(d.who()), e.Status)
	case e.Status == http.StatusBadRequest || e.Status == http.StatusPreconditionFailed:
		return fmt.Sprintf("%s refused the file (error %d).", capital(d.who()), e.Status)
	}
	return fmt.Sprintf("%s refused the upload (error %d).", capital(d.who()), e.Status)
}

// GoogleWords is the server's own explanation carried by err (the message
// of Google's JSON error, or a short plain-text answer), made safe to show;
// "" when there is none. It goes beside Explain's sentence, never instead.
func GoogleWords(err error) string {
	var api *upload.APIError
	if !errors.As(err, &api) {
		return ""
	}
	return Redact(strings.TrimSpace(api.Message))
}

// Speaker names who said GoogleWords: Google, the sandbox or the server.
func (d Destination) Speaker() string { return capital(d.who()) }

// retired says that the API version in the upload address is gone.
func (d Destination) retired(version string) string {
	if version == "" {
		version = "this version"
	}
	return fmt.Sprintf("%s no longer supports API %s, which the upload address uses. Change the version in the address to a current one and send the file again.",
		capital(d.who()), version)
}

// forbidden says, per destination, what the account may not do. Only a
// refusal that says so is blamed on the account's access.
func (d Destination) forbidden(reason string) string {
	if !BlamesAccess(reason) {
		return fmt.Sprintf("%s refused the upload (error 403).", capital(d.who()))
	}
	if s := d.of().words(d).forbidden; s != "" {
		return s
	}
	return "This account is not allowed to upload there."
}

// BlamesAccess reports whether a refusal's reason (lower case) says the
// account may not do this, rather than something else forbidden.
func BlamesAccess(reason string) bool {
	switch reason {
	case "", "forbidden", "insufficientpermissions", "permission_denied", "accessdenied", "access_denied":
		return true
	}
	return false
}

// notFound says, per destination, what the server could not find.
func (d Destination) notFound() string {
	if s := d.of().words(d).notFound; s != "" {
		return s
	}
	return "Nothing was found at the upload URL. Check the destination's address."
}

// ServerName is the server a destination sends to, inside a sentence: the
// sandbox, Google, or the server.
func (d Destination) ServerName() string { return d.who() }

// who is the server in a sentence: the sandbox, Google, or the server.
func (d Destination) who() string {
	switch w := d.of().words(d); {
	case w.server != "":
		return w.server
	case d.BuiltinSandbox:
		return "the sandbox"
	case d.NeedsAuth():
		return "Google"
	}
	return "the server"
}

// where names the place the file was going.
func (d Destination) where() string {
	if w := d.of().words(d).where; w != "" {
		return w
	}
	return d.called()
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
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
