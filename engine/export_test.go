package engine

import (
	"sync/atomic"
	"time"

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
