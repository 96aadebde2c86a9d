package engine

// ResumeSignedIn sends on every job that waits for a sign-in of account
// (or names no account), once the user has signed in. It returns the jobs
// it resumed.
func (q *Queue) ResumeSignedIn(account string) []JobID {
	var waiting []JobID
	for _, v := range q.Jobs() {
		if v.NeedsSignIn && (v.Account == "" || v.Account == account) {
			waiting = append(waiting, v.ID)
		}
	}
	var resumed []JobID
	for _, id := range waiting {
		if q.Do(id, SignIn) == nil {
			resumed = append(resumed, id)
		}
	}
	return resumed
}
