package auth

import (
	"errors"
	"strings"

	"hoist/engine/fact"
)

// errFacts are the facts of the sign-in's own errors, checked in order.
var errFacts = []struct {
	err  error
	code fact.Code
}{
	{ErrNotSignedIn, fact.NotSignedIn},
	{ErrKeychainLocked, fact.KeychainLocked},
	{ErrNoKeychain, fact.NoKeychain},
	{ErrTooBig, fact.TooBig},
	{ErrNoClient, fact.NoClient},
	{ErrNotDesktopClient, fact.NotDesktopClient},
	{ErrNotClientFile, fact.NotClientFile},
	{ErrBadClient, fact.BadClient},
	{ErrAccessDenied, fact.AccessDenied},
	{ErrSignInTimedOut, fact.SignInTimedOut},
	{ErrSignInCanceled, fact.SignInCanceled},
	{ErrNoRefreshToken, fact.NoRefreshToken},
	{ErrNoIdentity, fact.NoIdentity},
	{ErrGoogleUnreachable, fact.GoogleUnreachable},
	{ErrNotRevoked, fact.NotRevoked},
}

// consentFacts are the facts of Google's consent page's error codes.
var consentFacts = map[string]fact.Code{
	"admin_policy_enforced": fact.AdminPolicy,
	"org_internal":          fact.OrgInternal,
	"invalid_scope":         fact.InvalidScope,
	"unauthorized_client":   fact.BadClient,
	"invalid_client":        fact.BadClient,
}

// Fact is what err says, as a fact in no language; false when err is not
// one of the sign-in's own errors, or says more than its kind's fact does
// (a file's path, what is wrong with it): its sentence is all there is then.
func Fact(err error) (fact.Fact, bool) {
	var (
		again   *SignInAgainError
		consent *ConsentError
		own     *plainError
	)
	switch {
	case errors.As(err, &own) && !own.kindWords:
		return fact.Fact{}, false
	case errors.As(err, &again) && len(again.Missing) > 0:
		return fact.Fact{Code: fact.MoreAccess, Args: map[string]string{"scopes": strings.Join(ScopeNames(again.Missing), ", ")}}, true
	case errors.As(err, &again):
		return fact.Fact{Code: fact.SignInAgain}, true
	case errors.As(err, &consent):
		if code, ok := consentFacts[consent.Code]; ok {
			return fact.Fact{Code: code}, true
		}
		return fact.Fact{Code: fact.ConsentFailed, Google: consent.Code}, true
	}
	var said interface{ Fact() fact.Fact }
	if errors.Is(err, ErrGoogleUnreachable) && errors.As(err, &said) {
		return said.Fact(), true // what stood in the way says more: the office proxy, a certificate
	}
	for _, e := range errFacts {
		if errors.Is(err, e.err) {
			return fact.Fact{Code: e.code}, true
		}
	}
	return fact.Fact{}, false
}
