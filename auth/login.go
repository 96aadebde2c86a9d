package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
)

// finishTimeout bounds the code exchange and the save after the browser came back.
const finishTimeout = time.Minute

// LoginOption adjusts a sign-in.
type LoginOption func(*loginOptions)

type loginOptions struct {
	account   string
	showURL   func(string)
	allowFile bool
	session   bool // keep the grant in memory only, until the process ends
	wait      time.Duration
}

// WaitingAtMost bounds how long this sign-in waits for the browser to come
// back (see Service.ConsentTimeout); d <= 0 leaves the Service's bound.
func WaitingAtMost(d time.Duration) LoginOption {
	return func(o *loginOptions) { o.wait = d }
}

// ShowingURL calls show with the consent page's address when the browser
// cannot be opened, for this sign-in (see Service.ShowURL).
func ShowingURL(show func(url string)) LoginOption {
	return func(o *loginOptions) { o.showURL = show }
}

// AllowingFileStore keeps this sign-in in a file when the computer has no
// keychain: the user has agreed to it (see Service.AllowFileStore).
func AllowingFileStore() LoginOption {
	return func(o *loginOptions) { o.allowFile = true }
}

// KeepingForThisSession keeps this sign-in in memory only: nothing is
// written to the keychain, a file or the account list, and the sign-in is
// gone when the process ends. For a computer whose keychain cannot be used,
// when the user would rather sign in again next time than keep a file.
func KeepingForThisSession() LoginOption {
	return func(o *loginOptions) { o.session = true }
}

// ForAccount signs in again as email, asking only for what is missing: the
// new scopes are added to the account's grant (include_granted_scopes) and
// Google preselects the account.
func ForAccount(email string) LoginOption {
	return func(o *loginOptions) { o.account = email }
}

// Login signs a Google account in: it opens Google's consent page in the
// browser, waits for the answer on a loopback address, exchanges the code
// (with PKCE) and keeps the grant. scopes are added to the identity scopes.
//
// When the computer has no keychain and AllowFileStore is false, Login
// fails with ErrNoKeychain before opening the browser: ask the user, set
// AllowFileStore and call it again.
func (s *Service) Login(ctx context.Context, scopes []string, opts ...LoginOption) (Account, error) {
	o := loginOptions{showURL: s.ShowURL, allowFile: s.AllowFileStore}
	for _, opt := range opts {
		opt(&o)
	}
	cfg, err := s.oauthConfig()
	if err != nil {
		return Account{}, err
	}
	held, err := (signIn{s}).checkStorage(ctx, o.account, o.allowFile, o.session)
	if err != nil {
		return Account{}, err
	}

	timeout := o.wait
	if timeout <= 0 {
		timeout = s.ConsentTimeout
	}
	if timeout <= 0 {
		timeout = DefaultConsentTimeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrSignInTimedOut)
	defer cancel()

	listener, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return Account{}, plain("Hoist could not prepare the sign-in on this computer. Try again.", err)
	}
	cfg.RedirectURL = "http://" + listener.Addr().String() + "/"
	cfg.Scopes = normalizeScopes(append(append([]string(nil), IdentityScopes...), scopes...))

	state, err := randomState()
	if err != nil {
		listener.Close()
		return Account{}, err
	}
	verifier := oauth2.GenerateVerifier()
	params := []oauth2.AuthCodeOption{
		oauth2.AccessTypeOffline,
		oauth2.S256ChallengeOption(verifier),
		oauth2.SetAuthURLParam("include_granted_scopes", "true"),
	}
	if o.account != "" {
		params = append(params, oauth2.SetAuthURLParam("login_hint", o.account))
	}
	if held.RefreshToken == "" || held.ClientID != cfg.ClientID {
		// Without prompt=consent Google does not hand out a refresh token again.
		params = append(params, oauth2.SetAuthURLParam("prompt", "consent"))
	}
	authURL := cfg.AuthCodeURL(state, params...)

	page := &consentPage{state: state, callbacks: make(chan callback, 1), done: make(chan struct{})}
	server := &http.Server{Handler: page, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = server.Serve(listener) // returns when shut down below
	}()
	defer func() {
		close(page.done)
		shutdownCtx, stop := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer stop()
		if server.Shutdown(shutdownCtx) != nil {
			server.Close()
		}
		<-served
	}()

	if err := (signIn{s}).openBrowser(authURL); err != nil {
		if o.showURL == nil {
			return Account{}, plain("Hoist could not open the web browser for the sign-in. Check that a web browser is installed and try again.", err)
		}
		o.showURL(authURL)
	}

	select {
	case cb := <-page.callbacks:
		if cb.err != nil {
			cb.reply <- result{err: cb.err}
			return Account{}, cb.err
		}
		// The user has answered; finishing gets its own time, not what is left of the wait.
		fctx, stop := context.WithTimeout(parent, finishTimeout)
		defer stop()
		acct, err := (signIn{s}).finishLogin(fctx, cfg, cb.code, verifier, o.allowFile, o.session)
		if err != nil && fctx.Err() != nil {
			err = failure(ErrSignInCanceled, context.Cause(fctx))
			if errors.Is(fctx.Err(), context.DeadlineExceeded) {
				err = failure(ErrGoogleUnreachable, fctx.Err())
			}
		}
		cb.reply <- result{account: acct, err: err}
		return acct, err
	case <-ctx.Done():
		return Account{}, (signIn{s}).stopped(ctx)
	}
}

// stopped explains why the wait for the browser ended early.
func (s signIn) stopped(ctx context.Context) error {
	cause := context.Cause(ctx)
	if errors.Is(cause, ErrSignInTimedOut) || errors.Is(cause, context.DeadlineExceeded) {
		return failure(ErrSignInTimedOut, context.DeadlineExceeded)
	}
	return failure(ErrSignInCanceled, cause)
}

// checkStorage makes sure the grant will have a place before the user is
// sent to Google, and returns the grant already held for account, if any.
// A sign-in kept for this session only needs no place but memory.
func (s signIn) checkStorage(ctx context.Context, account string, allowFile, session bool) (Grant, error) {
	probe := account
	if probe == "" {
		probe = "(availability check)"
	}
	if account != "" {
		g, _, err := s.loadGrant(ctx, account)
		if err == nil {
			return g, nil
		}
		if !errors.Is(err, ErrNotSignedIn) && !errors.Is(err, ErrNoKeychain) && !errors.Is(err, ErrSignInAgain) && !session {
			return Grant{}, err
		}
	}
	if session {
		return Grant{}, nil
	}
	_, err := s.primary().Get(ctx, probe)
	switch {
	case err == nil, errors.Is(err, ErrNotSignedIn), errors.Is(err, ErrSignInAgain):
		return Grant{}, nil
	case errors.Is(err, ErrNoKeychain) && allowFile:
		return Grant{}, nil
	}
	return Grant{}, err
}

// finishLogin exchanges the code, learns the account and keeps the grant.
func (s signIn) finishLogin(ctx context.Context, cfg *oauth2.Config, code, verifier string, allowFile, session bool) (Account, error) {
	hctx := context.WithValue(ctx, oauth2.HTTPClient, s.httpClient())
	tok, err := cfg.Exchange(hctx, code, oauth2.VerifierOption(verifier))
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
			return Account{}, &plainError{msg: "Google did not accept the sign-in. Try again.", cause: re}
		}
		return Account{}, tokenEndpointError(ctx, "", err)
	}
	email, err := s.identify(ctx, tok, cfg.ClientID)
	if err != nil {
		return Account{}, err
	}

	// With include_granted_scopes, Google's list covers the earlier grant
	// too; only without a list are the earlier scopes added below.
	granted := cfg.Scopes
	sc, _ := tok.Extra("scope").(string)
	if sc != "" {
		granted = strings.Fields(sc)
	}
	g := Grant{
		RefreshToken: tok.RefreshToken,
		AccessToken:  tok.AccessToken,
		Scopes:       normalizeScopes(granted),
		ClientID:     cfg.ClientID,
	}
	if tok.ExpiresIn > 0 {
		g.Expiry = s.now().Add(time.Duration(tok.ExpiresIn) * time.Second)
	} else {
		g.Expiry = tok.Expiry
	}
	// A refresh saving its result meanwhile finishes first; none saves after.
	saves := s.grantLock(email)
	if err := saves.lock(ctx); err != nil {
		return Account{}, err
	}
	defer saves.unlock()
	if old, _, err := s.loadGrant(ctx, email); err == nil && old.ClientID == cfg.ClientID {
		if sc == "" {
			g.Scopes = unionScopes(old.Scopes, g.Scopes)
		}
		if g.RefreshToken == "" {
			g.RefreshToken = old.RefreshToken
		}
	}
	if g.RefreshToken == "" {
		return Account{}, ErrNoRefreshToken
	}
	var lessSafe bool
	if session || s.memory().Has(email) {
		err = s.memory().Set(ctx, email, g)
	} else {
		lessSafe, err = s.saveGrant(ctx, email, g, allowFile)
	}
	if err != nil {
		return Account{}, err
	}
	saves.gen++
	(tokenSources{s.Service}).replaceSource(email, g, saves.gen)
	return Account{Email: email, Scopes: g.Scopes, LessSafe: lessSafe, ThisSession: s.memory().Has(email)}, nil
}

// identify learns the account's email from the ID token, which came
// straight from the token endpoint over TLS, or else from userinfo.
func (s signIn) identify(ctx context.Context, tok *oauth2.Token, clientID string) (string, error) {
	if idToken, _ := tok.Extra("id_token").(string); idToken != "" {
		claims, err := idTokenClaims(idToken)
		if err != nil {
			return "", err
		}
		if claims.Audience != "" && claims.Audience != clientID {
			return "", failure(ErrNoIdentity, errors.New("ID token is for another client"))
		}
		if claims.Email != "" {
			return claims.Email, nil
		}
	}
	return s.userinfoEmail(ctx, tok.AccessToken)
}

type idClaims struct {
	Email    string `json:"email"`
	Audience string `json:"aud"`
}

// idTokenClaims reads a JWT's payload without checking its signature.
func idTokenClaims(jwt string) (idClaims, error) {
	var c idClaims
	parts := strings.Split(jwt, ".")
	if len(parts) != 3 {
		return c, failure(ErrNoIdentity, errors.New("ID token is not a JWT"))
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return c, failure(ErrNoIdentity, errors.New("ID token payload is not base64url"))
	}
	if err := json.Unmarshal(payload, &c); err != nil {
		return c, failure(ErrNoIdentity, errors.New("ID token payload is not JSON"))
	}
	return c, nil
}

func (s signIn) userinfoEmail(ctx context.Context, accessToken string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.endpoints().UserinfoURL, nil)
	if err != nil {
		return "", failure(ErrNoIdentity, err)
	}
	req.Header.Set("Authorization", "Bearer "+accessToken)
	resp, err := s.httpClient().Do(req)
	if err != nil {
		return "", failure(ErrGoogleUnreachable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", failure(ErrNoIdentity, fmt.Errorf("userinfo answered %s", resp.Status))
	}
	var info struct {
		Email string `json:"email"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&info); err != nil || info.Email == "" {
		return "", failure(ErrNoIdentity, errors.New("userinfo has no email"))
	}
	return info.Email, nil
}

// revoke asks Google to withdraw the grant the token belongs to.
func (s signIn) revoke(ctx context.Context, token string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	body := url.Values{"token": {token}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoints().RevokeURL, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.httpClient().Do(req)
	if err != nil {
		return failure(ErrGoogleUnreachable, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		return nil
	}
	var e struct {
		Error string `json:"error"`
	}
	_ = json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&e)
	if e.Error == "invalid_token" {
		return nil // already withdrawn or expired
	}
	return fmt.Errorf("revoke endpoint answered %s", resp.Status)
}

func (s signIn) openBrowser(u string) error {
	if s.OpenBrowser != nil {
		return s.OpenBrowser(u)
	}
	return OpenSystemBrowser(u)
}

func randomState() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", plain("Hoist could not prepare the sign-in on this computer. Try again.", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// callback is the browser's return from Google, handed to Login.
type callback struct {
	code  string
	err   error
	reply chan result
}

type result struct {
	account Account
	err     error
}

// consentPage is the loopback listener's handler. It accepts exactly one
// callback carrying the right state; anything else is refused.
type consentPage struct {
	state     string
	taken     atomic.Bool
	callbacks chan callback
	done      chan struct{} // closed when Login returns
}

func (p *consentPage) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(p.state)) != 1 {
		writePage(w, http.StatusBadRequest, "This sign-in link is not valid",
			"It does not belong to the sign-in Hoist is waiting for. Go back to Hoist and start the sign-in again.")
		return
	}
	if !p.taken.CompareAndSwap(false, true) {
		writePage(w, http.StatusConflict, "This sign-in is already finished",
			"Hoist has already received Google's answer. You can close this tab.")
		return
	}
	cb := callback{code: q.Get("code"), reply: make(chan result, 1)}
	switch {
	case q.Get("error") != "":
		cb.err = consentFailure(q.Get("error"))
	case cb.code == "":
		cb.err = &plainError{msg: "Google's answer did not include a sign-in code. Try again."}
	}
	p.callbacks <- cb // buffered for the one accepted callback
	select {
	case res := <-cb.reply:
		if res.err != nil {
			writePage(w, http.StatusOK, "Sign-in did not finish", res.err.Error())
			return
		}
		writePage(w, http.StatusOK, "Signed in \u2014 you can close this tab",
			"Hoist is now signed in to Google as "+res.account.Email+". Go back to Hoist to continue.")
	case <-p.done:
		writePage(w, http.StatusOK, "Sign-in did not finish", "Hoist stopped waiting for this sign-in. Go back to Hoist and try again.")
	case <-r.Context().Done():
	}
}

// writePage answers the browser with a small page in plain words.
func writePage(w http.ResponseWriter, status int, title, message string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.WriteHeader(status)
	fmt.Fprintf(w, `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Hoist</title>
<style>body{font:17px/1.5 system-ui,sans-serif;max-width:34em;margin:5em auto;padding:0 1em;color:#202124}h1{font-size:1.5em;font-weight:500}</style>
</head><body><h1>%s</h1><p>%s</p></body></html>
`, html.EscapeString(title), html.EscapeString(message))
}
