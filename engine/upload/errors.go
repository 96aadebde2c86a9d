package upload

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Errors an upload can end with, tested with errors.Is. Their texts never
// carry a session URI.
var (
	// ErrFileChanged: the file is no longer the one that was queued (or could
	// not be read in full), so sending more would mix old and new bytes.
	ErrFileChanged = errors.New("the file changed while it was being sent")
	// ErrSessionExpired: the server no longer knows the upload session.
	ErrSessionExpired = errors.New("the upload session on the server has expired")
	// ErrForeignHost: the server pointed the upload at a host it may not go to;
	// nothing was sent there.
	ErrForeignHost = errors.New("the server pointed the upload at another address, which Hoist refused")
	// ErrBadResponse: an answer that does not follow the protocol (missing or
	// malformed Location, garbage Range, an HTML error page).
	ErrBadResponse = errors.New("the server gave an answer Hoist could not understand")
	// ErrStalled: a request made no progress for the stall timeout.
	ErrStalled = errors.New("the connection stalled")
	// ErrTooManyRetries wraps the last cause once the retries are used up.
	ErrTooManyRetries = errors.New("gave up after too many attempts")
	// ErrAnswerLost: a one-request upload (media or multipart) was sent in
	// full but the connection broke before the answer; the server may have
	// the file, so it is not sent again on its own (that could make a copy).
	ErrAnswerLost = errors.New("the file was sent but the connection broke before the server answered, so it may or may not have arrived")
	// ErrNoID: the server answered that the upload was complete but its
	// answer names nothing it made (an empty body, {}), and the object
	// could not be found by asking: the upload is not known to be done.
	ErrNoID = errors.New("the server said the upload was complete but did not say what it made")
	// ErrNotNoted: the time a one-request upload went out could not be
	// kept (the disk is full, say), so the file was not sent: a Hoist
	// stopped while it waited for the answer would not know to look for
	// it, and could send it twice. Trying again later may succeed.
	ErrNotNoted = errors.New("the upload could not be noted before it went out, so it was not sent")
	// ErrInvalid: the upload was asked for with settings that cannot work
	// (a bad URL, content type or chunk size); nothing was sent.
	ErrInvalid = errors.New("the upload settings are not valid")
)

// errNoProgress is the cause of a retry when the server kept none of a chunk.
var errNoProgress = errors.New("the server kept none of the bytes just sent")

// errForgot is the cause of a retry when the server lost bytes it had confirmed.
var errForgot = errors.New("the server lost bytes it had confirmed")

// APIError is a refusal from the server, with Google's own explanation when
// the answer carried one in its JSON error body.
type APIError struct {
	Status  int    // HTTP status of the answer
	Code    int    // error.code from the JSON body, 0 when absent
	Reason  string // error.errors[0].reason or error.status, e.g. "invalidArgument"
	Message string // error.message, or a short plain-text body; "" when none
	Body    []byte // the JSON error body (bounded); nil when the body was not JSON

	after    time.Duration // the wait Retry-After asked for
	hasAfter bool          // the answer carried a usable Retry-After
}

func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the server answered %d", e.Status)
	if t := http.StatusText(e.Status); t != "" {
		b.WriteString(" " + t)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if e.Reason != "" {
		b.WriteString(" (" + e.Reason + ")")
	}
	return b.String()
}

// maxMessage bounds a server message kept in an error.
const maxMessage = 300

// parseAPIError reads an error answer. The second result is false when the
// body was neither Google's JSON nor a short plain text (an HTML page, say):
// the error then says only the status.
func parseAPIError(status int, header http.Header, body []byte) (*APIError, bool) {
	e := &APIError{Status: status}
	trimmed := strings.TrimSpace(string(body))
	if trimmed == "" {
		return e, true
	}
	if strings.HasPrefix(trimmed, "{") {
		var g struct {
			Error            json.RawMessage `json:"error"`
			ErrorDescription string          `json:"error_description"`
		}
		if json.Unmarshal(body, &g) == nil && len(g.Error) > 0 {
			var detail struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
				Status  string `json:"status"`
				Errors  []struct {
					Reason  string `json:"reason"`
					Message string `json:"message"`
				} `json:"errors"`
			}
			var plain string
			switch {
			case json.Unmarshal(g.Error, &detail) == nil:
				e.Code = detail.Code
				e.Message = detail.Message
				e.Reason = detail.Status
				if len(detail.Errors) > 0 {
					if detail.Errors[0].Reason != "" {
						e.Reason = detail.Errors[0].Reason
					}
					if e.Message == "" {
						e.Message = detail.Errors[0].Message
					}
				}
			case json.Unmarshal(g.Error, &plain) == nil: // OAuth style: {"error": "invalid_grant", ...}
				e.Reason = plain
				e.Message = g.ErrorDescription
			}
			e.Message = cleanMessage(e.Message)
			e.Reason = cleanMessage(e.Reason)
			e.Body = body
			return e, true
		}
		return e, false
	}
	mt, _, _ := mime.ParseMediaType(header.Get("Content-Type"))
	if (mt == "text/plain" || mt == "") && !strings.HasPrefix(trimmed, "<") && len(trimmed) <= maxMessage && utf8.ValidString(trimmed) {
		// Google's upload servers explain protocol errors in one plain line.
		e.Message = cleanMessage(trimmed)
		return e, true
	}
	return e, false
}

// cleanMessage makes a server's text safe to show on one line.
func cleanMessage(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) > maxMessage {
		s = string([]rune(s)[:maxMessage]) + "…"
	}
	return s
}

// connError is a request that got no answer: the connection failed, was cut
// or stalled.
type connError struct {
	err error
	// delivered: the transport took the whole body, so the server may have it.
	delivered bool
}

func (e *connError) Error() string { return "the connection failed: " + e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// transportError classifies an error from http.Client.Do; the result is a
// *connError when trying again could help, else the error to stop with.
func transportError(err error, delivered bool) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text carries the URL, which may be a session URI
	}
	var r interface{ Retryable() bool }
	if errors.As(err, &r) && !r.Retryable() {
		return err
	}
	var (
		unknownAuthority x509.UnknownAuthorityError
		hostname         x509.HostnameError
		invalid          x509.CertificateInvalidError
		verification     *tls.CertificateVerificationError
	)
	if errors.As(err, &unknownAuthority) || errors.As(err, &hostname) || errors.As(err, &invalid) || errors.As(err, &verification) {
		return fmt.Errorf("the server's identity could not be verified: %w", err)
	}
	return &connError{err: err, delivered: delivered}
}

// scrubbed hides secrets in an error's text while keeping its chain.
type scrubbed struct {
	text string
	err  error
}

func (e *scrubbed) Error() string { return e.text }
func (e *scrubbed) Unwrap() error { return e.err }

// scrub removes each secret from err's text.
func scrub(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	changed := false
	for _, s := range secrets {
		if s != "" && strings.Contains(text, s) {
			text = strings.ReplaceAll(text, s, "[session]")
			changed = true
		}
	}
	if !changed {
		return err
	}
	return &scrubbed{text: text, err: err}
}

// Class says what kind of refusal an APIError is, by what can mend it.
type Class int

const (
	ClassOther      Class = iota // none of the below
	ClassAuth                    // 401: the sign-in is not (or no longer) valid
	ClassPermission              // 403: the account may not do this
	ClassRetired                 // 403, 404 or 410 saying the API version is no longer supported
	ClassNotFound                // 404, 410: nothing at that address
	ClassQuota                   // 429 or a rate or quota reason: too much for now
	ClassTooLarge                // 413: over the method's limit
	ClassInvalid                 // 400 about what was sent: the metadata or a value in it
	ClassProtocol                // 400, 405, 501 refusing how it was sent: the upload protocol
	ClassServer                  // 5xx: trouble on the server's side
)

// Reasons Google gives for a rate or quota limit, lower-cased.
var quotaReasons = map[string]bool{
	"ratelimitexceeded": true, "userratelimitexceeded": true, "quotaexceeded": true,
	"dailylimitexceeded": true, "resource_exhausted": true, "uploadlimitexceeded": true,
	"variableterminlimitexceeded": true,
}

// Reasons of a 400 that find fault with what was sent rather than how.
var invalidReasons = map[string]bool{
	"invalid": true, "required": true, "parseerror": true, "invalidparameter": true,
	"invalidvalue": true, "badcontent": true, "conditionnotmet": true, "failedprecondition": true,
	"failed_precondition": true, "invalidargument": true,
}

// retiredVersion finds Google's "Version v4 of the … API is no longer supported"
// (and "has been sunset" or "is deprecated and turned down") in a message.
var retiredVersion = regexp.MustCompile(`(?i)\bversion\s+(v[0-9][0-9a-z]*)\b.*\b(no longer (supported|available)|(has been|was) (sunset|turned down|shut down|switched off))`)

// Class classifies the refusal by its status, Google's reason and, for a
// retired API version, Google's message.
func (e *APIError) Class() Class {
	reason := strings.ToLower(e.Reason)
	switch {
	case e.RetiredVersion() != "" && (e.Status == http.StatusForbidden || e.Status == http.StatusNotFound || e.Status == http.StatusGone):
		return ClassRetired
	case e.Status == http.StatusTooManyRequests || quotaReasons[reason]:
		return ClassQuota
	case e.Status == http.StatusUnauthorized:
		return ClassAuth
	case e.Status == http.StatusForbidden:
		return ClassPermission
	case e.Status == http.StatusNotFound || e.Status == http.StatusGone:
		return ClassNotFound
	case e.Status == http.StatusRequestEntityTooLarge:
		return ClassTooLarge
	case e.Status >= 500 && e.Status != http.StatusNotImplemented:
		return ClassServer
	case e.Status == http.StatusMethodNotAllowed || e.Status == http.StatusNotImplemented:
		return ClassProtocol
	case e.Status == http.StatusBadRequest && invalidReasons[reason]:
		return ClassInvalid
	case e.Status == http.StatusBadRequest:
		return ClassProtocol
	}
	return ClassOther
}

// RetiredVersion is the API version Google's message says is no longer
// supported, e.g. "v4"; "" when the message says no such thing.
func (e *APIError) RetiredVersion() string {
	if m := retiredVersion.FindStringSubmatch(e.Message); m != nil {
		return strings.ToLower(m[1])
	}
	return ""
}

// AnswerError is Google's error answer to a call made beside an upload (a
// label made for it, say) as an *APIError, classified as an upload's is.
func AnswerError(status int, header http.Header, body []byte) *APIError {
	e, _ := parseAPIError(status, header, body)
	return e
}
