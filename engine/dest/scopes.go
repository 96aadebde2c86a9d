package dest

import (
	"net/url"
	"strings"
)

// googleScopePrefix is put before a short scope name such as "devstorage.read_write".
const googleScopePrefix = "https://www.googleapis.com/auth/"

// Scopes are the narrowest OAuth scopes the destination needs: one per Google
// kind, the "scope" setting for a custom URL (space or comma separated; a
// short name gets Google's prefix), none for the sandbox.
func (d Destination) Scopes() []string {
	if d.Kind != Custom {
		return append([]string(nil), kinds[d.Kind].scopes...)
	}
	var out []string
	for _, s := range strings.FieldsFunc(d.Param("scope"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		switch {
		case strings.Contains(s, "://"), s == "openid", s == "email", s == "profile":
		default:
			s = googleScopePrefix + s
		}
		out = append(out, s)
	}
	return out
}

// NeedsAuth reports whether uploads must carry the account's Google sign-in.
// Only requests to Google's API hosts do: a destination pointed elsewhere (the
// sandbox, a test server, a non-Google custom URL) never receives it.
func (d Destination) NeedsAuth() bool {
	if d.Kind == Sandbox || !d.Kind.Known() {
		return false
	}
	host := kinds[d.Kind].host
	if d.Kind == Custom {
		host = d.Param("url")
	}
	if d.BaseURL != "" {
		host = d.BaseURL
	}
	u, err := url.Parse(strings.TrimSpace(host))
	return err == nil && u.Scheme == "https" && googleHost(u.Hostname())
}
