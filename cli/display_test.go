package cli

import (
	"strings"
	"testing"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/words"
)

// TestNextStepsInCommandLineWords: a stopped upload names what to run, never
// a window's button.
func TestNextStepsInCommandLineWords(t *testing.T) {
	for _, tc := range []struct {
		v    engine.JobView
		want string
	}{
		{engine.JobView{State: engine.Paused}, `hoist send --resume`},
		{engine.JobView{State: engine.Failed, Name: "a b.png"}, `hoist queue remove 'a b.png'`},
		{engine.JobView{State: engine.Attention, FileChanged: true, Path: "/tmp/x.png"}, `hoist queue restart /tmp/x.png`},
		{engine.JobView{State: engine.Attention, Locked: true}, `Unlock the keychain, then run "hoist send --resume".`},
		{engine.JobView{State: engine.Attention}, `Sign in again with "hoist login"`},
	} {
		tc.v.Actions = engine.ActionsFor(tc.v.State, engine.Facts{FileChanged: tc.v.FileChanged, Locked: tc.v.Locked})
		got := nextWords(words.English(), tc.v)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s (locked %v, changed %v): %q, want it to contain %q", tc.v.State, tc.v.Locked, tc.v.FileChanged, got, tc.want)
		}
		if strings.Contains(got, "press") || strings.Contains(got, "Press") {
			t.Errorf("%s: %q names a button", tc.v.State, got)
		}
	}
}

func TestRefusedKinds(t *testing.T) {
	got, err := refusedKinds(words.English(), " CM360 , playgames,")
	if err != nil || len(got) != 2 || got[0] != emulator.KindCampaignManager || got[1] != emulator.KindPlayGames {
		t.Errorf("refusedKinds = %v, %v", got, err)
	}
	if got, err := refusedKinds(words.English(), ""); err != nil || len(got) != 0 {
		t.Errorf("empty: %v, %v", got, err)
	}
	if _, err := refusedKinds(words.English(), "gmail"); err == nil || !strings.Contains(err.Error(), "not one of cm360 or playgames") {
		t.Errorf("gmail: %v, want a refusal naming the choices", err)
	}
}
