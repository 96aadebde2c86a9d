package cli

import (
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/emulator"
	"hoist/engine/fact"
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

// Without a terminal, each wait before trying again is printed as it comes,
// with its own length: a 429 that backs off to 59 seconds is not left
// saying "in a few seconds".
func TestEveryWaitIsSaid(t *testing.T) {
	var b strings.Builder
	show := newHumanDisplay(&b, words.English(), false)
	v := engine.JobView{ID: "1", Name: "a.png", State: engine.Retrying, RetryAt: time.Now().Add(2 * time.Second)}
	show.update([]engine.JobView{v})
	v.RetryAt = time.Now().Add(59 * time.Second)
	show.update([]engine.JobView{v})
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "a few seconds") || !strings.Contains(lines[1], "59 seconds") {
		t.Errorf("printed %q; want each wait with its length", lines)
	}
}

// Every next step of an upload in doubt, or left waiting for a later run,
// names the commands to run, never a window's button.
func TestDoubtAndWaitNextSteps(t *testing.T) {
	at := time.Date(2026, 3, 3, 14, 5, 0, 0, time.Local).Format(time.RFC3339)
	for _, tc := range []struct {
		v    engine.JobView
		want []string
	}{
		{engine.JobView{State: engine.Attention, InDoubt: true, Path: "/tmp/b.png", NextFact: &fact.Fact{Code: fact.LookFor, Dest: "cm360", Args: map[string]string{"item": "b.png"}}},
			[]string{"Campaign Manager 360", "“b.png”", "hoist queue remove /tmp/b.png", "hoist queue restart /tmp/b.png"}},
		{engine.JobView{State: engine.Attention, InDoubt: true, Path: "/tmp/c.eml", Account: "a@b.c", Scopes: []string{"https://www.googleapis.com/auth/gmail.insert", "https://www.googleapis.com/auth/gmail.metadata"},
			NextFact: &fact.Fact{Code: fact.AllowLook, Dest: "gmail-insert"}},
			[]string{`"hoist login --scopes gmail.insert,gmail.metadata --account `, "hoist queue restart /tmp/c.eml"}},
		{engine.JobView{State: engine.Attention, InDoubt: true, Path: "/tmp/d.bin", NextFact: &fact.Fact{Code: fact.AskAgain}},
			[]string{`"hoist send --resume" to ask again`}},
		{engine.JobView{State: engine.Attention, InDoubt: true, Path: "/tmp/e.bin", NextFact: &fact.Fact{Code: fact.WrongCopy}},
			[]string{"hoist queue restart /tmp/e.bin"}},
		{engine.JobView{State: engine.Canceled, Path: "/tmp/f.pdf", NextFact: &fact.Fact{Code: fact.CheckFirst, Dest: "drive"}},
			[]string{"hoist queue retry /tmp/f.pdf", `"hoist send --resume"`, "Google Drive", "whether it arrived"}},
		{engine.JobView{State: engine.Waiting, Later: true, NextFact: &fact.Fact{Code: fact.RetryAt, Args: map[string]string{"at": at}}},
			[]string{"It waits until 3 March 2026, 14:05", "as the server asked", `"hoist send --resume"`}},
		{engine.JobView{State: engine.Waiting, Later: true, NextFact: &fact.Fact{Code: fact.RetryLater, Args: map[string]string{"at": at}}},
			[]string{"It waits until 3 March 2026, 14:05:", `"hoist send --resume"`}},
	} {
		got := nextWords(words.English(), tc.v)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.v.NextFact.Code, got, w)
			}
		}
		if strings.Contains(got, "press") || strings.Contains(got, "Press") {
			t.Errorf("%q names a button", got)
		}
	}
}

// One email of a mailbox is named in a next step by its id, which hoist
// queue takes: the mailbox's path or name would act on every email of it.
func TestNextStepForOneEmailOfAMailboxNamesThatEmail(t *testing.T) {
	for _, v := range []engine.JobView{
		{ID: "7f3a", State: engine.Failed, Name: "Takeout.mbox", Path: "/tmp/Takeout.mbox", InMailbox: 3},
		{ID: "7f3a", State: engine.Attention, FileChanged: true, Name: "Takeout.mbox", Path: "/tmp/Takeout.mbox", InMailbox: 3},
	} {
		v.Actions = engine.ActionsFor(v.State, engine.Facts{FileChanged: v.FileChanged})
		got := nextWords(words.English(), v)
		if !strings.Contains(got, "hoist queue ") || !strings.Contains(got, " 7f3a") {
			t.Errorf("%s: %q does not name the email by its id", v.State, got)
		}
		if strings.Contains(got, "Takeout.mbox") {
			t.Errorf("%s: %q names the whole mailbox", v.State, got)
		}
	}
}
