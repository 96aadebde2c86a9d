package engine

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"
	"time"

	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Add queues files and folders for d. Folders become their files; hidden and
// system files are skipped and reported. A file that breaks one of d's rules
// becomes a Refused row that says which rule; the rest of the batch goes on.
// Each job is in the journal before Add returns, so before any byte is sent.
func (q *Queue) Add(paths []string, d dest.Destination) AddResult {
	var res AddResult
	d = q.sandboxDestination(d)
	if err := d.Validate(); err != nil {
		res.Problems = append(res.Problems, fmt.Errorf("the destination is not complete: %w", err))
		return res
	}
	files, skipped, problems := media.Expand(paths)
	res.Skipped = skipped
	now := q.opts.Clock.Now()

	q.mu.Lock()
	defer q.poke()
	defer q.mu.Unlock()
	if q.closed {
		res.Problems = append(res.Problems, errors.New("Hoist is closing; the files were not added"))
		return res
	}
	var added []*job
	for _, p := range problems {
		var pr *media.Problem
		if errors.As(p, &pr) && pr.Path != "" {
			jb := q.newJobLocked(media.Info{Path: pr.Path, Name: filepath.Base(pr.Path)}, d, now)
			jb.state = Refused
			jb.reason = p.Error()
			res.IDs = append(res.IDs, jb.id)
			added = append(added, jb)
			continue
		}
		res.Problems = append(res.Problems, p)
	}
	for _, path := range files {
		info, err := media.Inspect(path)
		if errors.Is(err, media.ErrNotEmail) {
			err = nil // only a destination that wants emails refuses it, with its own sentence
		}
		if err != nil {
			info = media.Info{Path: path, Name: filepath.Base(path)}
		} else if dup := q.duplicateLocked(info, d); dup != "" {
			res.Problems = append(res.Problems, &AlreadyQueued{Name: info.Name, Destination: d.Title(), Job: dup})
			continue
		}
		jb := q.newJobLocked(info, d, now)
		if err == nil {
			err = checkPlan(d, info, jb.method)
		}
		if err != nil {
			jb.state = Refused
			jb.reason = refusalText(err)
			jb.setReasonFact(refusedFact(jb, err))
		}
		added = append(added, jb)
		res.IDs = append(res.IDs, jb.id)
	}
	if written := q.persistJobs(added, true); written != nil {
		<-written // one write for the whole batch, before any byte is sent
	}
	q.notifyLocked()
	return res
}

// AlreadyQueued says a file was not added again: an unfinished job for the
// same file and destination exists, and uploading it twice would duplicate it.
type AlreadyQueued struct {
	Name        string
	Destination string
	Job         JobID
}

func (e *AlreadyQueued) Error() string {
	return fmt.Sprintf("%s is already in the list for %s.", e.Name, e.Destination)
}

// checkPlan applies the destination's rules to the file, and refuses a
// simple upload (media), which carries the file alone, to a destination
// that has details to send with it: they would be lost without a word.
func checkPlan(d dest.Destination, info media.Info, method upload.Method) error {
	plan, err := d.Plan(info)
	if err != nil {
		return err
	}
	if method == upload.Media && d.Kind != dest.Sandbox && dest.MetadataMatters(plan.Target.Metadata) {
		return &dest.Refusal{Rule: dest.RuleMethod, Message: fmt.Sprintf(
			"%s cannot go as a simple upload (media): %s needs details sent with the file, such as labels or a name, and a simple upload carries the file alone. Choose multipart, resumable or auto.",
			info.Name, d.Title())}
	}
	return nil
}

// refusalText is the plain reason a file was not queued.
func refusalText(err error) string {
	return err.Error()
}

// duplicateLocked finds an unfinished job for the same file and destination,
// so that adding a file twice never uploads it twice.
func (q *Queue) duplicateLocked(info media.Info, d dest.Destination) JobID {
	for _, id := range q.order {
		jb := q.jobs[id]
		if jb.info.Path == info.Path && sameDestination(jb.dest, d) && !jb.state.Finished() {
			return id
		}
	}
	return ""
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

func (q *Queue) newJobLocked(info media.Info, d dest.Destination, now time.Time) *job {
	q.seq++
	jb := &job{
		id:      newID(),
		order:   q.seq,
		info:    info,
		dest:    d,
		state:   Waiting,
		created: now,
		method:  q.opts.Method,
		chunk:   q.chunk, chunkSet: true,
	}
	if jb.method == "" {
		jb.method = upload.Auto
	}
	jb.bump()
	q.jobs[jb.id] = jb
	q.order = append(q.order, jb.id)
	return jb
}

func newID() JobID {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	return JobID(hex.EncodeToString(b[:]))
}

// Jobs returns every job in queue order.
func (q *Queue) Jobs() []JobView {
	now := q.opts.Clock.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]JobView, 0, len(q.order))
	for _, id := range q.order {
		out = append(out, q.jobs[id].viewLocked(now))
	}
	return out
}

// Job returns one job.
func (q *Queue) Job(id JobID) (JobView, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	jb, ok := q.jobs[id]
	if !ok {
		return JobView{}, false
	}
	return jb.viewLocked(q.opts.Clock.Now()), true
}

// Summary sums up the queue.
func (q *Queue) Summary() Summary {
	now := q.opts.Clock.Now()
	q.mu.Lock()
	defer q.mu.Unlock()
	var s Summary
	var left int64
	for _, id := range q.order {
		jb := q.jobs[id]
		s.Files++
		s.Version += jb.ver.Load()
		switch {
		case jb.state == Done:
			s.Done++
		case jb.state == Failed || jb.state == Refused || jb.state == Attention:
			s.Failed++
		case jb.state == Paused:
			s.Paused++
		case jb.state.Active():
			s.Active++
			s.Speed += jb.meter.rate(now)
		}
		if jb.state == Refused || jb.state == Canceled {
			continue
		}
		s.Bytes += jb.info.Size
		c := jb.committed.Load()
		if jb.state == Done {
			c = jb.info.Size
		}
		s.BytesDone += c
		if jb.state == Waiting || jb.state.Active() {
			left += jb.left()
		}
	}
	s.ETA = -1
	if left == 0 {
		s.ETA = 0
	} else if s.Speed > 0 {
		s.ETA = time.Duration(float64(left) / s.Speed * float64(time.Second))
	}
	return s
}

// act runs f on job id under the lock, then records and announces the change.
func (q *Queue) act(id JobID, f func(jb *job) error) error {
	q.mu.Lock()
	defer q.poke()
	defer q.mu.Unlock()
	jb, ok := q.jobs[id]
	if !ok {
		return ErrNoJob
	}
	if err := f(jb); err != nil {
		return err
	}
	jb.bump()
	q.persist(jb)
	q.notifyLocked()
	return nil
}

// Pause stops a job's bytes within a second and keeps its session, so Resume
// continues from where the server stands.
func (q *Queue) Pause(id JobID) error {
	return q.act(id, q.pauseLocked)
}

func (q *Queue) pauseLocked(jb *job) error {
	switch {
	case jb.cancel != nil:
		jb.cancel(errPaused) // the worker records Paused when it stops
		return nil
	case jb.state == Waiting:
		jb.state = Paused
		jb.next = "Press Resume to start it."
		return nil
	}
	return ErrNotNow
}

// Resume lets a paused job (or one waiting for sign-in) go on; it first asks
// the server where the upload stands.
func (q *Queue) Resume(id JobID) error {
	return q.act(id, q.resumeLocked)
}

func (q *Queue) resumeLocked(jb *job) error {
	if jb.cancel != nil {
		return ErrNotNow
	}
	switch jb.state {
	case Paused, Attention:
		jb.state = Waiting
		jb.reason, jb.next = "", ""
		return nil
	}
	return ErrNotNow
}

// Cancel stops a job for good and forgets its session.
func (q *Queue) Cancel(id JobID) error {
	return q.act(id, func(jb *job) error {
		if jb.cancel != nil {
			jb.cancel(errCanceled)
			return nil
		}
		if jb.state.Finished() {
			return ErrNotNow
		}
		jb.state = Canceled
		jb.session = upload.Session{}
		jb.reason = "Canceled."
		jb.next = "Press Retry to upload it again."
		return nil
	})
}

// Retry queues a failed or canceled job again. A kept session is resumed
// (the server is asked first); otherwise the upload starts from byte 0.
func (q *Queue) Retry(id JobID) error {
	return q.act(id, q.retryLocked)
}

func (q *Queue) retryLocked(jb *job) error {
	if jb.cancel != nil {
		return ErrNotNow
	}
	switch jb.state {
	case Failed, Canceled, Attention:
	case Refused:
		// The file may have been fixed since; check it again.
		if !q.reinspectLocked(jb) {
			return nil
		}
	default:
		return ErrNotNow
	}
	jb.state = Waiting
	jb.verify = true
	jb.reason, jb.next = "", ""
	return nil
}

// reinspectLocked looks at jb's file again and checks it against the
// destination's rules; a file that fails either is Refused with the reason.
func (q *Queue) reinspectLocked(jb *job) bool {
	info, err := media.Inspect(jb.info.Path)
	if errors.Is(err, media.ErrNotEmail) {
		err = nil // the destination decides whether it needs an email
	}
	if err == nil {
		jb.info = info
		err = checkPlan(jb.dest, info, jb.method)
	}
	if err != nil {
		jb.state = Refused
		jb.reason = refusalText(err)
		jb.setReasonFact(refusedFact(jb, err))
		return false
	}
	return true
}

// Restart uploads the file again from byte 0 as it is now, under a new session:
// the answer to "this file changed since it was added".
func (q *Queue) Restart(id JobID) error {
	return q.act(id, func(jb *job) error {
		if jb.cancel != nil {
			return ErrNotNow
		}
		if !q.reinspectLocked(jb) {
			return nil
		}
		jb.session = upload.Session{}
		jb.committed.Store(0)
		jb.sent.Store(0)
		jb.restarts++
		jb.result = nil
		jb.finished = time.Time{}
		jb.verify = false
		jb.changed = false
		jb.state = Waiting
		jb.reason, jb.next = "", ""
		return nil
	})
}

// Remove takes a job off the list (stopping it first) and out of the journal.
func (q *Queue) Remove(id JobID) error {
	q.mu.Lock()
	defer q.poke()
	defer q.mu.Unlock()
	jb, ok := q.jobs[id]
	if !ok {
		return ErrNoJob
	}
	if jb.cancel != nil {
		jb.cancel(errRemoved)
	}
	q.removeLocked(id)
	q.notifyLocked()
	return nil
}

func (q *Queue) removeLocked(ids ...JobID) {
	drop := make(map[JobID]bool, len(ids))
	for _, id := range ids {
		drop[id] = true
		delete(q.jobs, id)
	}
	kept := q.order[:0]
	for _, id := range q.order {
		if !drop[id] {
			kept = append(kept, id)
		}
	}
	q.order = kept
	if q.writer != nil && !q.writerClosed {
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = string(id)
		}
		q.writer.send(recordOp{deletes: keys}, false)
	}
}

// each applies f to every job under one lock and announces the change once.
func (q *Queue) each(f func(jb *job) error) {
	q.mu.Lock()
	defer q.poke()
	defer q.mu.Unlock()
	var changed []*job
	for _, id := range q.order {
		jb := q.jobs[id]
		if f(jb) == nil {
			jb.bump()
			changed = append(changed, jb)
		}
	}
	q.persist(changed...)
	q.notifyLocked()
}

// PauseAll pauses every waiting or running job.
func (q *Queue) PauseAll() { q.each(q.pauseLocked) }

// ResumeAll resumes every paused job.
func (q *Queue) ResumeAll() {
	q.each(func(jb *job) error {
		if jb.state != Paused {
			return ErrNotNow
		}
		return q.resumeLocked(jb)
	})
}

// RetryFailed retries every failed job.
func (q *Queue) RetryFailed() {
	q.each(func(jb *job) error {
		if jb.state != Failed {
			return ErrNotNow
		}
		return q.retryLocked(jb)
	})
}

// ClearFinished forgets done, canceled and refused jobs (history included).
func (q *Queue) ClearFinished() {
	q.mu.Lock()
	defer q.mu.Unlock()
	var ids []JobID
	for _, id := range q.order {
		switch q.jobs[id].state {
		case Done, Canceled, Refused:
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		q.removeLocked(ids...)
		q.notifyLocked()
	}
}
