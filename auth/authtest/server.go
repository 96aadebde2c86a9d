// Package authtest is a local stand-in for Google's OAuth 2.0 service, for
// tests: a consent page that agrees (or declines) at once, a token endpoint
// that checks PKCE and can rotate refresh tokens or refuse them, revoke and
// userinfo endpoints, and an /api/ endpoint that accepts only live access
// tokens. Browser plays the user's browser.
package authtest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Server is a fake OAuth service on 127.0.0.1. Set its exported fields
// before the flow they affect; they are read under the server's lock.
type Server struct {
	URL          string // base address, e.g. http://127.0.0.1:port
	ClientID     string
	ClientSecret string

	srv *httptest.Server

	mu sync.Mutex
	// Email is the account the next consent signs in as.
	Email string
	// DenyWith makes the consent page answer with this OAuth error
	// (e.g. "access_denied") instead of a code.
	DenyWith string
	// RotateRefresh makes every refresh issue a new refresh token and
	// invalidate the old one.
	RotateRefresh bool
	// InvalidGrant makes every refresh fail with invalid_grant.
	InvalidGrant bool
	// OmitIDToken leaves the ID token out, so the client must ask userinfo.
	OmitIDToken bool
	// AccessTTL is the lifetime of access tokens; 0 means an hour.
	AccessTTL time.Duration
	// RefreshDelay holds each refresh this long, so concurrent callers overlap.
	RefreshDelay time.Duration
	// FailRevoke makes the revoke endpoint answer 503.
	FailRevoke bool
	// OnRefresh, if set, runs (without the server's lock) when a refresh
	// request arrives, before it is answered.
	OnRefresh func()

	codes    map[string]*pendingCode
	grants   map[string]*grant // by email
	refresh  map[string]*grant // by refresh token
	access   map[string]*grant // by live access token
	seq      int
	authReqs []url.Values
	refreshN int
	revokeN  int
	apiAuth  []string // Authorization headers seen by /api/
	apiBody  []string
}

type pendingCode struct {
	email, challenge, redirect string
	scopes                     []string
	consent                    bool // prompt=consent was asked for
}

type grant struct {
	email   string
	scopes  []string
	refresh string
}

// NewServer starts a fake OAuth service; it is closed when the test ends.
func NewServer(t interface{ Cleanup(func()) }) *Server {
	s := &Server{
		ClientID:     "123-fake.apps.googleusercontent.com",
		ClientSecret: "GOCSPX-fake-client-secret-" + random(8),
		Email:        "ada@example.com",
		codes:        map[string]*pendingCode{},
		grants:       map[string]*grant{},
		refresh:      map[string]*grant{},
		access:       map[string]*grant{},
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /authorize", s.authorize)
	mux.HandleFunc("POST /token", s.token)
	mux.HandleFunc("POST /revoke", s.revoke)
	mux.HandleFunc("GET /userinfo", s.userinfo)
	mux.HandleFunc("/api/", s.api)
	s.srv = httptest.NewServer(mux)
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Host is the server's host:port, for Service.AllowedHosts.
func (s *Server) Host() string { return strings.TrimPrefix(s.URL, "http://") }

// ClientJSON is a client_secret file of the "Desktop app" type for this server.
func (s *Server) ClientJSON() []byte {
	b, _ := json.Marshal(map[string]any{"installed": map[string]any{
		"client_id":     s.ClientID,
		"project_id":    "hoist-test",
		"auth_uri":      s.URL + "/authorize",
		"token_uri":     s.URL + "/token",
		"client_secret": s.ClientSecret,
		"redirect_uris": []string{"http://localhost"},
	}})
	return b
}

// Set changes the server's behaviour under its lock.
func (s *Server) Set(change func(*Server)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	change(s)
}

// AuthRequests are the query parameters of every consent page request.
func (s *Server) AuthRequests() []url.Values {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.authReqs)
}

// Refreshes counts refresh grants answered (successfully or not).
func (s *Server) Refreshes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.refreshN
}

// Revocations counts successful revocations.
func (s *Server) Revocations() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.revokeN
}

// APIAuthorizations are the Authorization headers /api/ received.
func (s *Server) APIAuthorizations() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.apiAuth)
}

// APIBodies are the request bodies /api/ received.
func (s *Server) APIBodies() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.apiBody)
}

// RefreshToken is the live refresh token of email's grant.
func (s *Server) RefreshToken(email string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.grants[email]; g != nil {
		return g.refresh
	}
	return ""
}

// Scopes are the scopes granted to email.
func (s *Server) Scopes(email string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if g := s.grants[email]; g != nil {
		return slices.Clone(g.scopes)
	}
	return nil
}

// ExpireAccessTokens makes every access token issued so far unacceptable,
// as if it had expired early or been withdrawn; /api/ answers 401.
func (s *Server) ExpireAccessTokens() {
	s.mu.Lock()
	defer s.mu.Unlock()
	clear(s.access)
}

// AccessTokens lists the access tokens still accepted.
func (s *Server) AccessTokens() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for t := range s.access {
		out = append(out, t)
	}
	return out
}

func (s *Server) authorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.authReqs = append(s.authReqs, q)
	redirect, err := url.Parse(q.Get("redirect_uri"))
	switch {
	case q.Get("client_id") != s.ClientID:
		http.Error(w, "unknown client_id", http.StatusBadRequest)
		return
	case err != nil || redirect.Scheme != "http" || redirect.Hostname() != "127.0.0.1" || redirect.Port() == "":
		http.Error(w, "redirect_uri must be a loopback address with a port", http.StatusBadRequest)
		return
	case q.Get("response_type") != "code":
		http.Error(w, "response_type must be code", http.StatusBadRequest)
		return
	case q.Get("code_challenge_method") != "S256" || q.Get("code_challenge") == "":
		http.Error(w, "PKCE with S256 is required", http.StatusBadRequest)
		return
	case q.Get("state") == "" || q.Get("scope") == "":
		http.Error(w, "state and scope are required", http.StatusBadRequest)
		return
	}
	back := redirect.Query()
	back.Set("state", q.Get("state"))
	if s.DenyWith != "" {
		back.Set("error", s.DenyWith)
	} else {
		scopes := strings.Fields(q.Get("scope"))
		if old := s.grants[s.Email]; old != nil && q.Get("include_granted_scopes") == "true" {
			scopes = union(old.scopes, scopes)
		}
		code := "4/fake-code-" + random(12)
		s.codes[code] = &pendingCode{
			email:     s.Email,
			challenge: q.Get("code_challenge"),
			redirect:  q.Get("redirect_uri"),
			scopes:    union(nil, scopes),
			consent:   q.Get("prompt") == "consent",
		}
		back.Set("code", code)
		back.Set("scope", strings.Join(scopes, " "))
	}
	redirect.RawQuery = back.Encode()
	http.Redirect(w, r, redirect.String(), http.StatusFound)
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	id, secret := r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	if u, p, ok := r.BasicAuth(); ok {
		id, secret = u, p
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id != s.ClientID || secret != s.ClientSecret {
		oauthError(w, http.StatusUnauthorized, "invalid_client")
		return
	}
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.exchange(w, r.PostForm)
	case "refresh_token":
		s.refreshGrant(w, r.PostForm)
	default:
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type")
	}
}

func (s *Server) exchange(w http.ResponseWriter, form url.Values) {
	pc := s.codes[form.Get("code")]
	delete(s.codes, form.Get("code")) // a code works once
	if pc == nil || pc.redirect != form.Get("redirect_uri") {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	sum := sha256.Sum256([]byte(form.Get("code_verifier")))
	if base64.RawURLEncoding.EncodeToString(sum[:]) != pc.challenge {
		oauthError(w, http.StatusBadRequest, "invalid_grant")
		return
	}
	g := s.grants[pc.email]
	issueRefresh := g == nil || pc.consent // Google hands out a refresh token on consent
	if g == nil {
		g = &grant{email: pc.email}
		s.grants[pc.email] = g
	}
	g.scopes = union(g.scopes, pc.scopes)
	answer := s.issueAccess(g)
	if issueRefresh {
		delete(s.refresh, g.refresh)
		g.refresh = s.newRefresh()
		s.refresh[g.refresh] = g
		answer["refresh_token"] = g.refresh
	}
	if !s.OmitIDToken {
		answer["id_token"] = s.idToken(g.email)
	}
	writeJSON(w, http.StatusOK, answer)
}

func (s *Server) refreshGrant(w http.ResponseWriter, form url.Values) {
	s.refreshN++
	if d, hook := s.RefreshDelay, s.OnRefresh; d > 0 || hook != nil {
		s.mu.Unlock()
		if hook != nil {
			hook()
		}
		time.Sleep(d)
		s.mu.Lock()
	}
	g := s.refresh[form.Get("refresh_token")]
	if s.InvalidGrant || g == nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": "invalid_grant", "error_description": "Token has been expired or revoked.",
		})
		return
	}
	answer := s.issueAccess(g)
	if s.RotateRefresh {
		delete(s.refresh, g.refresh)
		g.refresh = s.newRefresh()
		s.refresh[g.refresh] = g
		answer["refresh_token"] = g.refresh
	}
	writeJSON(w, http.StatusOK, answer)
}

func (s *Server) issueAccess(g *grant) map[string]any {
	s.seq++
	tok := fmt.Sprintf("ya29.fake-access-%d-%s", s.seq, random(16))
	s.access[tok] = g
	ttl := s.AccessTTL
	if ttl <= 0 {
		ttl = time.Hour
	}
	return map[string]any{
		"access_token": tok,
		"token_type":   "Bearer",
		"expires_in":   int(ttl / time.Second),
		"scope":        strings.Join(g.scopes, " "),
	}
}

func (s *Server) newRefresh() string {
	s.seq++
	return fmt.Sprintf("1//fake-refresh-%d-%s", s.seq, random(16))
}

func (s *Server) idToken(email string) string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`))
	now := time.Now().Unix()
	payload, _ := json.Marshal(map[string]any{
		"iss": "https://accounts.google.com", "aud": s.ClientID, "sub": "sub-" + email,
		"email": email, "email_verified": true, "iat": now, "exp": now + 3600,
	})
	return header + "." + enc.EncodeToString(payload) + "." + enc.EncodeToString([]byte("not-signed"))
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.FailRevoke {
		oauthError(w, http.StatusServiceUnavailable, "backend_error")
		return
	}
	tok := r.PostForm.Get("token")
	g := s.refresh[tok]
	if g == nil {
		g = s.access[tok]
	}
	if g == nil {
		oauthError(w, http.StatusBadRequest, "invalid_token")
		return
	}
	// Withdrawing any token withdraws the whole grant.
	delete(s.refresh, g.refresh)
	for t, owner := range s.access {
		if owner == g {
			delete(s.access, t)
		}
	}
	delete(s.grants, g.email)
	s.revokeN++
	w.WriteHeader(http.StatusOK)
}

func (s *Server) bearer(r *http.Request) *grant {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil
	}
	return s.access[tok]
}

func (s *Server) userinfo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.bearer(r)
	if g == nil {
		oauthError(w, http.StatusUnauthorized, "invalid_token")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sub": "sub-" + g.email, "email": g.email, "email_verified": true})
}

// api accepts a request only with a live access token and echoes what it got.
func (s *Server) api(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.apiAuth = append(s.apiAuth, r.Header.Get("Authorization"))
	s.apiBody = append(s.apiBody, string(body))
	g := s.bearer(r)
	if g == nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="fake", error="invalid_token"`)
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{
			"code": 401, "status": "UNAUTHENTICATED", "message": "Request had invalid authentication credentials.",
		}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"account": g.email, "bytes": len(body)})
}

func oauthError(w http.ResponseWriter, status int, code string) {
	writeJSON(w, status, map[string]any{"error": code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func union(a, b []string) []string {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	return slices.Compact(out)
}

func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
