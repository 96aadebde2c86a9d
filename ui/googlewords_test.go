package ui

import (
	"testing"

	"hoist/engine"
)

// Google's own words come with the reason, under Details, never instead of it.
func TestGoogleWordsUnderDetails(t *testing.T) {
	v := engine.JobView{State: engine.Failed, Reason: "This account cannot upload to advertiser 2.",
		Details: "User does not have permission.", DetailsFrom: "Google"}
	if got, want := googleWords(v), "Details — Google said: “User does not have permission.”"; got != want {
		t.Errorf("googleWords = %q, want %q", got, want)
	}
	v.Details = ""
	if got := googleWords(v); got != "" {
		t.Errorf("words where Google said none: %q", got)
	}
}
