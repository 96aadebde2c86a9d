package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
)

// Your own second copy. A file whose bytes were already uploaded, whole,
// to the same place is not uploaded again without a word: Add leaves it out
// and says so (*AlreadySent, among AddResult.Problems), with when it went;
// AddAgain sends it anyway, as the user chose.

// AlreadySent says a file was not added: the same bytes (its size and
// fingerprint) finished uploading to the same destination before.
type AlreadySent struct {
	Name     string           // the file's
	Path     string           // the file added now
	Dest     dest.Destination // where it went, and would go again
	Job      JobID            // the finished upload
	Finished time.Time        // when it finished
	// Emails, for a mailbox that grew since it was sent, is how many of
	// its emails were left out, its new ones listed; 0 when all were.
	Emails int
}

func (e *AlreadySent) Error() string { return e.Fact().String() }

// Fact says it: the file is in the destination already, since Finished.
func (e *AlreadySent) Fact() fact.Fact {
	f := e.Dest.Fact(fact.AlreadySent)
	if e.Emails > 0 {
		f = e.Dest.Fact(fact.SomeEmailsSent)
		f.Count = e.Emails
	}
	f.File = e.Name
	f.Args = map[string]string{"at": e.Finished.Format(time.RFC3339)}
	return f
}

// sentKey is what a file's bytes are known by: its size and fingerprint.
type sentKey struct {
	size        int64
	fingerprint string
}

// keyOf is what info's bytes are known by; false when nothing is. An email
// of a mailbox is known by its bytes in the mailbox (their length and
// CRC-32C), wherever it lies in it: a mailbox read again gives the same.
func keyOf(info media.Info) (sentKey, bool) {
	if p := info.Part; p != nil {
		return sentKey{info.Size, fmt.Sprintf("email %d %08x", p.Length, p.Sum)}, p.Length > 0
	}
	return sentKey{info.Size, info.Fingerprint}, info.Fingerprint != ""
}

// sentBefore is an upload that finished whole.
type sentBefore struct {
	dest     dest.Destination
	id       JobID
	finished time.Time
}

// sentIndex are the uploads that finished whole, by what they sent.
type sentIndex map[sentKey][]sentBefore

// find is the latest finished upload of info's bytes to d; nil when none.
func (idx sentIndex) find(info media.Info, d dest.Destination) *AlreadySent {
	k, ok := keyOf(info)
	if !ok {
		return nil
	}
	var found *AlreadySent
	for _, s := range idx[k] {
		if !samePlace(s.dest, d) || (found != nil && !s.finished.After(found.Finished)) {
			continue
		}
		found = &AlreadySent{Name: info.Name, Path: info.Path, Dest: d, Job: s.id, Finished: s.finished}
	}
	return found
}

// replaces reports whether sending info to d replaces what an earlier
// upload made (a new version of a Drive file, a draft replaced), so that
// sending it again makes no second copy.
func replaces(d dest.Destination, info media.Info) bool {
	p, err := build(d, info)
	return err == nil && d.Findable(p, info, "").Target.Repeatable
}

// samePlace reports whether a and b send to the same place: the same
// destination, the built-in sandbox wherever it listened then.
func samePlace(a, b dest.Destination) bool {
	if a.BuiltinSandbox && b.BuiltinSandbox {
		a.BaseURL = b.BaseURL
	}
	return sameDestination(a, b)
}

// String is for logs.
func (s sentBefore) String() string { return fmt.Sprintf("%s at %s", s.id, s.finished) }

// sentLocked indexes the finished uploads this queue holds whole, and
// gives the ids of those left in the journal (shelved), to read without
// the queue's lock; list.mu must be held.
func (l *list) sentLocked() (sentIndex, map[JobID]bool) {
	idx := sentIndex{}
	for _, jb := range l.jobs {
		if k, ok := keyOf(jb.info); ok && jb.state == Done {
			idx[k] = append(idx[k], sentBefore{jb.dest, jb.id, jb.finished})
		}
	}
	var shelved map[JobID]bool
	if len(l.shelf) > 0 {
		shelved = make(map[JobID]bool, len(l.shelf))
		for id := range l.shelf {
			shelved[id] = true
		}
	}
	return idx, shelved
}

// readShelved adds the finished uploads left in the journal to idx.
func (l *list) readShelved(idx sentIndex, shelved map[JobID]bool) {
	if len(shelved) == 0 || l.opts.Journal == nil {
		return
	}
	recs, err := l.opts.Journal.List()
	if err != nil {
		l.log.Warn("could not read the finished uploads to tell a second copy", "err", err)
		return
	}
	for _, rec := range recs {
		info := media.Info{Size: rec.Size, Fingerprint: rec.Fingerprint}
		if rec.Part != nil {
			info.Part = &media.Part{Length: rec.Part.Length, Sum: rec.Part.Sum}
		}
		k, ok := keyOf(info)
		if !shelved[JobID(rec.ID)] || State(rec.State) != Done || !ok {
			continue
		}
		var d dest.Destination
		if json.Unmarshal(rec.Destination, &d) != nil {
			continue
		}
		idx[k] = append(idx[k], sentBefore{d, JobID(rec.ID), rec.Finished})
	}
}

// sameDestination reports whether a and b send files to the same place in the same way.
func sameDestination(a, b dest.Destination) bool {
	return a.Name == b.Name && a.Kind == b.Kind && a.Account == b.Account && a.BaseURL == b.BaseURL &&
		maps.Equal(setParams(a.Params), setParams(b.Params))
}

// setParams are the settings that have a value.
func setParams(p map[string]string) map[string]string {
	out := make(map[string]string, len(p))
	for k, v := range p {
		if v = strings.TrimSpace(v); v != "" {
			out[k] = v
		}
	}
	return out
}
