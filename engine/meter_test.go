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

// A 64 MiB file over a 1 MiB/s link whose buffers take 4.5 MiB at once: the
// first 256 KiB request is confirmed a little late (its round trip counts
// in its rate), then the next request fills the buffers and goes on at the
// link's pace. Once a tenth of the file is handed out, the time left is the
// link's, within a few per cent, not the buffers' or the first request's.
func TestMeterTimeLeftOnASlowLink(t *testing.T) {
	const (
		mib    = 1 << 20
		size   = 64 * mib
		first  = 256 << 10
		buffer = 4.5 * mib
		link   = float64(mib) // bytes per second
	)
	var m meter
	t0 := time.Unix(1_700_000_000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	m.begin(t0, 0)
	m.add(t0, first)
	m.confirm(at(0.3), first) // 0.25 s on the link, and 0.05 s of round trip
	committed := int64(first)

	sent := int64(first + buffer)
	now := 0.3
	m.add(at(now), sent)
	for sent < size/10 {
		now += 0.05
		sent += 52429 // 50 ms at the link's pace
		m.add(at(now), sent)
	}
	crossed := first + (now-0.3)*link
	truth := (size - crossed) / link
	left := size - max(m.delivered(at(now), sent), committed)
	shown := float64(left) / m.rate(at(now))
	if shown < 0.95*truth || shown > 1.05*truth {
		t.Errorf("after %.1f s, with %d of %d bytes handed out, the time left is %.1f s; the link needs %.1f s", now, sent, size, shown, truth)
	}
	if r := m.rate(at(now)); r < 0.95*link || r > 1.05*link {
		t.Errorf("speed %.0f B/s, want the link's %.0f", r, link)
	}

	// The link stands still for longer than a window: the speed fades.
	if r := m.rate(at(now + 5)); r > link/4 {
		t.Errorf("speed %.0f B/s after 5 s without a byte, want it fading", r)
	}
}
