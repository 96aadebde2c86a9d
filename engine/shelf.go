package engine

import (
	"errors"
	"time"

	"hoist/engine/journal"
)

// shelved is an upload an earlier run finished, whose record stays in the
// journal (Options.LeanResults): the queue holds only what a list of
// thousands needs of it to order, count and select it, about a tenth of a
// whole job, and reads the rest from the journal for the few rows shown
// (Queue.Job). A shelved job is Done, whose one action is Remove; an action
// asked of it makes it whole again first (takeOffShelf), and Clear finished
// takes it out as it is. A job becomes one when the list is opened, or as
// soon as its finished record is written.
type shelved struct {
	order int64
	size  int64
	ver   uint64
	place int32 // Brief.InMailbox
}

// brief is the shelved job at a glance: Done, every byte confirmed.
func (s shelved) brief(id JobID) Brief {
	return Brief{ID: id, State: Done, Size: s.size, Committed: s.size, Delivered: s.size, Version: s.ver, InMailbox: s.place}
}

// shelvable reports whether jb, read from the journal or just written to
// it, can stay there: a finished upload whose record holds everything
// shown of it.
func (l *list) shelvable(jb *job, emailUnknown bool) bool {
	return l.opts.LeanResults && l.opts.Journal != nil && jb.state == Done && !emailUnknown
}

// shelveLocked keeps jb in the list as its brief only; list.mu must be held.
func (l *list) shelveLocked(jb *job) {
	if l.shelf == nil {
		l.shelf = make(map[JobID]shelved)
	}
	l.shelf[jb.id] = shelved{order: jb.order, size: jb.info.Size, ver: jb.ver.Load(), place: int32(inMailbox(jb.info.Part))}
}

// orderLocked is where job id stands in the list; list.mu must be held.
func (l *list) orderLocked(id JobID) int64 {
	if jb, ok := l.jobs[id]; ok {
		return jb.order
	}
	return l.shelf[id].order
}

// unshelved reads the whole job behind a shelved one from the journal; nil
// when it could not be read. It is called without list.mu: the job it
// returns is the caller's own until it is put in the list.
func (l *list) unshelved(id JobID, s shelved) *job {
	rec, err := l.opts.Journal.Get(string(id))
	var jb *job
	if err == nil {
		jb, _, err = jobFromRecord(rec, newDestinations(), true)
	}
	if err != nil {
		if !errors.Is(err, journal.ErrClosed) { // closed: Hoist is quitting
			l.log.Warn("reading a finished upload from the list", "job", id, "err", err)
		}
		return nil
	}
	l.followSandboxLocked(jb) // as at Open: the built-in sandbox may listen elsewhere now
	jb.ver.Store(s.ver)
	return jb
}

// shelvedView is the whole view of shelved job id as the journal keeps it,
// read without list.mu; false when it could not be read.
func (l *list) shelvedView(id JobID, s shelved, now time.Time) (JobView, bool) {
	jb := l.unshelved(id, s)
	if jb == nil {
		return JobView{}, false
	}
	return jb.viewLocked(now), true
}

// takeOffShelf makes shelved job id a whole job of the list again, for an
// action on it; nothing when it is not shelved.
func (l *list) takeOffShelf(id JobID) {
	l.mu.Lock()
	s, ok := l.shelf[id]
	l.mu.Unlock()
	if !ok {
		return
	}
	jb := l.unshelved(id, s)
	if jb == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now, still := l.shelf[id]; still && now == s {
		delete(l.shelf, id)
		l.jobs[id] = jb
	}
}
