// Package redact knows what a secret looks like: access, refresh and ID
// tokens, client secrets, authorization values, authorization codes and
// upload session ids. Sign-in (auth) and the destinations' error sentences
// (engine/dest) both use it; it imports nothing of Hoist.
package redact

import "regexp"

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
	s = namedPattern.ReplaceAllString(s, "${1}${2}${3}"+Mark)
	s = bearerPattern.ReplaceAllString(s, "$1 "+Mark)
	s = accessPattern.ReplaceAllString(s, Mark)
	s = refreshPattern.ReplaceAllString(s, Mark)
	s = jwtPattern.ReplaceAllString(s, Mark)
	s = secretPattern.ReplaceAllString(s, Mark)
	return s
}
