package engine

import (
	"sync/atomic"
	"time"
	"unsafe"

	"hoist/engine/dest"
	"hoist/engine/media"
)

// SetSaveRetry spaces the tries to write the list again for a test, and
// returns what puts the old spacing back.
func SetSaveRetry(d time.Duration) (restore func()) {
	old := saveRetryEvery
	saveRetryEvery = d
	return func() { saveRetryEvery = old }
}

// Checks counts the destination's checks the queue makes.
type Checks struct{ Validate, Check, Build atomic.Int64 }

// CountChecks counts the queue's checks of destinations and files until
// restore is called.
func CountChecks() (c *Checks, restore func()) {
	c = &Checks{}
	v, k, b := validate, checkRules, build
	validate = func(d dest.Destination) error { c.Validate.Add(1); return v(d) }
	checkRules = func(d dest.Destination, info media.Info) error { c.Check.Add(1); return k(d, info) }
	build = func(d dest.Destination, info media.Info) (dest.Plan, error) { c.Build.Add(1); return b(d, info) }
	return c, func() { validate, checkRules, build = v, k, b }
}

// KeepsRunPart reports whether job id holds the part of a job that only a
// job not yet finished needs (see underway).
func KeepsRunPart(q *Queue, id JobID) bool {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	jb := q.list.jobs[id]
	return jb != nil && jb.run != nil
}

// JobBytes is what every job holds in memory, finished or not, beside its
// strings and its result.
const JobBytes = unsafe.Sizeof(job{})

// NameInPath reports whether job id keeps its file's name as the end of its
// path, one string for both.
func NameInPath(q *Queue, id JobID) bool {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	jb := q.list.jobs[id]
	p, n := jb.info.Path, jb.info.Name
	return n != "" && len(p) >= len(n) && unsafe.StringData(n) == unsafe.StringData(p[len(p)-len(n):])
}

// Shelved reports whether job id is held as a brief, its record left in the
// journal (see shelved).
func Shelved(q *Queue, id JobID) bool {
	q.list.mu.Lock()
	defer q.list.mu.Unlock()
	_, ok := q.list.shelf[id]
	return ok
}
