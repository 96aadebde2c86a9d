package ui

import (
	"fmt"
	"image"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/destination"
	"hoist/ui/queuelist"
	"hoist/ui/view"
)

// rowActions stands in for the window behind a row or the list: each
// function, when set, hears what the row or list asks.
type rowActions struct {
	doAction        func(engine.JobView, engine.Action)
	result, details func(engine.JobView)
	removed         func([]engine.JobView)
	selected        func(view.Selection)
}

var _ queuelist.ListController = rowActions{}

func (r rowActions) Do(v engine.JobView, a engine.Action) {
	if r.doAction != nil {
		r.doAction(v, a)
	}
}

func (r rowActions) ShowResult(v engine.JobView) {
	if r.result != nil {
		r.result(v)
	}
}

func (r rowActions) ShowDetails(v engine.JobView) {
	if r.details != nil {
		r.details(v)
	}
}

func (rowActions) Thumbnail(engine.JobView) (image.Image, bool) { return nil, true }

func (r rowActions) RemoveRows(views []engine.JobView) {
	if r.removed != nil {
		r.removed(views)
	}
}

func (rowActions) OpenMailbox(engine.JobID) {}

func (r rowActions) SelectRows(sel view.Selection) {
	if r.selected != nil {
		r.selected(sel)
	}
}

// selectedSnapshot is a snapshot of views, every one of them selected.
func selectedSnapshot(views []engine.JobView, now time.Time) *view.Snapshot {
	b := view.NewSnapshots()
	b.Choose(view.Every(briefsOf(views)))
	return b.Make(readingOf(views, now))
}

// selectionCalls stands in for the window behind the selection's panel.
type selectionCalls struct {
	done   []engine.Action
	result []engine.JobView
}

func (s *selectionCalls) DoSelected(a engine.Action, _ []engine.JobView) { s.done = append(s.done, a) }
func (s *selectionCalls) ShowResult(v engine.JobView)                    { s.result = append(s.result, v) }
func (s *selectionCalls) ShowDetails(engine.JobView)                     {}

// TestSelectionShowsTheEnginesActions: for every state, and for each reason
// a job needs the user, the selection's panel offers exactly the actions the
// engine's table allows, each button asks for its action, and a finished
// file alone offers its result.
func TestSelectionShowsTheEnginesActions(t *testing.T) {
	test.NewTempApp(t)
	now := time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)
	for _, s := range engine.AllStates() {
		facts := []engine.Facts{{}}
		if s == engine.Attention {
			facts = []engine.Facts{{FileChanged: true}, {Locked: true}, {NeedsSignIn: true}}
		}
		for _, f := range facts {
			calls := &selectionCalls{}
			p := queuelist.NewSelectionPanel(calls)
			v := engine.JobView{ID: "job1", Name: "report.pdf", Size: 1000, State: s, Version: 1,
				FileChanged: f.FileChanged, Locked: f.Locked, NeedsSignIn: f.NeedsSignIn,
				Actions: engine.ActionsFor(s, f)}
			p.Draw(selectedSnapshot([]engine.JobView{v}, now))
			var shown []engine.Action
			for _, a := range engine.AllActions() {
				b := p.Buttons[a]
				if b == nil {
					t.Fatalf("no button for %s", a)
				}
				if b.Visible() {
					shown = append(shown, a)
					test.Tap(b)
				}
			}
			if !slices.Equal(shown, v.Actions) || !slices.Equal(calls.done, v.Actions) {
				t.Errorf("%s %+v: buttons %v did %v, the engine allows %v", s, f, shown, calls.done, v.Actions)
			}
			if want := s == engine.Done; p.Result.Visible() != want {
				t.Errorf("%s: the result's button shows: %v, want %v", s, p.Result.Visible(), want)
			}
		}
	}
}

// TestSelectionOffersWhatAnySelectedJobAllows: with several files selected,
// the panel offers the union of their actions, and an action goes only to
// the jobs that allow it.
func TestSelectionOffersWhatAnySelectedJobAllows(t *testing.T) {
	test.NewTempApp(t)
	paused := engine.JobView{ID: "a", Name: "a.jpg", State: engine.Paused, Actions: engine.ActionsFor(engine.Paused, engine.Facts{})}
	failed := engine.JobView{ID: "b", Name: "b.jpg", State: engine.Failed, Actions: engine.ActionsFor(engine.Failed, engine.Facts{})}
	calls := &selectionCalls{}
	p := queuelist.NewSelectionPanel(calls)
	p.Draw(selectedSnapshot([]engine.JobView{paused, failed}, time.Now()))
	for _, a := range engine.AllActions() {
		want := paused.Allows(a) || failed.Allows(a)
		if p.Buttons[a].Visible() != want {
			t.Errorf("%s shows: %v, want %v", a, p.Buttons[a].Visible(), want)
		}
	}
	if p.Result.Visible() {
		t.Error("the result's button shows for two files")
	}

}

// TestAnotherAccountIsTheSameDestination: signing in as another account
// keeps what was said of the destination; another destination does not.
func TestAnotherAccountIsTheSameDestination(t *testing.T) {
	gmail := dest.Destination{Kind: dest.GmailInsert, Account: "a@example.com"}
	other := gmail
	other.Account = "b@example.com"
	other.Params = map[string]string{}
	if !destination.SameButAccount(gmail, other) {
		t.Error("another account (and settings left empty) made another destination")
	}
	labelled := gmail
	labelled.Params = map[string]string{"labels": "INBOX"}
	for _, d := range []dest.Destination{labelled, {Kind: dest.Sandbox}, {Kind: dest.GmailInsert, Name: "Archive"}} {
		if destination.SameButAccount(gmail, d) {
			t.Errorf("%+v is taken for %+v", d, gmail)
		}
	}
}

// readingOf is a reading of a queue holding views.
func readingOf(views []engine.JobView, now time.Time) view.Reading {
	byID := make(map[engine.JobID]engine.JobView, len(views))
	for _, v := range views {
		byID[v.ID] = v
	}
	return view.Reading{Jobs: briefsOf(views), Now: now, Views: func(id engine.JobID) (engine.JobView, bool) {
		v, ok := byID[id]
		return v, ok
	}}
}

// briefsOf is views at a glance.
func briefsOf(views []engine.JobView) []engine.Brief {
	out := make([]engine.Brief, len(views))
	for i, v := range views {
		out[i] = v.Brief()
	}
	return out
}

// A snapshot reads the whole view of a selected row only when the row
// changed, however many rows are selected: a finished upload's view is read
// from the list's file, and Ctrl+A on a long list left selected read every
// one of them again at every change of any row.
func TestSelectedRowsAreReadOnce(t *testing.T) {
	now := time.Now()
	views := make([]engine.JobView, view.KeptViews+50)
	for i := range views {
		views[i] = engine.JobView{ID: engine.JobID(fmt.Sprintf("job-%04d", i)), Name: fmt.Sprintf("f%d.jpg", i), State: engine.Done, Size: 10, Version: 1}
	}
	r := readingOf(views, now)
	reads := 0
	read := r.Views
	r.Views = func(id engine.JobID) (engine.JobView, bool) { reads++; return read(id) }
	b := view.NewSnapshots()
	b.Choose(view.Every(r.Jobs))
	if s := b.Make(r); len(s.Selected) != len(views) {
		t.Fatalf("%d selected, want %d", len(s.Selected), len(views))
	}
	if reads != len(views) {
		t.Fatalf("the first snapshot read %d views, want %d", reads, len(views))
	}
	reads = 0
	views[7].Version, views[7].Name = 2, "renamed.jpg"
	next := readingOf(views, now)
	readNext := next.Views
	next.Views = func(id engine.JobID) (engine.JobView, bool) { reads++; return readNext(id) }
	s := b.Make(next)
	if reads != 1 {
		t.Errorf("a snapshot after one row changed read %d views, want 1", reads)
	}
	if len(s.Selected) != len(views) || s.Selected[7].Name != "renamed.jpg" || s.Selected[8].Name != "f8.jpg" {
		t.Errorf("the selection after the change is not the rows now")
	}
}
