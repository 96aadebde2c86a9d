package ui

import (
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/ui/queuelist"
)

// TestRowsShowTheEnginesActions: for every state, and for each reason a job
// needs the user, a row shows a button for exactly the actions the engine's
// table allows, and each button does its action.
func TestRowsShowTheEnginesActions(t *testing.T) {
	test.NewTempApp(t)
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	var facts []engine.Facts
	for _, s := range engine.AllStates() {
		facts = facts[:0]
		if s == engine.Attention {
			facts = append(facts, engine.Facts{FileChanged: true}, engine.Facts{Locked: true}, engine.Facts{NeedsSignIn: true})
		} else {
			facts = append(facts, engine.Facts{})
		}
		for _, f := range facts {
			var done []engine.Action
			r := queuelist.NewJobRow(rowActions{doAction: func(_ engine.JobView, a engine.Action) { done = append(done, a) }})
			v := engine.JobView{ID: "job1", Name: "report.pdf", Size: 1000, State: s, Version: 1,
				FileChanged: f.FileChanged, Locked: f.Locked, NeedsSignIn: f.NeedsSignIn,
				Actions: engine.ActionsFor(s, f)}
			r.Draw(v, now)
			var shown []engine.Action
			for _, a := range engine.AllActions() {
				b := r.ByAction[a]
				if b == nil {
					t.Fatalf("no button for %s", a)
				}
				if b.Visible() {
					shown = append(shown, a)
					test.Tap(b)
				}
			}
			if !slices.Equal(shown, v.Actions) || !slices.Equal(done, v.Actions) {
				t.Errorf("%s %+v: buttons %v did %v, the engine allows %v", s, f, shown, done, v.Actions)
			}
		}
	}
}
