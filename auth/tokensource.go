package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// refreshTimeout bounds a refresh made through Token, which has no context.
const refreshTimeout = 60 * time.Second

// TokenSource gives one account's access tokens. It renews them shortly
// before they expire, one refresh at a time (concurrent callers wait for
// it), and saves the grant back, so a rotated refresh token is kept.
type TokenSource struct {
	account string
	config  *oauth2.Config
	store   TokenStore
	client  *http.Client
	now     func() time.Time
	early   time.Duration
	logger  *slog.Logger
	timeout time.Duration // of one refresh; 0 means refreshTimeout

	refreshing chan struct{} // holds one token while a refresh runs; waiters can give up on ctx
	saves      *grantLock    // the account's; a refresh saves its result under it

	mu    sync.Mutex
	grant Grant
	gen   uint64 // the saves generation grant belongs to
	ended bool   // signed out: every later call fails with ErrSignInAgain
}

// errOutOfTime is the cause of a refresh that ran out of its own time. It
// is not a context error: nobody stopped the caller.
var errOutOfTime = errors.New("the token endpoint did not answer within the refresh's time")

// grantLock orders the writes of one account's grant in its store: a
// refresh saving what it got, a sign-in saving a new grant, a sign-out
// deleting it. gen, read and changed only under the lock, grows with every
// sign-in and sign-out, so a refresh begun on an older grant never saves.
type grantLock struct {
	sem chan struct{}
	gen uint64
}

func newGrantLock() *grantLock { return &grantLock{sem: make(chan struct{}, 1)} }

func (l *grantLock) lock(ctx context.Context) error {
	select {
	case l.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (l *grantLock) unlock() { <-l.sem }

// Account is the email the tokens belong to.
func (ts *TokenSource) Account() string { return ts.account }

// Scopes are the scopes granted to the account.
func (ts *TokenSource) Scopes() []string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return slices.Clone(ts.grant.Scopes)
}

// Token implements oauth2.TokenSource; a refresh it makes is bounded by a
// minute. Prefer TokenContext where a context is at hand.
func (ts *TokenSource) Token() (*oauth2.Token, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ts.refreshTimeout())
	defer cancel()
	tok, err := ts.TokenContext(ctx)
	if err != nil && err == ctx.Err() {
		// The minute is Token's own, not a caller's.
		return nil, failure(ErrGoogleUnreachable, errOutOfTime)
	}
	return tok, err
}

// TokenContext returns a token valid for at least the refresh margin,
// refreshing it first when needed. The returned token carries no refresh
// token.
func (ts *TokenSource) TokenContext(ctx context.Context) (*oauth2.Token, error) {
	if tok, ok, err := ts.current(); err != nil || ok {
		return tok, err
	}
	return ts.refresh(ctx, "")
}

// current returns the held access token if it is still fresh.
func (ts *TokenSource) current() (*oauth2.Token, bool, error) {
	ts.mu.Lock()
	g, ended := ts.grant, ts.ended
	ts.mu.Unlock()
	if ended {
		return nil, false, &SignInAgainError{Account: ts.account}
	}
	if g.AccessToken == "" {
		return nil, false, nil
	}
	early := ts.early
	if early <= 0 {
		early = DefaultRefreshEarly
	}
	if !g.Expiry.IsZero() && !ts.clock().Add(early).Before(g.Expiry) {
		return nil, false, nil
	}
	return &oauth2.Token{AccessToken: g.AccessToken, TokenType: "Bearer", Expiry: g.Expiry}, true, nil
}

func (ts *TokenSource) refreshTimeout() time.Duration {
	if ts.timeout > 0 {
		return ts.timeout
	}
	return refreshTimeout
}

func (ts *TokenSource) clock() time.Time {
	if ts.now != nil {
		return ts.now()
	}
	return time.Now()
}

// refresh gets a new access token. rejected is an access token the server
// refused (401): a fresh-looking token equal to it is renewed anyway, while
// one that differs was renewed by another caller and is returned as is.
//
// The refresh itself runs in a goroutine of the source that ends within
// refreshTimeout: a caller that gives up (pause, cancel) does not abandon
// it halfway, so a refresh token Google rotated is never lost.
func (ts *TokenSource) refresh(ctx context.Context, rejected string) (*oauth2.Token, error) {
	ts.mu.Lock()
	if ts.refreshing == nil {
		ts.refreshing = make(chan struct{}, 1)
	}
	sem := ts.refreshing
	ts.mu.Unlock()
	select {
	case sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	tok, ok, err := ts.current()
	if err != nil || (ok && (rejected == "" || tok.AccessToken != rejected)) {
		<-sem
		return tok, err
	}
	done := make(chan refreshResult, 1)
	go func() {
		defer func() { <-sem }()
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ts.refreshTimeout())
		defer cancel()
		tok, err := ts.renew(rctx)
		done <- refreshResult{tok, err}
	}()
	select {
	case r := <-done:
		if err := ctx.Err(); err != nil {
			return nil, err // both were ready: a caller that gave up gets no token
		}
		return r.tok, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

type refreshResult struct {
	tok *oauth2.Token
	err error
}

// renew refreshes the held grant and saves the result, unless a sign-out
// or a new sign-in came first.
func (ts *TokenSource) renew(ctx context.Context) (*oauth2.Token, error) {
	ts.mu.Lock()
	g, gen := ts.grant, ts.gen
	ts.mu.Unlock()
	fresh, err := ts.exchangeRefresh(ctx, g)
	var again *SignInAgainError
	if errors.As(err, &again) {
		// Another Hoist process may have rotated the refresh token; try its copy once.
		if stored, serr := ts.store.Get(ctx, ts.account); serr == nil && stored.RefreshToken != g.RefreshToken {
			g = stored
			fresh, err = ts.exchangeRefresh(ctx, g)
		}
	}
	if err != nil {
		return nil, err
	}

	next := g
	next.AccessToken = fresh.AccessToken
	next.Expiry = ts.expiry(fresh)
	rotated := fresh.RefreshToken != "" && fresh.RefreshToken != g.RefreshToken
	if rotated {
		next.RefreshToken = fresh.RefreshToken
	}
	if granted, _ := fresh.Extra("scope").(string); granted != "" {
		next.Scopes = unionScopes(next.Scopes, strings.Fields(granted))
	}
	fresh = &oauth2.Token{AccessToken: next.AccessToken, TokenType: "Bearer", Expiry: next.Expiry}

	if err := ts.saves.lock(ctx); err != nil {
		return nil, failure(ErrGoogleUnreachable, errOutOfTime) // ctx is the refresh's own
	}
	defer ts.saves.unlock()
	ts.mu.Lock()
	ended, replaced, current := ts.ended, ts.gen != gen, ts.saves.gen == gen
	if !ended && !replaced {
		ts.grant = next
	}
	ts.mu.Unlock()
	switch {
	case ended:
		return nil, &SignInAgainError{Account: ts.account}
	case replaced:
		// A new sign-in gave the source its grant meanwhile; that one stays.
		if tok, ok, err := ts.current(); err != nil || ok {
			return tok, err
		}
		return fresh, nil
	case !current:
		// A source left behind by a sign-in or sign-out (after a client
		// change): it may use the token but not save over the account's grant.
		return fresh, nil
	}
	if err := ts.store.Set(ctx, ts.account, next); err != nil {
		// The request can go on with the new token; the next start may have to sign in again.
		ts.logger.Warn("could not save the refreshed Google sign-in",
			slog.String("account", ts.account), slog.Bool("rotated", rotated), slog.Any("error", err))
	}
	return fresh, nil
}

// exchangeRefresh asks the token endpoint for a new access token.
func (ts *TokenSource) exchangeRefresh(ctx context.Context, g Grant) (*oauth2.Token, error) {
	if g.RefreshToken == "" {
		return nil, &SignInAgainError{Account: ts.account}
	}
	rctx := context.WithValue(ctx, oauth2.HTTPClient, ts.client)
	tok, err := ts.config.TokenSource(rctx, &oauth2.Token{RefreshToken: g.RefreshToken}).Token()
	if err == nil {
		return tok, nil
	}
	return nil, tokenEndpointError(ctx, ts.account, err)
}

// tokenEndpointError classifies a failure of the token endpoint.
func tokenEndpointError(ctx context.Context, account string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		switch re.ErrorCode {
		case "invalid_grant":
			return &SignInAgainError{Account: account, Err: re}
		case "invalid_client", "unauthorized_client":
			return failure(ErrBadClient, re)
		}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		return ctx.Err() // the caller stopped it
	}
	if ctx.Err() != nil {
		// The time ran out (a refresh's own, or the sign-in's for the exchange).
		return failure(ErrGoogleUnreachable, errOutOfTime)
	}
	return failure(ErrGoogleUnreachable, err)
}

// expiry computes the token's expiry with the source's clock.
func (ts *TokenSource) expiry(tok *oauth2.Token) time.Time {
	if tok.ExpiresIn > 0 {
		return ts.clock().Add(time.Duration(tok.ExpiresIn) * time.Second)
	}
	return tok.Expiry
}

// invalidate drops accessToken if it is still the held one, so the next
// call refreshes.
func (ts *TokenSource) invalidate(accessToken string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.grant.AccessToken == accessToken {
		ts.grant.AccessToken = ""
		ts.grant.Expiry = time.Time{}
	}
}

// setGrant gives the source a new sign-in's grant, of generation gen;
// the caller holds the account's grantLock.
func (ts *TokenSource) setGrant(g Grant, gen uint64) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.grant = g
	ts.gen = gen
	ts.ended = false
}

// end forgets the grant after sign-out.
func (ts *TokenSource) end() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.grant = Grant{}
	ts.ended = true
}
