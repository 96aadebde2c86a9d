package dest

import (
	"net/url"
	"strings"
)

// googleScopePrefix is put before a short scope name such as "devstorage.read_write".
const googleScopePrefix = "https://www.googleapis.com/auth/"

// Scopes are the narrowest OAuth scopes the destination needs: one per Google
// kind, the "scope" setting for a custom URL, none for the sandbox.
func (d Destination) Scopes() []string {
	return d.of().scopes(d)
}

// NeedsAuth reports whether uploads must carry the account's Google sign-in.
// Only requests to Google's API hosts do: a destination pointed elsewhere (the
// sandbox, a test server, a non-Google custom URL) never receives it.
func (d Destination) NeedsAuth() bool {
	if !d.Kind.Known() {
		return false
	}
	host := d.of().host(d)
	if host == "" {
		return false // never Google, wherever it points
	}
	if d.BaseURL != "" {
		host = d.BaseURL
	}
	u, err := url.Parse(strings.TrimSpace(host))
	return err == nil && u.Scheme == "https" && googleHost(u.Hostname())
}
