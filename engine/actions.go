package engine

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// actions is what the user asks of the list: to add files, and to pause,
// resume, cancel, retry, restart or remove an upload. The Queue's methods of
// these names hand over to it.
type actions struct {
	*list
	run *runner
}

// Batches of Add: small first, so the first rows show at once, then larger,
// so a long list costs few journal writes.
const (
	firstAddBatch = 16
	maxAddBatch   = 512
)

// errClosingAdd is Add's refusal while Hoist closes.
var errClosingAdd = &factError{fact.Fact{Code: fact.Closing}}

// factError is an error the queue says by its fact alone.
type factError struct{ f fact.Fact }

func (e *factError) Error() string   { return e.f.String() }
func (e *factError) Fact() fact.Fact { return e.f }

// AlreadyQueued says a file was not added again: an unfinished job for the
// same file and destination exists, and uploading it twice would duplicate it.
type AlreadyQueued struct {
	Name string           // the file's
	Dest dest.Destination // where it goes
	Job  JobID            // the job that has it already
}

func (e *AlreadyQueued) Error() string { return e.Fact().String() }

// Fact says it: the file is in the list for that destination already.
func (e *AlreadyQueued) Fact() fact.Fact {
	f := e.Dest.Fact(fact.AlreadyListed)
	f.File = e.Name
	return f
}

// byFile are the unfinished jobs by their file's path, so that adding a
// file twice never uploads it twice, found without a walk of the whole list
// per file.
type byFile map[string][]*job

// note adds jb when it is unfinished.
func (m byFile) note(jb *job) {
	if !jb.state.Finished() {
		m[jb.info.Path] = append(m[jb.info.Path], jb)
	}
}

// duplicate is an unfinished job for the same file and destination, or "".
func (m byFile) duplicate(path string, d dest.Destination) JobID {
	for _, jb := range m[path] {
		if sameDestination(jb.dest, d) {
			return jb.id
		}
	}
	return ""
}

func newID() JobID {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return JobID(hex.EncodeToString(b[:]))
}

// do is Do.
func (ac *actions) do(id JobID, a Action) error {
	ac.takeOffShelf(id) // an action is asked of it: it becomes a whole job again
	ac.mu.Lock()
	jb, ok := ac.jobs[id]
	if !ok {
		ac.mu.Unlock()
		return ErrNoJob
	}
	if _, err := allowLocked(jb, a); err != nil {
		ac.mu.Unlock()
		return err
	}
	var look *inspection
	if a == Restart || a == Retry && jb.state == Refused {
		info, d, method := jb.info, jb.dest, jb.method
		ac.mu.Unlock()
		if err := validate(d); err != nil {
			look = &inspection{info: info, read: true, err: err}
		} else if info.Part != nil {
			look = inspectEmail(info, d, method) // one email of a mailbox: read where it lies
		} else {
			look = inspect(info.Path, d, method) // reads and hashes the file: never under the lock
		}
		ac.mu.Lock()
		if jb, ok = ac.jobs[id]; !ok {
			ac.mu.Unlock()
			return ErrNoJob
		}
	}
	defer ac.poke()
	defer ac.mu.Unlock()
	// The job may have moved while its file was read: the table is asked again.
	to, err := allowLocked(jb, a)
	if err != nil {
		return err
	}
	if a == Remove {
		if jb.peek().cancel != nil {
			jb.peek().cancel(errRemoved)
		}
		ac.removeLocked(id)
		ac.notifyLocked()
		return nil
	}
	ac.doLocked(jb, a, to, look)
	ac.bump(jb)
	ac.persist(jb)
	ac.notifyLocked()
	return nil
}

// stopCause tells a running job's worker which action stopped it.
var stopCause = map[Action]error{Pause: errPaused, Cancel: errCanceled, Remove: errRemoved}

// clearFinished is ClearFinished.
func (ac *actions) clearFinished() {
	ac.mu.Lock()
	defer ac.mu.Unlock()
	var ids []JobID
	for _, id := range ac.order {
		jb, ok := ac.jobs[id]
		if !ok {
			ids = append(ids, id) // shelved: Done, which Remove always takes
			continue
		}
		switch jb.state {
		case Done, Canceled, Refused:
			if _, err := allowLocked(jb, Remove); err == nil {
				ids = append(ids, id)
			}
		}
	}
	if len(ids) > 0 {
		ac.removeLocked(ids...)
		ac.notifyLocked()
	}
}

func (ac *actions) add(paths []string, d dest.Destination, again bool) AddResult {
	var res AddResult
	d = ac.sandboxDestination(d)
	if err := validate(d); err != nil {
		res.Problems = append(res.Problems, fmt.Errorf("the destination is not complete: %w", err))
		return res
	}
	// Paths are kept absolute, also of files that cannot be read, so that
	// the list names the same file from any folder.
	paths = slices.Clone(paths)
	for i, p := range paths {
		if a, err := filepath.Abs(p); err == nil {
			paths[i] = a
		}
	}
	files, skipped, problems := media.Expand(paths)
	res.Skipped = skipped
	now := ac.opts.Clock.Now()
	method := ac.opts.Method
	if method == "" {
		method = upload.Auto
	}
	var sent sentIndex
	if !again {
		ac.mu.Lock()
		var shelved map[JobID]bool
		sent, shelved = ac.sentLocked()
		ac.mu.Unlock()
		ac.readShelved(sent, shelved)
	}
	files, ok := ac.addMailboxes(&res, files, sent, d, now, method)
	if !ok {
		return res
	}
	// An upload of one of these files that is unfinished now is not doubled,
	// even if it finishes while the files are read.
	queued := make(map[string]JobID)
	ac.mu.Lock()
	unfinished := ac.unfinishedLocked()
	for _, path := range files {
		if dup := unfinished.duplicate(path, d); dup != "" {
			queued[path] = dup
		}
	}
	ac.mu.Unlock()

	// Files are read and hashed in batches, without the queue's lock, and
	// each batch is listed as soon as it is read: the first rows show while
	// the rest are still being read, and the list and the uploads under way
	// never wait for the reading.
	problemsLeft := problems
	for start, n := 0, firstAddBatch; start < len(files) || len(problemsLeft) > 0; start, n = start+n, min(2*n, maxAddBatch) {
		batch := files[start:min(start+n, len(files))]
		if !ac.addBatch(&res, batch, problemsLeft, queued, sent, d, now, method) {
			return res
		}
		problemsLeft = nil
	}
	return res
}

// addBatch reads files, lists them (with problems, files Add could not
// take) for d and writes them to the journal in one write, before any byte
// is sent; false when the queue is closing.
func (ac *actions) addBatch(res *AddResult, files []string, problems []*media.Problem, queued map[string]JobID, sent sentIndex, d dest.Destination, now time.Time, method upload.Method) bool {
	looks := make([]*inspection, len(files))
	for i, path := range files {
		looks[i] = inspect(path, d, method)
	}
	return ac.listBatch(res, files, looks, problems, queued, sent, d, now)
}

// listBatch lists files as looks found them (with problems, files Add
// could not take) for d and writes them to the journal in one write,
// before any byte is sent; false when the queue is closing. The emails of
// a mailbox are listed as files of their own, their mailbox checked for
// being listed already (see addMailbox). A file whose bytes already went
// whole to d (in sent) is left out and said.
func (ac *actions) listBatch(res *AddResult, files []string, looks []*inspection, problems []*media.Problem, queued map[string]JobID, sent sentIndex, d dest.Destination, now time.Time) bool {
	ac.mu.Lock()
	if ac.closed {
		ac.mu.Unlock()
		res.Problems = append(res.Problems, errClosingAdd)
		return false
	}
	var added []*job
	unfinished := ac.unfinishedLocked()
	for _, p := range problems {
		if p.Path != "" {
			jb := ac.newJobLocked(media.Info{Path: p.Path, Name: filepath.Base(p.Path)}, d, now, stepRefuse)
			f := p.Fact()
			jb.sayLocked(&f, nil)
			res.IDs = append(res.IDs, jb.id)
			added = append(added, jb)
			continue
		}
		res.Problems = append(res.Problems, p)
	}
	for i, path := range files {
		look := looks[i]
		info := look.info
		if !look.read {
			info = media.Info{Path: path, Name: filepath.Base(path)}
		} else if info.Part != nil {
			// One of a mailbox's emails, whose mailbox was not listed.
		} else if dup := cmp.Or(queued[info.Path], unfinished.duplicate(info.Path, d)); dup != "" {
			res.Problems = append(res.Problems, &AlreadyQueued{Name: info.Name, Dest: d, Job: dup})
			continue
		} else if prev := sent.find(info, d); prev != nil && look.err == nil && !replaces(d, info) {
			res.Problems = append(res.Problems, prev) // the user chooses: skip it, or AddAgain
			continue
		}
		s := stepAdd
		if look.err != nil {
			s = stepRefuse
		}
		jb := ac.newJobLocked(info, d, now, s)
		jb.checked = look.err == nil // its settings and the file passed: the run only builds the request
		if look.err != nil {
			jb.sayLocked(refusedFact(jb, look), nil)
		}
		unfinished.note(jb)
		added = append(added, jb)
		res.IDs = append(res.IDs, jb.id)
	}
	failed := new(error)
	written := ac.persistJobsAnd(added, true, failed)
	for _, jb := range added {
		jb.held = written != nil
	}
	ac.notifyLocked()
	ac.mu.Unlock()
	if written == nil {
		ac.poke()
		return true
	}
	<-written // one write for the whole batch, before any byte is sent, without the lock
	if *failed != nil {
		// Not in the list, so not started: they wait, held, until a
		// write succeeds (see runner.retrySave).
		return true
	}
	ac.mu.Lock()
	for _, jb := range added {
		jb.held = false
	}
	ac.mu.Unlock()
	ac.poke()
	return true
}

// newJobLocked puts a new job on the list, waiting (stepAdd) or refused
// (stepRefuse); list.mu must be held.
func (ac *actions) newJobLocked(info media.Info, d dest.Destination, now time.Time, s step) *job {
	ac.seq++
	jb := &job{
		id:      newID(),
		order:   ac.seq,
		info:    info,
		dest:    d,
		created: now,
		method:  ac.opts.Method,
		chunk:   ac.chunk, chunkSet: true,
	}
	if jb.method == "" {
		jb.method = upload.Auto
	}
	ac.moveLocked(jb, s)
	ac.bump(jb)
	ac.jobs[jb.id] = jb
	ac.order = append(ac.order, jb.id)
	return jb
}

// doLocked carries out a, which the table allows and which leads to state
// to; list.mu must be held.
func (ac *actions) doLocked(jb *job, a Action, to State, look *inspection) {
	if jb.peek().cancel != nil {
		// The worker takes the job to its next state when the upload has stopped.
		jb.peek().cancel(stopCause[a])
		return
	}
	if look != nil {
		if look.err != nil {
			jb.sayLocked(refusedFact(jb, look), nil)
			ac.moveLocked(jb, stepRefuse)
			return
		}
		jb.info = look.info
		jb.checked = true
	}
	if a == Restart {
		jb.live().session, jb.live().since = upload.Session{}, ""
		jb.committed.Store(0)
		jb.sent.Store(0)
		jb.restarts++
		jb.result = nil
		jb.finished = time.Time{}
		jb.changed = false
	}
	ac.setStateLocked(jb, to)
	jb.doubt, jb.live().looks = doubtNone, nil // Resume and SignIn ask again; Restart sends anew
	jb.live().later = false                    // this run waits for it now
	if a == Cancel || a == Restart {
		jb.live().retryAt = time.Time{}
	}
	if a == Restart || (a == Cancel && jb.peek().session.Sent.IsZero()) {
		_ = ac.sending.note(jb.id, time.Time{}) // a new copy, or none: nothing is in doubt
	}
	reason := jb.reason
	ac.wordsLocked(jb)
	if jb.state == Waiting && jb.peek().retryAt.After(ac.opts.Clock.Now()) {
		// It was told to wait: it still does, and says why and until when.
		jb.reason, jb.next = reason, said(retryAtFact(jb.peek().retryAt, jb.peek().asked))
	}
	switch a {
	case Retry:
		jb.verify = true
	case Restart:
		jb.verify = false
	case Cancel:
		jb.canceledLocked(jb.peek().wholeOut) // an upload that may have arrived stays in doubt
	}
}

// wordsLocked puts the reason and next step of the state jb has just taken
// by the user's action; list.mu must be held.
func (ac *actions) wordsLocked(jb *job) {
	switch jb.state {
	case Paused:
		jb.next = said(&fact.Fact{Code: fact.PressResume})
	case Canceled:
		jb.sayLocked(&fact.Fact{Code: fact.Canceled}, &fact.Fact{Code: fact.PressRetry})
	default:
		jb.sayLocked(nil, nil)
	}
}

// doAll does a to every job in state from that allows it, under one lock,
// and announces the change once. It is for actions that need no second look
// at the file.
func (ac *actions) doAll(a Action, from ...State) {
	ac.mu.Lock()
	defer ac.poke()
	defer ac.mu.Unlock()
	var changed []*job
	for _, id := range ac.order {
		jb, ok := ac.jobs[id]
		if !ok {
			continue // shelved: Done, which allows none of these
		}
		if len(from) > 0 && !slices.Contains(from, jb.state) {
			continue
		}
		to, err := allowLocked(jb, a)
		if err != nil {
			continue
		}
		ac.doLocked(jb, a, to, nil)
		ac.bump(jb)
		changed = append(changed, jb)
	}
	ac.persist(changed...)
	ac.notifyLocked()
}

// unfinishedLocked indexes the unfinished jobs; list.mu must be held
// while the index is used.
func (ac *actions) unfinishedLocked() byFile {
	m := byFile{}
	for _, jb := range ac.jobs { // a shelved job is finished
		m.note(jb)
	}
	return m
}

// AddResult tells what Add made of the paths it was given.
type AddResult struct {
	IDs      []JobID         // a job per file, refused ones included
	Skipped  []media.Skipped // hidden and system files left out of folders
	Problems []error         // paths that could not become jobs at all
}

// ErrNoJob is returned for a job id the queue does not hold.
var ErrNoJob = errors.New("there is no such upload in the list")
