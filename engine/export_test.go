package engine

import "time"

// SetSaveRetry spaces the tries to write the list again for a test, and
// returns what puts the old spacing back.
func SetSaveRetry(d time.Duration) (restore func()) {
	old := saveRetryEvery
	saveRetryEvery = d
	return func() { saveRetryEvery = old }
}
