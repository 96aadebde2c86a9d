package engine

// resumeSignedIn is ResumeSignedIn.
func (ac *actions) resumeSignedIn(account string) []JobID {
	var waiting []JobID
	now := ac.opts.Clock.Now()
	ac.mu.Lock()
	for _, id := range ac.order {
		jb, ok := ac.jobs[id] // a shelved job is Done: it waits for nothing
		if !ok {
			continue
		}
		if v := jb.viewLocked(now); v.NeedsSignIn && (v.Account == "" || v.Account == account) {
			waiting = append(waiting, v.ID)
		}
	}
	ac.mu.Unlock()
	var resumed []JobID
	for _, id := range waiting {
		if ac.do(id, SignIn) == nil {
			resumed = append(resumed, id)
		}
	}
	return resumed
}
