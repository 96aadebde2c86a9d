package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"hoist/engine/fact"
)

// Uploads hands an upload queue the sign-in of a Service: it has the
// methods of the engine's Accounts, which the window and the command line
// both give their queue, so an upload meets the same accounts the same way
// wherever it starts. The clients it gives send through Base (nil: the
// service's own transport), with the authorization added on top.
type Uploads struct {
	Service *Service
	Base    http.RoundTripper
}

// Client gives an HTTP client signed in as account for scopes, or as the
// only account signed in when account is "". With none signed in the
// error is ErrNotSignedIn (a sign-in mends it); with several it is a
// *WhichAccountError, which names them.
func (u Uploads) Client(ctx context.Context, account string, scopes []string) (*http.Client, error) {
	if account == "" {
		list, err := u.Service.Accounts(ctx)
		if err != nil {
			return nil, err
		}
		switch len(list) {
		case 0:
			return nil, ErrNotSignedIn
		case 1:
			account = list[0].Email
		default:
			return nil, &WhichAccountError{Emails: Emails(list)}
		}
	}
	return u.Service.ClientVia(ctx, account, scopes, u.Base)
}

// NeedsSignIn reports whether err is mended only by signing in again.
func (u Uploads) NeedsSignIn(err error) bool { return u.Service.NeedsSignIn(err) }

// KeychainLocked reports whether err is mended by unlocking the keychain.
func (u Uploads) KeychainLocked(err error) bool { return u.Service.KeychainLocked(err) }

// Emails are the accounts' addresses, in the list's order.
func Emails(list []Account) []string {
	out := make([]string, len(list))
	for i, a := range list {
		out[i] = a.Email
	}
	return out
}

// WhichAccountError: several accounts are signed in and an upload names
// none of them. It is said as a fact (fact.WhichAccount).
type WhichAccountError struct{ Emails []string }

func (e *WhichAccountError) Error() string {
	return fmt.Sprintf("%s accounts=%s", fact.WhichAccount, strings.Join(e.Emails, ", "))
}

// Fact is the error as a fact: the accounts signed in.
func (e *WhichAccountError) Fact() fact.Fact {
	return fact.Fact{Code: fact.WhichAccount, Args: map[string]string{"accounts": strings.Join(e.Emails, ", ")}}
}
