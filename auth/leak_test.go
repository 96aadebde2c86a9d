package auth

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/auth/authtest"
	"hoist/internal/syncbuf"
)

// TestNothingLeaks drives sign-in, uploads through 401s, server errors,
// dropped connections, refresh rotation, a withdrawn grant, a failed save,
// a failed revocation and a recovered panic, logging carelessly all the
// way through RedactingHandler, and looks for secrets in every log line
// and every error.
func TestNothingLeaks(t *testing.T) {
	f := newFixture(t)
	var sink syncbuf.Buffer
	log := slog.New(RedactingHandler(slog.NewTextHandler(&sink, &slog.HandlerOptions{Level: slog.LevelDebug})))
	f.svc.Logger = log
	f.srv.Set(func(s *authtest.Server) { s.RotateRefresh = true })

	secrets := map[string]bool{f.srv.ClientSecret: true}
	remember := func() {
		for _, tok := range f.srv.AccessTokens() {
			secrets[tok] = true
		}
		for _, email := range []string{"ada@example.com"} {
			if rt := f.srv.RefreshToken(email); rt != "" {
				secrets[rt] = true
			}
		}
	}
	var errs []error
	keep := func(err error) {
		if err != nil {
			errs = append(errs, err)
			log.Error("operation failed", "error", err, "detail", fmt.Sprintf("%+v", err))
		}
	}

	acct, err := f.svc.Login(t.Context(), []string{ScopeGmailInsert})
	if err != nil {
		t.Fatal(err)
	}
	remember()
	const uploadID = "ADPycdvSessionCapability-0123456789_abcdef"
	secrets[uploadID] = true

	// An API host that refuses the first token, fails, echoes what it got,
	// and drops a connection.
	var calls atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		switch calls.Add(1) {
		case 1:
			w.WriteHeader(http.StatusUnauthorized)
		case 2:
			w.Header().Set("Location", "http://"+r.Host+"/upload?upload_id="+uploadID)
			w.WriteHeader(http.StatusOK)
		case 3:
			http.Error(w, "backend error; you sent "+r.Header.Get("Authorization")+" and "+string(body)+" to "+r.URL.String(), http.StatusInternalServerError)
		default:
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}
	}))
	defer api.Close()
	f.svc.AllowedHosts = append(f.svc.AllowedHosts, strings.TrimPrefix(api.URL, "http://"))
	client, err := f.svc.Client(t.Context(), acct.Email, []string{ScopeGmailInsert})
	if err != nil {
		t.Fatal(err)
	}

	send := func(method, u, body string) {
		req, err := http.NewRequestWithContext(t.Context(), method, u, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		log.Debug("sending", "method", method, "url", u, "request", req)
		resp, err := client.Do(req)
		remember()
		if err != nil {
			keep(err)
			return
		}
		defer resp.Body.Close()
		answer, _ := io.ReadAll(resp.Body)
		// A careless logger: the request the transport sent, headers and all.
		log.Info("answer", "status", resp.StatusCode, "location", resp.Header.Get("Location"),
			"sent_headers", resp.Request.Header, "sent", resp.Request, "body", string(answer))
	}
	send(http.MethodPost, api.URL+"/upload?uploadType=resumable", `{"raw":"metadata"}`)
	session := api.URL + "/upload?upload_id=" + uploadID
	send(http.MethodPut, session, "chunk")
	send(http.MethodPut, session, "chunk")

	// Refresh with rotation, with a store that cannot save.
	f.store.mu.Lock()
	f.store.setErr = errors.New("keychain said no")
	f.store.mu.Unlock()
	f.clock.Advance(2 * time.Hour)
	send(http.MethodPost, api.URL+"/upload?uploadType=media", "bytes")

	// A panic carrying secrets, recovered and logged.
	func() {
		defer func() {
			if r := recover(); r != nil {
				log.Error("recovered", "panic", r, "stack", string(debug.Stack()))
			}
		}()
		tok, _ := f.svc.sources[acct.Email].Token()
		panic(fmt.Sprintf("upload crashed with token %s at %s", tok.AccessToken, session))
	}()
	remember()

	// The grant is withdrawn.
	f.srv.Set(func(s *authtest.Server) { s.InvalidGrant = true })
	f.clock.Advance(2 * time.Hour)
	send(http.MethodPut, session, "chunk")
	_, err = f.svc.sources[acct.Email].Token()
	keep(err)

	// Sign-out that cannot reach Google, and clients that are not allowed.
	f.store.mu.Lock()
	f.store.setErr = nil
	f.store.mu.Unlock()
	f.srv.Set(func(s *authtest.Server) { s.FailRevoke = true })
	keep(f.svc.Logout(t.Context(), acct.Email))
	_, err = f.svc.Client(t.Context(), acct.Email, nil)
	keep(err)
	remember()

	if len(errs) < 4 {
		t.Fatalf("only %d errors collected; the scenario did not run as planned", len(errs))
	}
	out := sink.String()
	if !strings.Contains(out, "could not save the refreshed Google sign-in") || !strings.Contains(out, "recovered") {
		t.Fatalf("expected log lines missing:\n%s", out)
	}
	for s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("log output contains secret %q", s)
		}
		for _, err := range errs {
			// Errors from auth itself are clean as they are; errors from the
			// HTTP client quote the URL, so they are shown through Redact.
			shown := err.Error()
			var urlErr interface{ Timeout() bool }
			if errors.As(err, &urlErr) {
				shown = Redact(shown)
			}
			if strings.Contains(shown, s) {
				t.Errorf("error %q contains secret %q", shown, s)
			}
		}
	}
	if files := filesContaining(t, f.svc.ConfigDir, mapKeys(secrets)...); len(files) > 0 {
		t.Errorf("secrets written to %v", files)
	}
}

func mapKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
