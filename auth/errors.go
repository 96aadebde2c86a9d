package auth

import (
	"errors"
	"runtime"
	"strings"
)

// Errors a caller can test with errors.Is. Their messages are plain sentences
// meant to be shown to the user as they are.
var (
	// ErrNotSignedIn: no grant is held for the account.
	ErrNotSignedIn = errors.New("This Google account is not signed in to Hoist. Sign in first.")
	// ErrKeychainLocked: the keychain refused, stayed locked or did not answer in time.
	ErrKeychainLocked = errors.New(lockedKeychainWords)
	// ErrNoKeychain: the computer has no keychain service at all.
	ErrNoKeychain = errors.New(noKeychainWords)
	// ErrTooBig: a grant does not fit in one keychain entry.
	ErrTooBig = errors.New("The Google sign-in is too large to keep in the keychain.")

	// ErrNoClient: neither an imported nor a built-in OAuth client is available.
	ErrNoClient = errors.New("Hoist is not set up for Google sign-in yet. Import the OAuth client file (client_secret….json) from Google Cloud Console first.")
	// ErrNotDesktopClient: the client file is for another kind of application.
	ErrNotDesktopClient = errors.New("This client file is not for a desktop app. In Google Cloud Console, create an OAuth client ID of the type \u201cDesktop app\u201d and import its JSON file.")
	// ErrNotClientFile: the file is not an OAuth client file at all.
	ErrNotClientFile = errors.New("This file is not an OAuth client file from Google Cloud Console.")
	// ErrBadClient: Google does not accept the client (deleted, disabled or mistyped).
	ErrBadClient = errors.New("Google does not accept Hoist's sign-in settings (the OAuth client). Import a fresh client file from Google Cloud Console.")

	// ErrAccessDenied: the user declined on Google's consent page.
	ErrAccessDenied = errors.New("You chose not to give Hoist access. Nothing was changed.")
	// ErrSignInTimedOut: the browser never came back to Hoist.
	ErrSignInTimedOut = errors.New("Hoist stopped waiting for the sign-in in the browser because it took too long. Try again.")
	// ErrSignInCanceled: the sign-in was stopped before it finished.
	ErrSignInCanceled = errors.New("The sign-in was canceled. Nothing was changed.")
	// ErrNoRefreshToken: Google answered without a lasting grant.
	ErrNoRefreshToken = errors.New("Google did not let Hoist stay signed in. Sign in again and allow access.")
	// ErrNoIdentity: Hoist could not learn which account was used.
	ErrNoIdentity = errors.New("Hoist could not tell which Google account you signed in with. Try again.")
	// ErrGoogleUnreachable: the network failed while talking to Google's sign-in service.
	ErrGoogleUnreachable = errors.New("Hoist could not reach Google's sign-in service. Check the internet connection and try again.")
	// ErrNotRevoked: signed out locally, but Google was not told.
	ErrNotRevoked = errors.New("You are signed out on this computer, but Hoist could not tell Google to withdraw its access. You can remove Hoist at https://myaccount.google.com/permissions.")
)

// This system's words for its keychain (keychain_words.go).
var noKeychainWords, lockedKeychainWords = keychainWords(runtime.GOOS)

// plainError carries a user-facing message and, for errors.Is/As, the kind
// of failure and its technical cause. The cause never shows in the message.
type plainError struct {
	msg   string
	kind  error
	cause error
	// kindWords: msg is kind's own sentence, so kind's fact says it all.
	kindWords bool
}

func (e *plainError) Error() string { return e.msg }

func (e *plainError) Unwrap() []error {
	var errs []error
	if e.kind != nil {
		errs = append(errs, e.kind)
	}
	if e.cause != nil {
		errs = append(errs, e.cause)
	}
	return errs
}

// plain returns an error that shows msg and matches cause; the cause's own
// text (system words, file paths in Go's wording) stays out of the message.
func plain(msg string, cause error) error {
	return &plainError{msg: msg, cause: cause}
}

// failure returns an error whose message is kind's and that matches both
// kind and cause.
func failure(kind, cause error) error {
	return &plainError{msg: kind.Error(), kind: kind, cause: cause, kindWords: true}
}

// SignInAgainError says the stored grant can no longer be used: it was
// withdrawn, expired, or lacks scopes the task needs. Retrying does not help;
// the user must sign in again.
type SignInAgainError struct {
	Account string   // the account's email, when known
	Missing []string // scopes the grant lacks; empty when the grant is gone
	Err     error    // technical cause, if any; never part of the message
}

// ErrSignInAgain matches every *SignInAgainError with errors.Is.
var ErrSignInAgain = &SignInAgainError{}

func (e *SignInAgainError) Error() string {
	if len(e.Missing) > 0 {
		return "Hoist needs more access to your Google account for this (" +
			strings.Join(ScopeNames(e.Missing), ", ") + "). Sign in again to give it."
	}
	return "Your Google sign-in has expired or was withdrawn. Sign in again to continue."
}

// Is makes errors.Is(err, ErrSignInAgain) true for any SignInAgainError.
func (e *SignInAgainError) Is(target error) bool {
	_, ok := target.(*SignInAgainError)
	return ok
}

func (e *SignInAgainError) Unwrap() error { return e.Err }

// Retryable is false: the upload engine must not retry this error.
func (e *SignInAgainError) Retryable() bool { return false }

// ConsentError is an error Google sent back from its consent page, other
// than the user declining (which is ErrAccessDenied).
type ConsentError struct {
	Code string // OAuth error code, e.g. "admin_policy_enforced"
}

func (e *ConsentError) Error() string {
	switch e.Code {
	case "admin_policy_enforced":
		return "Your organization's administrator does not allow Hoist to use your Google account for this."
	case "org_internal":
		return "This copy of Hoist may only be used with accounts of one organization, and the account you chose is not one of them."
	case "invalid_scope":
		return "Google did not recognise the access Hoist asked for. Update Hoist and try again."
	case "unauthorized_client", "invalid_client":
		return ErrBadClient.Error()
	}
	return "Google could not finish the sign-in (" + e.Code + "). Try again."
}

// consentFailure turns the error parameter of the redirect into an error;
// the code comes from the browser, so only a short plain token is kept.
func consentFailure(code string) error {
	if code == "access_denied" {
		return ErrAccessDenied
	}
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r == '_' {
			return r
		}
		return -1
	}, strings.ToLower(code))
	if len(clean) > 40 {
		clean = clean[:40]
	}
	if clean == "" {
		clean = "unknown_error"
	}
	return &ConsentError{Code: clean}
}
