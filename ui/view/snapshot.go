// Package view is what every panel of the window shares: the snapshot of
// the queue they all draw from (one picture, made in one place), the
// selection and the removals Undo can bring back, the mailboxes' folded
// rows, the window's frame (dialogs, the message line, work off the UI
// goroutine), the user's settings as values, and the words: the language
// spoken now, say and the sentences made from the engine's facts. Panels
// import it; it imports no panel.
package view

import (
	"maps"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"hoist/engine"
	"hoist/engine/emulator"
)

// The window draws one picture of the queue. About ten times a second, and
// whenever the user changes something, snapshots.make builds a snapshot:
// the rows of the list, the totals, the selection, the removal that Undo
// can bring back, what the sandbox received and how many files a quit
// would stop. Every panel draws only from the latest snapshot and sends
// what the user asks for back to the desk; none keeps a count of its own,
// so no panel can say something another has stopped saying.
//
//	sampling goroutine            UI goroutine
//	queue.Briefs, sandbox ──reading──▶ snapshots.make ──snapshot──▶ panels
//	                                      ▲                            │
//	                                      └── selection, removal ◀─ intents
//
// A snapshot holds every job at a glance (engine.Brief: what ordering,
// counting and selecting need) and reads a job's whole view from the queue
// only for the rows drawn and selected (snapshot.view): with 10,000 jobs
// in the list, a whole view of each would be 4.5 MB held, and made again at
// every change, for the dozen rows on screen.

// Snapshot is what the window shows at one moment. It is never changed once
// made: panels may keep it and read it later.
type Snapshot struct {
	Rows     []engine.Brief       // the list, in the queue's order, without the rows removed pending Undo
	Index    map[engine.JobID]int // the row of each job
	Changed  []int                // rows whose job changed since the last snapshot (or whose countdown moves on)
	Reshaped bool                 // rows came, went or moved since the last snapshot
	Totals   Totals
	// Selection is which rows are selected; selected are those rows, in
	// the list's order.
	Selection Selection
	Selected  []engine.JobView
	Undo      undoOffer // the rows Undo can bring back; none when N is 0
	Receipts  Receipts  // what the built-in sandbox received
	Now       time.Time // the moment the countdowns and times are drawn for

	// Read gives a job's whole view, from the queue; views are those read
	// for this snapshot's rows so far. On the UI goroutine only.
	Read  func(engine.JobID) (engine.JobView, bool)
	Views map[engine.JobID]engine.JobView
	// Mailboxes are the rows that stand for a mailbox's emails (see
	// foldMailboxes); nil when the list holds none.
	Mailboxes map[engine.JobID]*MailboxRow
}

// KeptViews bounds the views a snapshot takes over from the one before
// (those of its rows that did not change): the rows on screen, not every
// row scrolled past; the selected ones are kept however many.
const KeptViews = 256

// View is the whole view of row i: the one read for this snapshot, else
// the queue's now, which may be newer than the row (the next snapshot then
// marks the row changed). A job the queue no longer holds shows as much as
// its row says.
func (s *Snapshot) View(i int) engine.JobView {
	row := s.Rows[i]
	if v, ok := s.Views[row.ID]; ok {
		return v
	}
	v, ok := engine.JobView{}, false
	if g := s.Mailboxes[row.ID]; g != nil {
		first := engine.JobView{}
		if s.Read != nil {
			first, _ = s.Read(g.emails[0])
		}
		v, ok = g.View(row, first), true
	} else if s.Read != nil {
		v, ok = s.Read(row.ID)
	}
	if !ok {
		v = engine.JobView{ID: row.ID, State: row.State, Size: row.Size, Committed: row.Committed, Delivered: row.Delivered, Speed: row.Speed, Version: row.Version}
	}
	if s.Views == nil {
		s.Views = map[engine.JobID]engine.JobView{}
	}
	s.Views[row.ID] = v
	return v
}

// Totals are the whole list at a glance, counted from the snapshot's rows.
type Totals struct {
	engine.Summary     // Files counts every row; BytesDone what crossed the link
	Canceled       int // rows canceled, said apart from the files to upload
	Moving         int // rows waiting or uploading: what pausing or quitting stops
}

// countTotals sums rows as the queue's Summary does, with the bytes that
// crossed the link as done, so the overall bar moves with them.
func countTotals(rows []engine.Brief) Totals {
	var t Totals
	var left int64
	for i := range rows {
		v := &rows[i]
		t.Files++
		switch {
		case v.State == engine.Done:
			t.Done++
		case v.State.NeedsUser():
			t.Failed++
		case v.State == engine.Paused:
			t.Paused++
		case v.State == engine.Canceled:
			t.Canceled++
		case v.State.Active():
			t.Active++
			t.Speed += v.Speed
		}
		done := max(v.Delivered, v.Committed)
		if v.State == engine.Done {
			done = v.Size
		}
		if v.State.Moving() {
			t.Moving++
			left += max(v.Size-done, 0)
		}
		if v.State.Dropped() {
			continue
		}
		t.Bytes += v.Size
		t.BytesDone += done
	}
	t.ETA = -1
	if left == 0 {
		t.ETA = 0
	} else if t.Speed > 0 {
		t.ETA = time.Duration(float64(left) / t.Speed * float64(time.Second))
	}
	return t
}

// Selection is a set of selected jobs and where a Shift+click range starts.
// It is a value: each change makes a new one.
type Selection struct {
	ids    map[engine.JobID]bool
	anchor engine.JobID
}

func (s Selection) Has(id engine.JobID) bool { return s.ids[id] }

func (s Selection) Len() int { return len(s.ids) }

// Click is the selection after a click on row i of rows with these
// modifiers: that row alone, added or taken away (Ctrl), or the range from
// the last click (Shift).
func (s Selection) Click(rows []engine.Brief, index map[engine.JobID]int, i int, mods fyne.KeyModifier) Selection {
	if i < 0 || i >= len(rows) {
		return s
	}
	id := rows[i].ID
	out := Selection{ids: map[engine.JobID]bool{}, anchor: s.anchor}
	switch {
	case mods&fyne.KeyModifierShift != 0 && s.anchor != "":
		from, ok := index[s.anchor]
		if !ok {
			from = i
		}
		if mods&fyne.KeyModifierShortcutDefault != 0 {
			maps.Copy(out.ids, s.ids)
		}
		for k := min(from, i); k <= max(from, i); k++ {
			out.ids[rows[k].ID] = true
		}
	case mods&fyne.KeyModifierShortcutDefault != 0:
		maps.Copy(out.ids, s.ids)
		if out.ids[id] {
			delete(out.ids, id)
		} else {
			out.ids[id] = true
		}
		out.anchor = id
	default:
		out.ids[id] = true
		out.anchor = id
	}
	return out
}

// Every is a selection of all rows.
func Every(rows []engine.Brief) Selection {
	out := Selection{ids: make(map[engine.JobID]bool, len(rows))}
	for _, v := range rows {
		out.ids[v.ID] = true
	}
	return out
}

// within is s without the jobs that are no longer rows.
func (s Selection) within(index map[engine.JobID]int) Selection {
	for id := range s.ids {
		if _, ok := index[id]; !ok {
			out := Selection{ids: maps.Clone(s.ids), anchor: s.anchor}
			maps.DeleteFunc(out.ids, func(id engine.JobID, _ bool) bool { _, ok := index[id]; return !ok })
			return out
		}
	}
	return s
}

// Same reports whether s and o select the same jobs.
func (s Selection) Same(o Selection) bool { return maps.Equal(s.ids, o.ids) }

// undoOffer is the last removal, which Undo brings back until it is final.
type undoOffer struct {
	N     int    // rows removed
	First string // the first one's name
}

// Receipts are what the built-in sandbox received, newest first.
type Receipts struct {
	Count   int
	Objects []emulator.Object
}

// Reading is what the sampling goroutine read for the next snapshot; the
// UI goroutine owns it from then on.
type Reading struct {
	Jobs  []engine.Brief                            // every job of the queue; nil: the queue did not change
	Views func(engine.JobID) (engine.JobView, bool) // a job's whole view, as the queue holds it when asked
	// Seen are the whole views of the jobs that changed since the reading
	// before, read with jobs: their rows, drawn later, show the moment the
	// totals count, not a newer one.
	Seen     map[engine.JobID]engine.JobView
	Receipts *Receipts                 // nil: the sandbox received nothing new
	Ready    map[engine.JobID]struct{} // thumbnails made since the last reading
	Now      time.Time
}

// Snapshots makes every snapshot: the one place where what the queue holds
// and what the user chose (the selection, a removal not yet final) become
// what the window shows. It is used on the UI goroutine only.
type Snapshots struct {
	Last      *Snapshot
	Jobs      []engine.Brief // the queue at the last reading, removed rows included
	Read      func(engine.JobID) (engine.JobView, bool)
	Receipts  Receipts
	Selection Selection
	Removed   *Removals // rows removed pending Undo; nil: none
	// opened are the mailboxes whose emails are listed under their row.
	opened map[engine.JobID]bool
}

// Toggle opens the mailbox of row id, or closes it when it is open.
func (b *Snapshots) Toggle(id engine.JobID) {
	if b.opened == nil {
		b.opened = map[engine.JobID]bool{}
	}
	if b.opened[id] {
		delete(b.opened, id)
	} else {
		b.opened[id] = true
	}
}

func NewSnapshots() *Snapshots {
	return &Snapshots{Last: &Snapshot{Index: map[engine.JobID]int{}, Totals: Totals{Summary: engine.Summary{ETA: -1}}}}
}

// Make is the next snapshot: of r when it brought anything, else of the
// last reading with the user's latest choices.
func (b *Snapshots) Make(r Reading) *Snapshot {
	if r.Jobs != nil {
		b.Jobs = r.Jobs
	}
	if r.Views != nil {
		b.Read = r.Views
	}
	if r.Receipts != nil {
		b.Receipts = *r.Receipts
	}
	prev := b.Last
	s := &Snapshot{Receipts: b.Receipts, Now: r.Now, Read: b.Read}
	s.Rows = b.Jobs
	if b.Removed != nil {
		s.Undo = b.Removed.offer()
		if len(b.Removed.hidden) > 0 {
			s.Rows = slices.DeleteFunc(slices.Clone(b.Jobs), func(v engine.Brief) bool { return b.Removed.hides(v.ID) })
		}
	}
	// The totals count every email of a mailbox; the list shows a row for it.
	all := s.Rows
	s.Rows, s.Mailboxes = foldMailboxes(s.Rows, b.opened)
	s.Reshaped = len(s.Rows) != len(prev.Rows)
	if !s.Reshaped {
		for i := range s.Rows {
			if s.Rows[i].ID != prev.Rows[i].ID {
				s.Reshaped = true
				break
			}
		}
	}
	if s.Reshaped {
		s.Index = make(map[engine.JobID]int, len(s.Rows))
		for i, v := range s.Rows {
			s.Index[v.ID] = i
		}
	} else {
		s.Index = prev.Index
		for i := range s.Rows {
			v := &s.Rows[i]
			_, pictured := r.Ready[v.ID]
			if v.Version != prev.Rows[i].Version || v.State == engine.Retrying || pictured {
				s.Changed = append(s.Changed, i)
			}
		}
	}
	// A selected row's view is kept however many are selected: the
	// selection needs them at every snapshot, and a finished upload's is
	// read from the list's file.
	if many := len(prev.Views) > KeptViews; !many || b.Selection.Len() > 0 {
		for i := range s.Rows {
			if many && !b.Selection.Has(s.Rows[i].ID) {
				continue
			}
			if v, ok := prev.Views[s.Rows[i].ID]; ok && v.Version == s.Rows[i].Version {
				if s.Views == nil {
					s.Views = map[engine.JobID]engine.JobView{}
				}
				s.Views[v.ID] = v
			}
		}
	}
	for id, v := range r.Seen {
		if i, ok := s.Index[id]; ok && s.Rows[i].Version == v.Version {
			if s.Views == nil {
				s.Views = map[engine.JobID]engine.JobView{}
			}
			s.Views[id] = v
		}
	}
	s.Totals = countTotals(all)
	b.Selection = b.Selection.within(s.Index)
	s.Selection = b.Selection
	if s.Selection.Len() > 0 {
		for i, v := range s.Rows {
			if s.Selection.Has(v.ID) {
				s.Selected = append(s.Selected, s.View(i))
			}
		}
	}
	b.Last = s
	return s
}

// Again is a snapshot of the last reading with the user's latest choices.
func (b *Snapshots) Again(now time.Time) *Snapshot { return b.Make(Reading{Now: now}) }

// Choose makes sel the selection of the next snapshot.
func (b *Snapshots) Choose(sel Selection) { b.Selection = sel }
