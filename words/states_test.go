package words

import (
	"strings"
	"testing"

	"hoist/engine"
)

// TestOneVocabularyOfStates: a job's state has one set of words, which
// the window and the command line both say (State, StateWith…); no other
// part of the catalogue keeps its own words for the states.
func TestOneVocabularyOfStates(t *testing.T) {
	for _, code := range Codes {
		cat := readCatalogue(t, code)
		for _, s := range engine.AllStates() {
			if _, ok := stateKeys[string(s)]; !ok {
				t.Errorf("the state %s has no words", s)
			}
		}
		for key := range cat {
			if strings.HasPrefix(key, "cli.state.") || strings.HasPrefix(key, "ui.state.") {
				t.Errorf("%s.json keeps %q, a second word for a state", code, key)
			}
		}
	}
	en := English()
	if got := en.StateWith("failed", "The connection dropped."); got != "Failed: The connection dropped." {
		t.Errorf("StateWith = %q", got)
	}
	if got := en.StateAnd("done", "size matched"); got != "Done, size matched" {
		t.Errorf("StateAnd = %q", got)
	}
	if got := en.StateWith("paused", ""); got != "Paused" {
		t.Errorf("StateWith without a reason = %q", got)
	}
}
