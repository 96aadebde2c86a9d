package words

import (
	"strings"
	"testing"
)

// TestTheSetUpNamesEveryAPI: the guided set-up's list of APIs to turn on
// is made from the kinds, so a new kind's API is named by its own
// catalogue key, in every language, and each family's once.
func TestTheSetUpNamesEveryAPI(t *testing.T) {
	for _, code := range []string{"en", "ar", "fa", "he"} {
		l := New(code)
		got := l.APIs()
		for _, api := range []string{"Gmail API", "Campaign Manager 360 API", "Google Drive API", "YouTube Data API v3", "Cloud Storage API"} {
			if n := strings.Count(got, api); n != 1 {
				t.Errorf("%s: %q names %s %d times, want once", code, got, api, n)
			}
		}
		if strings.Contains(strings.ToLower(got), "sandbox") || strings.Contains(got, "Play") {
			t.Errorf("%s: %q names a kind that needs no API turned on", code, got)
		}
		if code == "fa" || code == "ar" {
			if strings.Contains(got, ", ") {
				t.Errorf("%s: %q parts its list with a Latin comma", code, got)
			}
		}
	}
}
