package engine

import (
	"context"
	"encoding/json"
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

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
	"hoist/words"
)

// needsSignIn is an error that must not be retried, written for the user.
type needsSignIn struct{}

func (needsSignIn) Error() string   { return "Sign in to office@example.com again to continue." }
func (needsSignIn) Retryable() bool { return false }

// saysFact is an error that carries its own fact, as the command line's
// "several accounts and none named" does.
type saysFact struct{}

func (saysFact) Error() string { return "Several Google accounts are signed in." }
func (saysFact) Fact() fact.Fact {
	return fact.Fact{Code: fact.WhichAccount, Args: map[string]string{"accounts": "a@example.com, b@example.com", "flag": "--account"}}
}

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

// TestErrorFacts: every error that stops an upload becomes the fact that
// says it, with what its sentence names (the advertiser, the draft, the
// version, Google's own words), and never a session URI or a token.
func TestErrorFacts(t *testing.T) {
	refused, dropped, untrusted := networkErrors(t)
	_, missing := media.Inspect(filepath.Join(t.TempDir(), "gone.eml"))

	gmail := dest.Destination{Kind: dest.GmailInsert}
	send := dest.Destination{Kind: dest.GmailSend}
	draft := dest.Destination{Kind: dest.GmailDraft, Params: map[string]string{"draftId": "r-9"}}
	cm := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "55", "advertiserId": "1234"}}
	games := dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "CgkI1", "imageType": "ACHIEVEMENT_ICON"}}
	sandbox := dest.Destination{Kind: dest.Sandbox, BaseURL: "http://127.0.0.1:8080"}
	other := dest.Destination{Kind: dest.Custom, Name: "Office server", Params: map[string]string{"url": "https://files.example.com/in"}}
	youtube := dest.Destination{Kind: dest.YouTube}

	api := func(status int, reason, message string) error {
		return fmt.Errorf("starting the session: %w", &upload.APIError{Status: status, Code: status, Reason: reason, Message: message})
	}
	type args = map[string]string
	tests := []struct {
		name   string
		d      dest.Destination
		err    error
		code   fact.Code
		status int
		args   args   // parameters the sentence names
		google string // the server's own words, as shown
	}{
		{"rate limit", gmail, api(429, "rateLimitExceeded", "Too many requests"), fact.ServerLimit, 429, nil, "Too many requests"},
		{"user rate limit as 403", cm, api(403, "userRateLimitExceeded", "User Rate Limit Exceeded"), fact.ServerLimit, 403, nil, ""},
		{"quota", games, api(403, "quotaExceeded", "Quota exceeded"), fact.ServerLimit, 403, nil, ""},
		{"sign-in expired", gmail, api(401, "authError", "Invalid Credentials"), fact.SignInExpired, 401, nil, ""},
		{"cm360 forbidden", cm, api(403, "forbidden", "The current user does not have permission"),
			fact.Forbidden, 403, args{"advertiser": "1234"}, ""},
		{"scopes", cm, api(403, "insufficientPermissions", "Request had insufficient authentication scopes."),
			fact.MoreAccess, 403, args{"scopes": "dfatrafficking"}, ""},
		{"gmail forbidden", gmail, api(403, "forbidden", "Forbidden"), fact.Forbidden, 403, nil, ""},
		{"send forbidden", send, api(403, "", ""), fact.Forbidden, 403, nil, ""},
		{"play games forbidden", games, api(403, "PERMISSION_DENIED", "denied"), fact.Forbidden, 403, args{"resource": "CgkI1"}, ""},
		{"service off", cm, api(403, "accessNotConfigured", "Campaign Manager 360 API has not been used in project 123 before or it is disabled"),
			fact.ServiceOff, 403, nil, "Campaign Manager 360 API has not been used in project 123 before or it is disabled"},
		{"invalid argument", cm, api(400, "invalidArgument", "Invalid asset name"), fact.RefusedFile, 400, nil, "Invalid asset name"},
		{"bad request without words", gmail, api(400, "", ""), fact.RefusedFile, 400, nil, ""},
		{"draft gone", draft, api(404, "notFound", "Requested entity was not found."), fact.NotFound, 404, args{"draft": "r-9"}, ""},
		{"cm360 v4 switched off", cm, api(403, "forbidden", "3140 : Version v4 of the Campaign Manager 360 API is no longer supported. Please migrate to a supported version."),
			fact.Retired, 403, args{"version": "v4", "current": dest.CM360Version}, ""},
		{"cm360 v4 later a 404", cm, api(404, "notFound", "Version v4 of the API is no longer supported"),
			fact.Retired, 404, args{"version": "v4", "current": dest.CM360Version}, ""},
		{"other API version gone", other, api(403, "forbidden", "Version v1beta of the Example API is no longer available."),
			fact.Retired, 403, args{"version": "v1beta", "name": "Office server"}, ""},
		{"cm360 other 403", cm, api(403, "domainPolicy", "The domain administrators have disabled Campaign Manager 360 for this user."),
			fact.RefusedUpload, 403, nil, ""},
		{"play games removed, 404", games, api(404, "notFound", "Method not found."), fact.Code("google.playGamesGone"), 404, nil, ""},
		{"play games removed, 400", games, api(400, "badRequest", "Invalid request"), fact.Code("google.playGamesGone"), 400, nil, ""},
		{"cm360 not found", cm, api(404, "notFound", "Not found"), fact.NotFound, 404, args{"profile": "55", "advertiser": "1234"}, ""},
		{"no channel", youtube, api(401, "youtubeSignupRequired", ""), fact.Code("google.noChannel"), 401, nil, ""},
		{"youtube forbidden", youtube, api(403, "forbidden", ""), fact.Forbidden, 403, nil, ""},
		{"too large", send, api(413, "uploadTooLarge", "Request Entity Too Large"), fact.ServerTooLarge, 413, nil, ""},
		{"server error", gmail, api(503, "backendError", "Backend Error"), fact.ServerTrouble, 503, nil, "Backend Error"},
		{"sandbox error", sandbox, api(409, "conflict", "already exists"), fact.RefusedUpload, 409, nil, "already exists"},
		{"sandbox forbids", sandbox, api(403, "forbidden", "no"), fact.Forbidden, 403, nil, ""},
		{"other server refuses", other, api(400, "", "name missing"), fact.RefusedFile, 400, args{"name": "Office server"}, "name missing"},
		{"message with a session URI", gmail, api(400, "badRequest", "Bad offset for https://gmail.googleapis.com/upload/gmail/v1/users/me/messages?uploadType=resumable&upload_id=ADPycdt_SECRET"),
			fact.RefusedFile, 400, nil, "Bad offset for https://gmail.googleapis.com/upload/gmail/v1/users/me/messages"},
		{"connection refused", sandbox, refused, fact.NothingAnswered, 0, nil, ""},
		{"connection dropped", gmail, dropped, fact.Dropped, 0, nil, ""},
		{"untrusted server", gmail, untrusted, fact.NotVerified, 0, nil, ""},
		{"dns", gmail, &net.DNSError{Err: "no such host", Name: "gmail.googleapis.com", IsNotFound: true}, fact.NoServer, 0, nil, ""},
		{"timeout", gmail, &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}, fact.TimedOut, 0, nil, ""},
		{"unexpected end", gmail, fmt.Errorf("reading the answer: %w", io.ErrUnexpectedEOF), fact.Dropped, 0, nil, ""},
		{"stalled", gmail, upload.ErrStalled, fact.Stalled, 0, nil, ""},
		{"session expired", gmail, fmt.Errorf("resuming: %w", upload.ErrSessionExpired), fact.SessionExpired, 0, nil, ""},
		{"foreign host", gmail, upload.ErrForeignHost, fact.ForeignHost, 0, nil, ""},
		{"bad response", gmail, upload.ErrBadResponse, fact.BadResponse, 0, nil, ""},
		{"answer lost", send, upload.ErrAnswerLost, fact.AnswerLost, 0, nil, ""},
		{"file changed", gmail, fmt.Errorf("chunk 3: %w", upload.ErrFileChanged), fact.ChangedWhileSent, 0, nil, ""},
		{"file missing", gmail, missing, fact.FileMissing, 0, nil, ""},
		{"sign in again", gmail, fmt.Errorf("signing in: %w", needsSignIn{}), fact.Failed, 0, nil,
			"signing in: Sign in to office@example.com again to continue."},
		{"a fact of its own", gmail, fmt.Errorf("signing in: %w", saysFact{}), fact.WhichAccount, 0,
			args{"accounts": "a@example.com, b@example.com", "flag": "--account"}, ""},
		{"stopped", gmail, context.Canceled, fact.Stopped, 0, nil, ""},
		{"sandbox not running", dest.Destination{Kind: dest.Sandbox}, dest.ErrNoSandbox, fact.NoSandbox, 0, nil, ""},
		{"settings", dest.Destination{Kind: dest.CM360}, dest.Destination{Kind: dest.CM360}.Validate(), fact.InvalidSettings, 0, nil, ""},
		{"anything else", gmail, errors.New("odd failure at https://gmail.googleapis.com/upload/x?upload_id=SECRET with Bearer ya29.a0AfB_SECRET"),
			fact.Failed, 0, nil, "odd failure at https://gmail.googleapis.com/upload/x with Bearer [redacted]"},
	}
	en := words.English()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jb := &job{info: media.Info{Name: "mail.eml"}, dest: tt.d}
			f := errFact(jb, tt.err)
			if f.Code != tt.code || f.Status != tt.status {
				t.Errorf("fact %s (status %d), want %s (status %d)", f.Code, f.Status, tt.code, tt.status)
			}
			for k, v := range tt.args {
				if f.Arg(k) != v {
					t.Errorf("%s = %q, want %q (args %v)", k, f.Arg(k), v, f.Args)
				}
			}
			if tt.google != "" && f.Google != tt.google {
				t.Errorf("Google's words %q, want %q", f.Google, tt.google)
			}
			if f.Dest != string(tt.d.Kind) && f.Code != fact.FileMissing {
				t.Errorf("destination %q, want %q", f.Dest, tt.d.Kind)
			}
			b, _ := json.Marshal(f)
			said := en.Fact(*f)
			for _, secret := range []string{"SECRET", "upload_id", "ya29"} {
				if strings.Contains(string(b), secret) || strings.Contains(said, secret) {
					t.Errorf("the fact or its words show %q: %s / %s", secret, b, said)
				}
			}
			if said == "" || strings.HasPrefix(said, "fact.") {
				t.Errorf("the fact has no words: %q", said)
			}
		})
	}
	gaveUp := errFact(&job{dest: gmail}, fmt.Errorf("%w: %w", upload.ErrTooManyRetries, &upload.APIError{Status: 503}))
	if gaveUp.Code != fact.ServerTrouble || !gaveUp.GaveUp {
		t.Errorf("after several tries: %+v", gaveUp)
	}
}
