package testclock

import (
	"context"
	"slices"
	"testing"
	"time"
)

func TestTimeMovesOnlyWhenTold(t *testing.T) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	c := At(start)
	if !c.Now().Equal(start) {
		t.Fatalf("Now = %v, want %v", c.Now(), start)
	}
	c.Advance(time.Minute)
	if err := c.Sleep(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if want := start.Add(time.Minute + time.Second); !c.Now().Equal(want) {
		t.Fatalf("Now = %v, want %v", c.Now(), want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Sleep(ctx, time.Hour); err == nil {
		t.Fatal("a wait under a canceled context passed")
	}
	if got := c.Slept(); !slices.Equal(got, []time.Duration{time.Second}) {
		t.Fatalf("Slept = %v, want [1s]", got)
	}
}
