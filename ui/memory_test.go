package ui

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestWindowLimitsItsMemory: the window sets a soft memory limit for the
// runtime, unless the user chose one with GOMEMLIMIT.
func TestWindowLimitsItsMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })

	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory(func(string) string { return "" })
	if got := debug.SetMemoryLimit(-1); got != windowMemoryLimit {
		t.Errorf("limit %d, want %d", got, windowMemoryLimit)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory(func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set the window changed the limit to %d", got)
	}
}
