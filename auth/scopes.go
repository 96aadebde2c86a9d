package auth

import (
	"slices"
	"strings"
)

// scopePrefix starts every Google API scope written as a URL.
const scopePrefix = "https://www.googleapis.com/auth/"

// The narrowest scopes Hoist's destinations need, and the identity scopes.
const (
	ScopeGmailInsert      = scopePrefix + "gmail.insert"     // put messages into a mailbox
	ScopeGmailSend        = scopePrefix + "gmail.send"       // send messages
	ScopeGmailCompose     = scopePrefix + "gmail.compose"    // create drafts
	ScopeDFATrafficking   = scopePrefix + "dfatrafficking"   // Campaign Manager 360 creatives
	ScopeAndroidPublisher = scopePrefix + "androidpublisher" // Play Games images
	ScopeOpenID           = "openid"
	ScopeEmail            = scopePrefix + "userinfo.email" // what Google grants for "email"
)

// IdentityScopes are asked for with every sign-in, so Hoist knows the account.
var IdentityScopes = []string{ScopeOpenID, ScopeEmail}

// normalizeScope writes a scope the way Google reports it as granted.
func normalizeScope(s string) string {
	s = strings.TrimSpace(s)
	switch s {
	case "email":
		return ScopeEmail
	case "profile":
		return scopePrefix + "userinfo.profile"
	}
	return s
}

// normalizeScopes returns the scopes normalized, sorted and without duplicates.
func normalizeScopes(scopes []string) []string {
	out := make([]string, 0, len(scopes))
	for _, s := range scopes {
		if s = normalizeScope(s); s != "" {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// unionScopes merges two scope lists.
func unionScopes(a, b []string) []string {
	return normalizeScopes(append(slices.Clone(a), b...))
}

// missingScopes lists the wanted scopes not in granted.
func missingScopes(granted, wanted []string) []string {
	have := normalizeScopes(granted)
	var missing []string
	for _, w := range normalizeScopes(wanted) {
		if _, found := slices.BinarySearch(have, w); !found {
			missing = append(missing, w)
		}
	}
	return missing
}

// shortScope drops the common URL prefix, for compact storage and display.
func shortScope(s string) string {
	return strings.TrimPrefix(s, scopePrefix)
}

// longScope undoes shortScope.
func longScope(s string) string {
	if s == ScopeOpenID || strings.Contains(s, ":") || strings.Contains(s, "/") {
		return s
	}
	return scopePrefix + s
}

// ScopeNames gives a short name for each scope, for lists shown to people,
// e.g. "gmail.insert" or "userinfo.email".
func ScopeNames(scopes []string) []string {
	names := make([]string, len(scopes))
	for i, s := range scopes {
		names[i] = shortScope(normalizeScope(s))
	}
	return names
}

// ParseScope accepts a scope's short name ("gmail.insert", "email") or its
// full URL and returns the full form.
func ParseScope(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if s == "email" || s == "profile" {
		return normalizeScope(s)
	}
	return longScope(s)
}
