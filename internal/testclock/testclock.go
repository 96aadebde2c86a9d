// Package testclock is the clock of tests: its time moves only when a test
// moves it (Advance) or when something waits on it (Sleep), and a wait
// passes at once, so retries and back-offs cost a test no time.
package testclock

import (
	"context"
	"sync"
	"time"
)

// Clock is time that moves only when told. It is safe for concurrent use.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

// At is a clock that reads start until it is moved.
func At(start time.Time) *Clock { return &Clock{now: start} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the clock on by d at once and notes the wait; a wait under
// a context that is done already is refused, as a real one would be.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.waits = append(c.waits, d)
	c.now = c.now.Add(d)
	return nil
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Slept is every wait Sleep passed, in order.
func (c *Clock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}
