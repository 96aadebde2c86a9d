package ui

import (
	"context"
	"log/slog"
	"math"
	"runtime/debug"
	"testing"

	"hoist/engine/emulator"
)

// TestWindowLimitsItsMemory: the window sets a soft memory limit for the
// runtime and collects at half again what is alive, unless the user chose
// otherwise with GOMEMLIMIT or GOGC.
func TestWindowLimitsItsMemory(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	gc := debug.SetGCPercent(100)
	t.Cleanup(func() { debug.SetGCPercent(gc) })

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
	if got := debug.SetGCPercent(100); got != windowGCPercent {
		t.Errorf("the window collects at %d %%, want %d", got, windowGCPercent)
	}
	limitMemory(func(k string) string {
		if k == "GOGC" {
			return "200"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set the window changed the collection to %d %%", got)
	}
}

// TestTidyingGivesTheCollectorBack: the list is tidied with the collector
// running sooner (the copy was the window's peak of memory), and afterwards
// the window collects as it did before, not at the tidy-up's pace for good.
func TestTidyingGivesTheCollectorBack(t *testing.T) {
	t.Setenv(emulator.AddrEnv, "127.0.0.1:0") // not this user's own port, which another test needs free
	s, _ := openTestSession(t)
	gc := debug.SetGCPercent(windowGCPercent)
	t.Cleanup(func() { debug.SetGCPercent(gc) })
	s.tidy(slog.New(slog.DiscardHandler))(context.Background())
	if got := debug.SetGCPercent(windowGCPercent); got != windowGCPercent {
		t.Errorf("after the tidy-up the window collects at %d %%, want %d", got, windowGCPercent)
	}
}
