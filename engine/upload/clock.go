package upload

import (
	"context"
	"math/rand/v2"
	"time"
)

// RealClock is the wall clock.
type RealClock struct{}

// Now is time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// Sleep waits d or until ctx is done.
func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// DefaultMaxWait keeps the longest single backoff wait under a minute.
const DefaultMaxWait = 59 * time.Second

// maxJitter is the guide's "random number of milliseconds ≤ 1000".
const maxJitter = 1000

// ExponentialBackoff is the guide's wait before retry n (n from 0):
// 2^n seconds plus a random number of milliseconds up to 1000, drawn anew
// for every wait, never longer than Max.
type ExponentialBackoff struct {
	Max time.Duration // longest single wait; 0 = DefaultMaxWait
	// Rand returns a number in [0, n); nil uses math/rand/v2.
	Rand func(n int64) int64
}

// Wait is the wait before retry n.
func (b ExponentialBackoff) Wait(n int) time.Duration {
	maxWait := b.Max
	if maxWait <= 0 {
		maxWait = DefaultMaxWait
	}
	draw := rand.Int64N
	if b.Rand != nil {
		draw = b.Rand
	}
	jitter := time.Duration(draw(maxJitter+1)) * time.Millisecond
	base := maxWait
	if n < 0 {
		n = 0
	}
	if n < 30 {
		base = min(time.Duration(1<<n)*time.Second, maxWait)
	}
	return min(base+jitter, maxWait)
}
