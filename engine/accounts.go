package engine

import (
	"context"
	"net/http"
)

// Accounts is how the queue reaches Google sign-in without knowing how it is
// done: package auth provides it, and the window and the command line hand
// it over in Options. Destinations that need no sign-in never use it.
type Accounts interface {
	// Client is an HTTP client carrying account's authorization for scopes;
	// account is "" when the destination names none.
	Client(ctx context.Context, account string, scopes []string) (*http.Client, error)
	// NeedsSignIn reports whether err, from Client or from a request made
	// with its client, is mended only by signing the account in again.
	NeedsSignIn(err error) bool
	// KeychainLocked reports whether err is mended by unlocking the keychain.
	KeychainLocked(err error) bool
}
