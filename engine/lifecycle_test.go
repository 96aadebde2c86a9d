package engine

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/words"
)

func init() { strictSteps = true } // an edge the table lacks panics in every test of the package

// situations are every state, and Attention once for each reason it stops.
var situations = []struct {
	name  string
	state State
	facts Facts
}{
	{"waiting", Waiting, Facts{}},
	{"checking", Checking, Facts{}},
	{"uploading", Uploading, Facts{}},
	{"retrying", Retrying, Facts{}},
	{"paused", Paused, Facts{}},
	{"needs you: file changed", Attention, Facts{FileChanged: true}},
	{"needs you: keychain locked", Attention, Facts{Locked: true}},
	{"needs you: sign in", Attention, Facts{NeedsSignIn: true}},
	{"needs you: may be there, look", Attention, Facts{InDoubt: true}},
	{"needs you: may be there, ask", Attention, Facts{InDoubt: true, CanAsk: true}},
	{"needs you: may be there, allow looking", Attention, Facts{InDoubt: true, NeedsSignIn: true}},
	{"done", Done, Facts{}},
	{"failed", Failed, Facts{}},
	{"refused", Refused, Facts{}},
	{"canceled", Canceled, Facts{}},
}

// wantLife is the product's decision, written out once more by hand: for
// each situation, the actions it allows and the state each leads to
// ("gone": off the list).
var wantLife = map[string]map[Action]State{
	"waiting":                    {Pause: Paused, Cancel: Canceled, Remove: "gone"},
	"checking":                   {Pause: Paused, Cancel: Canceled, Remove: "gone"},
	"uploading":                  {Pause: Paused, Cancel: Canceled, Remove: "gone"},
	"retrying":                   {Pause: Paused, Cancel: Canceled, Remove: "gone"},
	"paused":                     {Resume: Waiting, Cancel: Canceled, Remove: "gone"},
	"needs you: file changed":    {Restart: Waiting, Cancel: Canceled, Remove: "gone"},
	"needs you: keychain locked": {Resume: Waiting, Cancel: Canceled, Remove: "gone"},
	"needs you: sign in":         {SignIn: Waiting, Cancel: Canceled, Remove: "gone"},
	// A file that may be at its destination is sent again only by Restart.
	"needs you: may be there, look":          {Restart: Waiting, Cancel: Canceled, Remove: "gone"},
	"needs you: may be there, ask":           {Resume: Waiting, Restart: Waiting, Cancel: Canceled, Remove: "gone"},
	"needs you: may be there, allow looking": {SignIn: Waiting, Restart: Waiting, Cancel: Canceled, Remove: "gone"},
	"done":                                   {Remove: "gone"},
	"failed":                                 {Retry: Waiting, Remove: "gone"},
	"refused":                                {Retry: Waiting, Remove: "gone"},
	"canceled":                               {Retry: Waiting, Remove: "gone"},
}

// TestEveryStateTimesEveryAction does each action to a job in each
// situation through Queue.Do: what the table allows leads to the state it
// gives (a running job's upload is stopped, and the state follows when it
// has), and everything else is refused with a NotAllowedError and changes
// nothing.
func TestEveryStateTimesEveryAction(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(file, []byte("plain words"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, err := media.Inspect(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, sit := range situations {
		want := wantLife[sit.name]
		if want == nil {
			t.Fatalf("no decision written for %s", sit.name)
		}
		for _, a := range AllActions() {
			t.Run(sit.name+"/"+string(a), func(t *testing.T) {
				q, err := Open(context.Background(), Options{Idle: true})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = q.Close(context.Background()) })
				var cause error
				q.list.mu.Lock()
				jb := q.actions.newJobLocked(info, dest.Destination{Kind: dest.Sandbox, BaseURL: "http://127.0.0.1:9"}, q.list.opts.Clock.Now(), stepAdd)
				q.list.setStateLocked(jb, sit.state)
				jb.changed, jb.locked = sit.facts.FileChanged, sit.facts.Locked
				switch f := sit.facts; {
				case f.InDoubt && f.NeedsSignIn:
					jb.doubt = doubtAccess
				case f.InDoubt && f.CanAsk:
					jb.doubt = doubtAsk
				case f.InDoubt:
					jb.doubt = doubtLook
				}
				if sit.state.Active() {
					jb.live().cancel = func(c error) {
						if cause == nil {
							cause = c
						}
					}
					q.run.running++
				}
				q.list.mu.Unlock()

				v, _ := q.Job(jb.id)
				if !slices.Equal(v.Actions, ActionsFor(sit.state, sit.facts)) {
					t.Errorf("JobView.Actions %v, ActionsFor %v", v.Actions, ActionsFor(sit.state, sit.facts))
				}
				to, allowed := want[a]
				if v.Allows(a) != allowed {
					t.Errorf("Allows(%s) = %v, want %v (actions %v)", a, !allowed, allowed, v.Actions)
				}
				if v.NeedsSignIn != sit.facts.NeedsSignIn || v.FileChanged != sit.facts.FileChanged || v.Locked != sit.facts.Locked || v.InDoubt != sit.facts.InDoubt {
					t.Errorf("facts shown: changed %v locked %v sign-in %v; want %+v", v.FileChanged, v.Locked, v.NeedsSignIn, sit.facts)
				}

				err = q.Do(jb.id, a)
				if !allowed {
					var na *NotAllowedError
					if !errors.As(err, &na) || !errors.Is(err, ErrNotNow) || na.Action != a || na.State != sit.state {
						t.Fatalf("Do(%s) = %v, want a NotAllowedError", a, err)
					}
					if after, ok := q.Job(jb.id); !ok || after.State != sit.state || after.Version != v.Version || cause != nil {
						t.Errorf("a refused action changed the job: %v → %v (cause %v)", sit.state, after.State, cause)
					}
					return
				}
				if err != nil {
					t.Fatalf("Do(%s) = %v, want it done", a, err)
				}
				if sit.state.Active() {
					if want := stopCause[a]; cause != want {
						t.Fatalf("the upload was stopped with %v, want %v", cause, want)
					}
					if v, _ := q.Job(jb.id); a != Remove && v.State != sit.state {
						t.Errorf("%s before the upload stopped, want %s until it has", v.State, sit.state)
					}
					if a != Remove {
						q.run.finish(jb, nil, context.Canceled, cause)
					}
				}
				after, ok := q.Job(jb.id)
				switch {
				case to == "gone" && ok:
					t.Errorf("still on the list as %s after Remove", after.State)
				case to != "gone" && (!ok || after.State != to):
					t.Errorf("%s: %s, want %s", a, after.State, to)
				}
			})
		}
	}
}

// TestTableIsTheDecision: the engine's table holds exactly the decision
// above, and JobView.Actions are in AllActions' order.
func TestTableIsTheDecision(t *testing.T) {
	for _, sit := range situations {
		got := map[Action]State{}
		for a, to := range lifecycle[situation{sit.state, sit.facts.stop(sit.state)}] {
			if to == removed {
				to = "gone"
			}
			got[a] = to
		}
		want := wantLife[sit.name]
		if len(got) != len(want) {
			t.Errorf("%s: table %v, want %v", sit.name, got, want)
		}
		for a, to := range want {
			if got[a] != to {
				t.Errorf("%s: %s leads to %q, want %q", sit.name, a, got[a], to)
			}
		}
		acts := ActionsFor(sit.state, sit.facts)
		if !slices.IsSortedFunc(acts, func(a, b Action) int {
			return slices.Index(AllActions(), a) - slices.Index(AllActions(), b)
		}) {
			t.Errorf("%s: actions %v are not in AllActions' order", sit.name, acts)
		}
	}
	if len(lifecycle) != len(situations) {
		t.Errorf("the table has %d situations, the decision %d", len(lifecycle), len(situations))
	}
	for _, s := range AllStates() {
		if len(ActionsFor(s, Facts{NeedsSignIn: s == Attention})) == 0 {
			t.Errorf("%s allows nothing, not even Remove", s)
		}
	}
}

// TestEngineStepsFollowTheTable: each of the engine's own steps leaves only
// from the states its table names; from any other it is refused (a panic
// under test, an error in the log otherwise).
func TestEngineStepsFollowTheTable(t *testing.T) {
	q, err := Open(context.Background(), Options{Idle: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = q.Close(context.Background()) })
	for s, e := range steps {
		for _, from := range append(AllStates(), newJob) {
			jb := &job{id: "x", state: from}
			if from == newJob {
				jb.state = ""
			}
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				q.list.mu.Lock()
				defer q.list.mu.Unlock()
				q.list.moveLocked(jb, s)
				return false
			}()
			if ok := slices.Contains(e.from, from); ok == panicked {
				t.Errorf("step %s from %s: panicked %v, table allows %v", s, from, panicked, ok)
			} else if ok && jb.state != e.to {
				t.Errorf("step %s from %s led to %s, want %s", s, from, jb.state, e.to)
			}
		}
	}
}

// TestOnePlaceWritesTheState: outside lifecycle.go no code of the engine
// assigns a job's state, so every change goes through the table.
func TestOnePlaceWritesTheState(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "lifecycle.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, lhs := range as.Lhs {
				if sel, ok := lhs.(*ast.SelectorExpr); ok && sel.Sel.Name == "state" {
					t.Errorf("%s: a job's state is written outside the table", fset.Position(as.Pos()))
				}
			}
			return true
		})
	}
}

// TestRefusalSaysWhatAndWhy: an action the state does not allow is a fact
// naming both, which every language says with the words of its button and
// of the state; its Error is the fact, for logs.
func TestRefusalSaysWhatAndWhy(t *testing.T) {
	for _, tc := range []struct {
		err  *NotAllowedError
		want string
	}{
		{&NotAllowedError{Action: Pause, State: Done}, "“Pause” is not possible now: this upload is marked “Done”."},
		{&NotAllowedError{Action: Restart, State: Uploading}, "“Start over” is not possible now: this upload is marked “Uploading”."},
		{&NotAllowedError{Action: SignIn, State: Paused}, "“Sign in” is not possible now: this upload is marked “Paused”."},
	} {
		if f := tc.err.Fact(); f.Code != fact.NotNow || f.Arg("action") != string(tc.err.Action) || f.Arg("state") != string(tc.err.State) {
			t.Errorf("%v: fact %+v", tc.err, f)
		}
		if got, _ := words.English().Error(tc.err); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
		for _, code := range words.Codes[1:] {
			l := words.New(code)
			got, _ := l.Error(tc.err)
			if !strings.Contains(got, l.Action(string(tc.err.Action))) || !strings.Contains(got, l.State(string(tc.err.State))) || strings.Contains(got, "upload") {
				t.Errorf("%s: %q does not name the action and the state in its words", code, got)
			}
		}
	}
}

// TestEveryStateIsPresented: the presentation table has a row for every
// state, and its flags agree with each other and with the lifecycle.
func TestEveryStateIsPresented(t *testing.T) {
	for _, s := range AllStates() {
		l, ok := looks[s]
		if !ok {
			t.Errorf("%s: no row in the presentation table", s)
			continue
		}
		switch {
		case l.finished && (l.active || s.Moving()):
			t.Errorf("%s: finished yet moving", s)
		case l.needsUser && s.Moving():
			t.Errorf("%s: needs the user yet moves by itself", s)
		case l.trouble && !l.needsUser:
			t.Errorf("%s: trouble that no one is asked to mend", s)
		case l.dropped && !l.finished:
			t.Errorf("%s: dropped from the totals yet unfinished", s)
		case l.finished && slices.Contains(ActionsFor(s, Facts{}), Pause):
			t.Errorf("%s: finished yet it can be paused", s)
		}
	}
	if Done.ShowsProgress() || !Failed.ShowsProgress() || (JobView{State: Failed}).ShowsProgress() || !(JobView{State: Failed, Committed: 1}).ShowsProgress() {
		t.Error("a bar for a done file, or for a failed one with nothing confirmed")
	}
}
