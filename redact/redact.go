// Package redact knows what a secret looks like: access, refresh and ID
// tokens, client secrets, authorization values, authorization codes and
// upload session ids. Sign-in (auth) and the destinations' error sentences
// (engine/dest) both use it; it imports nothing of Hoist.
package redact

import (
	"regexp"
	"strings"
	"unicode"
)

// Mark replaces every secret.
const Mark = "[redacted]"

// Each pattern finds a secret by its shape or by the name before it.
var (
	bearerPattern  = regexp.MustCompile(`(?i)\b(bearer)(\s+|%20|\+)[A-Za-z0-9\-._~+/]+=*`)
	accessPattern  = regexp.MustCompile(`ya29\.[A-Za-z0-9_\-.]+`)
	refreshPattern = regexp.MustCompile(`\b1//[A-Za-z0-9_\-]+`)
	jwtPattern     = regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*`)
	secretPattern  = regexp.MustCompile(`GOCSPX-[A-Za-z0-9_\-]+`)
	namedPattern   = regexp.MustCompile(
		`(?i)(^|[^a-z0-9_]|%3f|%26)` + // a name starts here, also inside an escaped URL
			`(client_secret|access_token|refresh_token|id_token|code_verifier|upload_id|x-goog-signature|signature|sig|key|code|token|authorization)` +
			`(\\?"?\s*(?:[:=]|%3D)\s*\\?"?)` +
			`((?:bearer|basic)\s+)?` +
			`[^&\s"'\\,;}\[\])<>]+`)
)

// Text removes access tokens, refresh tokens, ID tokens, client secrets,
// authorization header values, authorization codes and upload session ids
// from s. Use it on any text about to be shown or logged.
func Text(s string) string {
	s = namedPattern.ReplaceAllStringFunc(s, func(m string) string {
		g := namedPattern.FindStringSubmatch(m)
		value := m[len(g[1])+len(g[2])+len(g[3])+len(g[4]):]
		if g[4] == "" && inProse(g[2], g[3]) && plainWord(value) {
			return m // "getting a token: Sign in…" names no secret
		}
		return g[1] + g[2] + g[3] + Mark
	})
	s = bearerPattern.ReplaceAllString(s, "$1 "+Mark)
	s = accessPattern.ReplaceAllString(s, Mark)
	s = refreshPattern.ReplaceAllString(s, Mark)
	s = jwtPattern.ReplaceAllString(s, Mark)
	s = secretPattern.ReplaceAllString(s, Mark)
	return s
}

// inProse says whether a name and what follows it read like a sentence
// ("token: Sign in"): a word that is also a name of secrets, then a colon,
// no quotes and no equals sign, which a secret's field or parameter has.
func inProse(name, sep string) bool {
	switch strings.ToLower(name) {
	case "token", "code", "key", "sig", "signature", "authorization":
	default:
		return false
	}
	return !strings.ContainsAny(sep, `"=\%`)
}

// plainWord says whether a value after a secret's name is an ordinary word
// of a sentence rather than a secret: letters only, and short. Every
// secret of Google's sign-in and upload sessions is longer, or has digits
// or signs.
func plainWord(v string) bool {
	if len(v) >= 16 {
		return false
	}
	for _, r := range v {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}
