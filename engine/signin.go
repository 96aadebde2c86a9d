package engine

// resumeSignedIn is ResumeSignedIn.
func (q *actions) resumeSignedIn(account string) []JobID {
	var waiting []JobID
	now := q.opts.Clock.Now()
	q.mu.Lock()
	for _, id := range q.order {
		jb, ok := q.jobs[id] // a shelved job is Done: it waits for nothing
		if !ok {
			continue
		}
		if v := jb.viewLocked(now); v.NeedsSignIn && (v.Account == "" || v.Account == account) {
			waiting = append(waiting, v.ID)
		}
	}
	q.mu.Unlock()
	var resumed []JobID
	for _, id := range waiting {
		if q.do(id, SignIn) == nil {
			resumed = append(resumed, id)
		}
	}
	return resumed
}
