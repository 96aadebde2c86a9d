package dest

import (
	"fmt"
	"strconv"
	"strings"
)

// Upgraded moves a destination off an API version Google has switched off
// (a Campaign Manager 360 destination set to a version older than
// CM360Version gets CM360Version; each kind says what it moves). The second
// result says whether anything changed, so that the caller can tell the
// user once and save the change.
func (d Destination) Upgraded() (Destination, bool) {
	return d.of().upgraded(d)
}

// retiredCM360Version reports whether a Campaign Manager 360 API version is
// one Google has switched off: any version (beta or not) numbered below
// the current one.
func retiredCM360Version(v string) bool {
	n, ok := versionNumber(v)
	current, _ := versionNumber(CM360Version)
	return ok && n < current
}

// versionNumber reads the number of a version like "v4" or "v3beta1".
func versionNumber(v string) (int, bool) {
	v = strings.ToLower(strings.TrimSpace(v))
	digits, ok := strings.CutPrefix(v, "v")
	if !ok {
		return 0, false
	}
	end := 0
	for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(digits[:end])
	return n, err == nil
}

// UpgradeNotice is the sentence said once when n saved destinations or
// uploads moved to CM360Version; thing names one of them, e.g. "saved destination".
func UpgradeNotice(n int, thing string) string {
	what := fmt.Sprintf("%d %ss that used an old version now use", n, thing)
	if n == 1 {
		what = "a " + thing + " that used an old version now uses"
	}
	return "Google switched off Campaign Manager 360 API v4 (and older versions) on 26 February 2026, so " + what + " " + CM360Version + "."
}
