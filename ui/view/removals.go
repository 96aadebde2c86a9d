package view

import (
	"time"

	"hoist/engine"
)

// undoFor is how long a removal can be undone.
const undoFor = 8 * time.Second

// Removals takes rows off the list at once, with an Undo: until the removal
// is final the jobs stay in the queue, left out of every snapshot. It is
// final when another removal starts, when its time is up and when Hoist
// quits; then the queue forgets the jobs. Used on the UI goroutine only.
type Removals struct {
	// Forget makes the queue forget the jobs, off the UI goroutine, and
	// calls done back on the UI goroutine when it has.
	Forget func(ids []engine.JobID, done func())
	// After runs f on the UI goroutine once d has passed.
	After func(d time.Duration, f func())
	// Changed is told that the rows or the offer changed.
	Changed func()

	hidden  map[engine.JobID]bool // left out of the list, until the queue forgot them
	pending []engine.JobID        // the last removal, while Undo can bring it back
	offered undoOffer
	gen     int // counts removals, so that an old removal's timer does nothing
}

// hides reports whether job id is off the list.
func (r *Removals) hides(id engine.JobID) bool { return r.hidden[id] }

// offer is the removal Undo can bring back; N is 0 when there is none.
func (r *Removals) offer() undoOffer { return r.offered }

// RemoveRows takes views off the list, with an Undo.
func (r *Removals) RemoveRows(views []engine.JobView) {
	if len(views) == 0 {
		return
	}
	r.Commit() // an earlier removal is final once another starts
	if r.hidden == nil {
		r.hidden = map[engine.JobID]bool{}
	}
	ids := make([]engine.JobID, len(views))
	for i, v := range views {
		ids[i] = v.ID
		r.hidden[v.ID] = true
	}
	r.pending = ids
	r.offered = undoOffer{N: len(views), First: views[0].Name}
	r.gen++
	gen := r.gen
	r.After(undoFor, func() {
		if r.gen == gen {
			r.Commit()
		}
	})
	r.Changed()
}

// UndoRemoval brings the last removed rows back.
func (r *Removals) UndoRemoval() {
	if len(r.pending) == 0 {
		return
	}
	for _, id := range r.pending {
		delete(r.hidden, id)
	}
	r.pending, r.offered = nil, undoOffer{}
	r.gen++
	r.Changed()
}

// Commit makes the last removal final: the queue forgets the jobs.
func (r *Removals) Commit() {
	ids := r.pending
	if len(ids) == 0 {
		return
	}
	r.pending, r.offered = nil, undoOffer{}
	r.gen++
	r.Forget(ids, func() {
		for _, id := range ids {
			delete(r.hidden, id)
		}
	})
	r.Changed()
}
