package dest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/media"
	"hoist/engine/upload"
)

// needsSignIn is an error that must not be retried, written for the user.
type needsSignIn struct{}

func (needsSignIn) Error() string   { return "Sign in to office@example.com again to continue." }
func (needsSignIn) Retryable() bool { return false }

// networkErrors makes real failures on loopback.
func networkErrors(t *testing.T) (refused, dropped, untrusted error) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, refused = http.Get("http://" + addr + "/upload/x?upload_id=SECRET")

	drop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer drop.Close()
	_, dropped = drop.Client().Get(drop.URL + "/upload/x?upload_id=SECRET")

	tlsServer := httptest.NewTLSServer(http.NotFoundHandler())
	defer tlsServer.Close()
	_, untrusted = http.Get(tlsServer.URL) // the default client does not trust the test certificate

	for _, err := range []error{refused, dropped, untrusted} {
		if err == nil {
			t.Fatal("a request that should fail succeeded")
		}
	}
	return refused, dropped, untrusted
}

func TestExplain(t *testing.T) {
	refused, dropped, untrusted := networkErrors(t)
	_, missing := media.Inspect(filepath.Join(t.TempDir(), "gone.eml"))

	gmail := Destination{Kind: GmailInsert}
	send := Destination{Kind: GmailSend}
	draft := Destination{Kind: GmailDraft, Params: map[string]string{"draftId": "r-9"}}
	cm := Destination{Kind: CM360, Params: map[string]string{"profileId": "55", "advertiserId": "1234"}}
	games := Destination{Kind: PlayGames, Params: map[string]string{"resourceId": "CgkI1", "imageType": "ACHIEVEMENT_ICON"}}
	sandbox := Destination{Kind: Sandbox, BaseURL: "http://127.0.0.1:8080"}
	other := Destination{Kind: Custom, Name: "Office server", Params: map[string]string{"url": "https://files.example.com/in"}}

	api := func(status int, reason, message string) error {
		return fmt.Errorf("starting the session: %w", &upload.APIError{Status: status, Code: status, Reason: reason, Message: message})
	}
	tests := []struct {
		name string
		d    Destination
		err  error
		want string
	}{
		{"rate limit", gmail, api(429, "rateLimitExceeded", "Too many requests"),
			"Google says this account has hit its upload limit for now. Wait a while before trying again."},
		{"user rate limit as 403", cm, api(403, "userRateLimitExceeded", "User Rate Limit Exceeded"),
			"Google says this account has hit its upload limit for now. Wait a while before trying again."},
		{"quota", games, api(403, "quotaExceeded", "Quota exceeded"),
			"Google says this account has hit its upload limit for now. Wait a while before trying again."},
		{"sign-in expired", gmail, api(401, "authError", "Invalid Credentials"),
			"Your Google sign-in expired. Sign in again to continue."},
		{"cm360 forbidden", cm, api(403, "insufficientPermissions", "The current user does not have permission"),
			"This account cannot upload to advertiser 1234."},
		{"gmail forbidden", gmail, api(403, "forbidden", "Forbidden"),
			"This account cannot add emails to that mailbox."},
		{"send forbidden", send, api(403, "", ""),
			"This account cannot send emails from that mailbox."},
		{"play games forbidden", games, api(403, "PERMISSION_DENIED", "denied"),
			"This account cannot change the images of that game."},
		{"service off", cm, api(403, "accessNotConfigured", "Campaign Manager 360 API has not been used in project 123 before or it is disabled"),
			"This Google service is not turned on for the app's Google Cloud project."},
		{"invalid argument", cm, api(400, "invalidArgument", "Invalid asset name"),
			"Google refused the file (error 400)."},
		{"bad request without words", gmail, api(400, "", ""),
			"Google refused the file (error 400)."},
		{"draft gone", draft, api(404, "notFound", "Requested entity was not found."),
			"The draft to update no longer exists."},
		{"cm360 v4 switched off", cm, api(403, "forbidden", "3140 : Version v4 of the Campaign Manager 360 API is no longer supported. Please migrate to a supported version."),
			"Campaign Manager 360 no longer supports API v4. Set the destination's API version to v5 (under Advanced; --api-version on the command line) and send the file again."},
		{"cm360 v4 later a 404", cm, api(404, "notFound", "Version v4 of the API is no longer supported"),
			"Campaign Manager 360 no longer supports API v4. Set the destination's API version to v5 (under Advanced; --api-version on the command line) and send the file again."},
		{"other API version gone", other, api(403, "forbidden", "Version v1beta of the Example API is no longer available."),
			"The server no longer supports API v1beta, which the upload address uses. Change the version in the address to a current one and send the file again."},
		{"cm360 other 403", cm, api(403, "domainPolicy", "The domain administrators have disabled Campaign Manager 360 for this user."),
			"Google refused the upload (error 403)."},
		{"play games removed, 404", games, api(404, "notFound", "Method not found."),
			"Google no longer accepts Play Games images through its API; set the icon in Play Console."},
		{"play games removed, 400", games, api(400, "badRequest", "Invalid request"),
			"Google no longer accepts Play Games images through its API; set the icon in Play Console."},
		{"cm360 not found", cm, api(404, "notFound", "Not found"),
			"Campaign Manager 360 could not find user profile 55 or advertiser 1234."},
		{"too large", send, api(413, "uploadTooLarge", "Request Entity Too Large"),
			"Google says the file is too large for Gmail."},
		{"server error", gmail, api(503, "backendError", "Backend Error"),
			"Google had a problem on its side (error 503). Try again later."},
		{"sandbox error", sandbox, api(409, "conflict", "already exists"),
			"The sandbox refused the upload (error 409)."},
		{"other server refuses", other, api(400, "", "name missing"),
			"The server refused the file (error 400)."},
		{"gave up after retries", gmail, fmt.Errorf("%w: %w", upload.ErrTooManyRetries, &upload.APIError{Status: 503}),
			"Google had a problem on its side (error 503). Try again later. Hoist tried several times and gave up for now."},
		{"message with a session URI", gmail, api(400, "badRequest", "Bad offset for https://gmail.googleapis.com/upload/gmail/v1/users/me/messages?uploadType=resumable&upload_id=ADPycdt_SECRET"),
			"Google refused the file (error 400)."},
		{"connection refused", sandbox, refused,
			"Nothing answered at the server's address. Check that the server is running and the internet connection works."},
		{"connection dropped", gmail, dropped, "The connection dropped."},
		{"untrusted server", gmail, untrusted,
			"The server's identity could not be verified, so Hoist did not send the file. Check the network (a hotel or office login page can cause this)."},
		{"dns", gmail, &net.DNSError{Err: "no such host", Name: "gmail.googleapis.com", IsNotFound: true},
			"Hoist could not find the server. Check the internet connection."},
		{"timeout", gmail, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, "The connection timed out."},
		{"unexpected end", gmail, fmt.Errorf("reading the answer: %w", io.ErrUnexpectedEOF), "The connection dropped."},
		{"stalled", gmail, upload.ErrStalled, "The connection stalled: no data moved for a long time."},
		{"session expired", gmail, fmt.Errorf("resuming: %w", upload.ErrSessionExpired),
			"The upload session on the server expired, so this file has to start again from the beginning."},
		{"foreign host", gmail, upload.ErrForeignHost,
			"The server tried to send the upload to another address. Hoist refused, to keep your sign-in safe."},
		{"bad response", gmail, upload.ErrBadResponse, "Google gave an answer Hoist could not understand."},
		{"answer lost", send, upload.ErrAnswerLost,
			"The file was sent, but the connection broke before Google answered, so it may or may not have arrived. Check Gmail before sending it again."},
		{"file changed", gmail, fmt.Errorf("chunk 3: %w", upload.ErrFileChanged),
			"The file changed while it was being uploaded, so Hoist stopped rather than mix old and new parts."},
		{"file missing", gmail, missing, "gone.eml does not exist (it may have been moved or deleted)."},
		{"sign in again", gmail, fmt.Errorf("getting a token: %w", needsSignIn{}), "Sign in to office@example.com again to continue."},
		{"stopped", gmail, context.Canceled, "The upload was stopped."},
		{"sandbox not running", Destination{Kind: Sandbox}, ErrNoSandbox,
			"The sandbox is not running, so there is nowhere to send the file. Start the sandbox and try again."},
		{"settings", Destination{Kind: CM360}, Destination{Kind: CM360}.Validate(),
			"User profile ID is required. Advertiser ID is required."},
		{"anything else", gmail, errors.New("odd failure at https://gmail.googleapis.com/upload/x?upload_id=SECRET with Bearer ya29.a0AfB_SECRET"),
			"The upload failed: odd failure at https://gmail.googleapis.com/upload/x with Bearer [redacted]"},
		{"nothing", gmail, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Explain(tt.d, tt.err)
			if got != tt.want {
				t.Errorf("Explain =\n %q\nwant\n %q", got, tt.want)
			}
			for _, secret := range []string{"SECRET", "upload_id", "ya29"} {
				if strings.Contains(got, secret) {
					t.Errorf("the explanation shows %q", secret)
				}
			}
		})
	}
}

func TestRedact(t *testing.T) {
	tests := map[string]string{
		"see https://x.googleapis.com/upload/a?upload_id=abc&x=1#frag now": "see https://x.googleapis.com/upload/a now",
		"token=abc&key=def":                       "token=[redacted]&key=[redacted]",
		"Authorization: Bearer abc.def-ghi":       "Authorization: [redacted]",
		"refresh 1//0gABCdef and access ya29.xyz": "refresh [redacted] and access [redacted]",
		"nothing secret here":                     "nothing secret here",
	}
	for in, want := range tests {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
