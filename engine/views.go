package engine

import "time"

// views is what is shown of the list: its rows (Jobs, Job), the short
// form the command line prints (Briefs) and the totals (Summary). It only
// reads the list.
type views struct {
	*list
}

// Jobs returns every job in queue order. A job left in the journal (see
// shelved) is read from it, without the queue's lock; one that cannot be
// read, or was removed meanwhile, is left out.
func (vs *views) Jobs() []JobView {
	now := vs.opts.Clock.Now()
	vs.mu.Lock()
	out := make([]JobView, 0, len(vs.order))
	var shelf map[int]shelved // by place in out
	for _, id := range vs.order {
		if jb, ok := vs.jobs[id]; ok {
			out = append(out, jb.viewLocked(now))
			continue
		}
		if shelf == nil {
			shelf = make(map[int]shelved)
		}
		shelf[len(out)] = vs.shelf[id]
		out = append(out, JobView{ID: id})
	}
	vs.mu.Unlock()
	if shelf == nil {
		return out
	}
	kept := out[:0]
	for i, v := range out {
		if s, ok := shelf[i]; ok {
			if v, ok = vs.shelvedView(v.ID, s, now); !ok {
				continue
			}
		}
		kept = append(kept, v)
	}
	return kept
}

// Briefs is every job at a glance, in the order of Jobs: for a list that
// reads each one's whole view (Job) only when it draws it.
func (vs *views) Briefs() []Brief {
	now := vs.opts.Clock.Now()
	vs.mu.Lock()
	defer vs.mu.Unlock()
	out := make([]Brief, 0, len(vs.order))
	for _, id := range vs.order {
		if jb, ok := vs.jobs[id]; ok {
			out = append(out, jb.viewLocked(now).Brief())
		} else {
			out = append(out, vs.shelf[id].brief(id))
		}
	}
	return out
}

// Job returns one job. A job left in the journal (see shelved) is read
// from it, without the queue's lock.
func (vs *views) Job(id JobID) (JobView, bool) {
	now := vs.opts.Clock.Now()
	vs.mu.Lock()
	if jb, ok := vs.jobs[id]; ok {
		defer vs.mu.Unlock()
		return jb.viewLocked(now), true
	}
	s, ok := vs.shelf[id]
	vs.mu.Unlock()
	if !ok {
		return JobView{}, false
	}
	return vs.shelvedView(id, s, now)
}

// Summary sums up the queue.
func (vs *views) Summary() Summary {
	now := vs.opts.Clock.Now()
	vs.mu.Lock()
	defer vs.mu.Unlock()
	changes := vs.changes.Load() // before the jobs are read: a change meanwhile makes the next call sum again
	if c := &vs.summary; c.valid && c.changes == changes && c.version == vs.version && c.files == len(vs.order) {
		return c.s
	}
	var s Summary
	var left int64
	moving := false // a job whose figures change with time, without a bump
	for _, id := range vs.order {
		jb, ok := vs.jobs[id]
		if !ok {
			sh := vs.shelf[id]
			s.Files++
			s.Version += sh.ver
			s.Done++
			s.Bytes += sh.size
			s.BytesDone += sh.size
			continue
		}
		s.Files++
		s.Version += jb.ver.Load()
		switch {
		case jb.state == Done:
			s.Done++
		case jb.state.NeedsUser():
			s.Failed++
		case jb.state == Paused:
			s.Paused++
		case jb.state.Active():
			s.Active++
			s.Speed += jb.meters.Load().rate(now)
		}
		if jb.state.Dropped() {
			continue
		}
		s.Bytes += jb.info.Size
		c := jb.committed.Load()
		if jb.state == Done {
			c = jb.info.Size
		}
		s.BytesDone += c
		if jb.state.Moving() {
			left += jb.left(now)
			moving = true
		}
	}
	s.ETA = -1
	if left == 0 {
		s.ETA = 0
	} else if s.Speed > 0 {
		s.ETA = time.Duration(float64(left) / s.Speed * float64(time.Second))
	}
	vs.summary.valid = !moving
	vs.summary.changes, vs.summary.version, vs.summary.files, vs.summary.s = changes, vs.version, len(vs.order), s
	return s
}
