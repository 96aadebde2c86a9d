package dest

import (
	"strconv"
	"strings"

	"hoist/engine/fact"
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

// UpgradeFact is the fact said once when n saved destinations
// (fact.UpgradedSaved) or listed uploads (fact.UpgradedListed) moved to
// CM360Version.
func UpgradeFact(code fact.Code, n int) fact.Fact {
	return fact.Fact{Code: code, Count: n, Args: map[string]string{"current": CM360Version}}
}
