package engine

import (
	"context"
	"math"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/internal/testclock"
)

// A picture smaller than one chunk is confirmed only at its end, yet its time
// left must count down while its bytes go out, and a range sent again or a
// pause must not make the speed or the time left jump.
func TestTimeLeftFollowsTheBytesGoingOut(t *testing.T) {
	clock := testclock.At(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC))
	q, err := Open(context.Background(), Options{Idle: true, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = q.Close(context.Background()) })

	const size = 7_000_000
	const rate = 512 << 10 // the bandwidth limit, bytes per second
	q.list.mu.Lock()
	jb := q.actions.newJobLocked(media.Info{Path: "/p/holiday.jpg", Name: "holiday.jpg", Size: size}, dest.Destination{Kind: dest.Sandbox}, clock.Now(), stepAdd)
	jb.state = Uploading
	q.run.running++
	q.list.mu.Unlock()
	o := &observer{l: q.list, jb: jb, size: size}

	view := func() JobView {
		t.Helper()
		v, ok := q.Job(jb.id)
		if !ok {
			t.Fatal("the job is gone")
		}
		return v
	}
	near := func(what string, got, want, within float64) {
		t.Helper()
		if math.Abs(got-want) > within {
			t.Errorf("%s = %.2f, want %.2f", what, got, want)
		}
	}

	// Bytes go out at the limit; the server confirms nothing until the end.
	var sent int64
	o.Sent(0)
	lastETA := time.Duration(math.MaxInt64)
	for range 6 {
		clock.Advance(time.Second)
		sent += rate
		o.Sent(sent)
		v := view()
		if v.Committed != 0 || v.Sent != sent {
			t.Fatalf("confirmed %d, sent %d; want 0 and %d", v.Committed, v.Sent, sent)
		}
		near("speed", v.Speed, rate, 1)
		want := float64(size-sent) / rate
		near("time left (s)", v.ETA.Seconds(), want, 0.01)
		if v.ETA >= lastETA {
			t.Errorf("the time left stood still: %s after %s", v.ETA, lastETA)
		}
		lastETA = v.ETA
		s := q.Summary()
		near("whole-queue time left (s)", s.ETA.Seconds(), want, 0.01)
		if s.BytesDone != 0 {
			t.Errorf("the summary counts %d bytes done; only confirmed bytes count", s.BytesDone)
		}
	}

	// The connection drops; the server kept the first 1 MiB and the rest is
	// sent again from there.
	const kept = 1 << 20
	o.Committed(kept)
	clock.Advance(2 * time.Second)
	sent = kept + 64<<10
	o.Sent(sent)
	v := view()
	if v.Speed > rate*1.01 || v.Speed <= 0 {
		t.Errorf("speed after sending a range again = %.0f, want at most the %d going out", v.Speed, rate)
	}
	if v.ETA < 0 || v.ETA < lastETA {
		t.Errorf("time left after sending a range again = %s, want more than %s: more is left to send", v.ETA, lastETA)
	}
	for range 3 {
		clock.Advance(time.Second)
		sent += rate
		o.Sent(sent)
		v = view()
		near("speed while sending again", v.Speed, rate, rate*0.05)
		if v.ETA < 0 || v.ETA > time.Duration(float64(size-sent)/rate*1.1*float64(time.Second)) {
			t.Errorf("time left while sending again = %s with %d bytes to go", v.ETA, size-sent)
		}
	}

	// A pause forgets what was in flight and the speed; a resume starts
	// measuring afresh from where the server stands.
	q.run.finish(jb, nil, nil, errPaused)
	v = view()
	if v.State != Paused || v.Sent != kept || v.Speed != 0 || v.ETA >= 0 {
		t.Errorf("paused: %s, sent %d, speed %.0f, time left %s; want paused, %d sent, no speed, no time left",
			v.State, v.Sent, v.Speed, v.ETA, kept)
	}
	q.list.mu.Lock()
	jb.state = Uploading
	q.run.running++
	q.list.mu.Unlock()
	clock.Advance(time.Minute)
	o.Sent(kept + 256<<10)
	if v = view(); v.Speed != 0 || v.ETA >= 0 {
		t.Errorf("just resumed: speed %.0f, time left %s; want both unknown until a measure", v.Speed, v.ETA)
	}
	clock.Advance(time.Second)
	o.Sent(kept + 256<<10 + rate)
	v = view()
	near("speed after resuming", v.Speed, rate, 1)
	near("time left after resuming (s)", v.ETA.Seconds(), float64(size-kept-256<<10-rate)/rate, 0.01)
}
