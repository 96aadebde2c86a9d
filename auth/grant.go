package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Grant is what Hoist keeps of one account's sign-in.
// Its String, GoString and LogValue never show the tokens.
type Grant struct {
	RefreshToken string
	AccessToken  string    // may be empty; then the next use refreshes it
	Expiry       time.Time // of AccessToken
	Scopes       []string  // granted scopes, full form
	ClientID     string    // the OAuth client the grant belongs to
}

func (g Grant) String() string {
	return fmt.Sprintf("Grant{scopes: %s, client: %s, expiry: %s, tokens: [redacted]}",
		strings.Join(ScopeNames(g.Scopes), " "), g.ClientID, g.Expiry.Format(time.RFC3339))
}

// GoString keeps %#v from printing the tokens.
func (g Grant) GoString() string { return g.String() }

// LogValue keeps slog from printing the tokens.
func (g Grant) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("scopes", strings.Join(ScopeNames(g.Scopes), " ")),
		slog.String("client", g.ClientID),
		slog.Time("expiry", g.Expiry),
	)
}

// MaxEntrySize bounds an encoded grant, well under the 2,560 bytes Windows
// allows for one credential.
const MaxEntrySize = 2048

// storedGrant is the compact form kept in the keychain.
type storedGrant struct {
	Version int    `json:"v"`
	Refresh string `json:"r"`
	Access  string `json:"a,omitempty"`
	Expiry  int64  `json:"e,omitempty"` // Unix seconds
	Scopes  string `json:"s,omitempty"` // short names, space-separated
	Client  string `json:"c,omitempty"`
}

// encodeGrant writes g compactly; the access token is left out when keeping
// it would pass MaxEntrySize (it is only a cache).
func encodeGrant(g Grant) (string, error) {
	var short []string
	for _, s := range normalizeScopes(g.Scopes) {
		short = append(short, shortScope(s))
	}
	sg := storedGrant{
		Version: 1,
		Refresh: g.RefreshToken,
		Access:  g.AccessToken,
		Scopes:  strings.Join(short, " "),
		Client:  g.ClientID,
	}
	if g.AccessToken != "" && !g.Expiry.IsZero() {
		sg.Expiry = g.Expiry.Unix()
	}
	b, err := json.Marshal(sg)
	if err == nil && len(b) > MaxEntrySize {
		sg.Access, sg.Expiry = "", 0
		b, err = json.Marshal(sg)
	}
	if err != nil {
		return "", fmt.Errorf("encoding the sign-in: %w", err)
	}
	if len(b) > MaxEntrySize {
		return "", ErrTooBig
	}
	return string(b), nil
}

// decodeGrant reads what encodeGrant wrote.
func decodeGrant(s string) (Grant, error) {
	var sg storedGrant
	if err := json.Unmarshal([]byte(s), &sg); err != nil || sg.Refresh == "" {
		// The cause may quote the secret, so it is not kept.
		return Grant{}, &SignInAgainError{Err: errUnreadableGrant}
	}
	g := Grant{
		RefreshToken: sg.Refresh,
		AccessToken:  sg.Access,
		ClientID:     sg.Client,
	}
	if sg.Expiry != 0 {
		g.Expiry = time.Unix(sg.Expiry, 0)
	}
	for _, f := range strings.Fields(sg.Scopes) {
		g.Scopes = append(g.Scopes, longScope(f))
	}
	return g, nil
}

var errUnreadableGrant = errors.New("stored sign-in is unreadable")
