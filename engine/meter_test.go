package engine

import (
	"testing"
	"time"
)

// Bytes written to a connection run ahead of a slow link by what its buffers
// hold; once the server has confirmed bytes, the speed shown (and the time
// left drawn from it) is never above the rate at which it confirms them.
func TestMeterSpeedIsCappedByConfirmedBytes(t *testing.T) {
	var m meter
	t0 := time.Unix(1_700_000_000, 0)
	m.begin(t0, 0)
	m.add(t0, 1<<20) // a first request's bytes went into the buffers at once
	m.add(t0.Add(500*time.Millisecond), 4<<20)
	m.add(t0.Add(time.Second), 6<<20)
	now := t0.Add(time.Second)
	if got := m.rate(now); got < 3<<20 {
		t.Fatalf("before any confirmation the speed is %.0f B/s, want the bytes written (several MiB/s)", got)
	}
	if got := m.delivered(now, 6<<20); got != 6<<20 {
		t.Errorf("before any confirmation %d bytes count as across, want the 6 MiB sent", got)
	}
	m.confirm(now, 1<<20)
	if got, want := m.rate(now), float64(1<<20); got > want {
		t.Errorf("speed %.0f B/s after the server confirmed 1 MiB in 1 s, want at most %.0f", got, want)
	}
	// Two seconds on, at 1 MiB/s, 3 MiB have crossed of the 6 MiB sent.
	if got := m.delivered(now.Add(2*time.Second), 6<<20); got != 3<<20 {
		t.Errorf("%d bytes count as across, want 3 MiB", got)
	}
	m.confirm(now, 0) // nothing new: no change
	m.reset()
	if got := m.rate(now); got != 0 {
		t.Errorf("after reset the speed is %.0f", got)
	}
}
