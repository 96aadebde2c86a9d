package upload

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"
)

// A Retry-After of two hours is waited for two hours, and said so: never
// cut to one hour.
func TestLongRetryAfterIsItsRealLength(t *testing.T) {
	file := testFile(100)
	h := newHarness(t,
		mediaX(file).answer(http.StatusServiceUnavailable, "Retry-After", "7200"),
		mediaX(file).answer(http.StatusOK).withBody(okJSON),
	)
	obs := newRecorder(t, int64(len(file)), false)
	if _, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Repeatable: true}, &memFile{data: file}, Media, nil, obs); err != nil {
		t.Fatal(err)
	}
	if w := h.clock.Slept(); len(w) != 1 || w[0] != 2*time.Hour || obs.retries[0].wait != 2*time.Hour {
		t.Errorf("slept %v, said %v; want 2h", w, obs.retries)
	}
}

// A wait past MaxWait is not slept through: the call ends at once saying
// until when, and the waits before it count toward the bound.
func TestWaitPastTheBoundEndsTheCall(t *testing.T) {
	file := testFile(100)
	t.Run("Retry-After", func(t *testing.T) {
		h := newHarness(t, mediaX(file).answer(http.StatusServiceUnavailable, "Retry-After", "7200"))
		h.up.MaxWait = 5 * time.Minute
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType, Repeatable: true}, &memFile{data: file}, Media, nil, nil)
		var we *WaitError
		if !errors.As(err, &we) || we.Wait != 2*time.Hour || !we.Until.Equal(h.clock.Now().Add(2*time.Hour)) || !Retryable(err) {
			t.Fatalf("err = %v", err)
		}
		if w := h.clock.Slept(); len(w) != 0 {
			t.Errorf("slept %v", w)
		}
		var api *APIError
		if !errors.As(err, &api) || api.Status != http.StatusServiceUnavailable {
			t.Errorf("the cause is lost: %v", err)
		}
	})
	t.Run("backoff adds up", func(t *testing.T) {
		var steps []exchange
		for range 4 {
			steps = append(steps, mediaX(file).answer(http.StatusTooManyRequests))
		}
		h := newHarness(t, steps...)
		h.up.MaxWait = 10 * time.Second // 1 + 2 + 4 s (and jitter) fit; the 8 s after them do not
		h.draws.plays = []int64{0, 0, 0, 0}
		_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Media, nil, nil)
		var we *WaitError
		if !errors.As(err, &we) || we.Wait != 8*time.Second {
			t.Fatalf("err = %v", err)
		}
		if w := h.clock.Slept(); len(w) != 3 {
			t.Errorf("slept %v", w)
		}
	})
}

// A request that stalls, then the status query after it stalls too: the
// upload gives up after the second stall, not after every retry stalled.
func TestStalledUploadGivesUp(t *testing.T) {
	file := testFile(2 * ChunkAlign)
	size := int64(len(file))
	stalledPut := putX(file, 0, size)
	stalledPut.stall = true
	stalledQuery := statusX(size)
	stalledQuery.stall = true
	h := newHarness(t, startX(nil, size), stalledPut, stalledQuery)
	h.up.StallTimeout = 50 * time.Millisecond
	began := time.Now()
	_, err := h.up.Upload(context.Background(), Target{URL: testBase, ContentType: testType}, &memFile{data: file}, Resumable, nil, nil)
	if !errors.Is(err, ErrTooManyRetries) || !errors.Is(err, ErrStalled) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(began); d > 40*h.up.StallTimeout {
		t.Errorf("gave up after %v", d)
	}
}

// The stall watch declares a stall within a tenth past its timeout of the
// last bytes the peer acknowledged, seen as often as it looks. The watch's
// own timer is stopped and its looks made here on a stepped clock, so the
// machine's load cannot make the test late.
func TestStallDeclaredWithinItsLimit(t *testing.T) {
	const timeout = time.Second
	rctx, w := startWatch(context.Background(), timeout)
	defer w.stop()
	var now time.Time
	w.mu.Lock()
	w.timer.Stop()
	now = w.start
	w.now = func() time.Time { return now }
	lastAck := w.start.Add(timeout/4 + 10*time.Millisecond) // the peer acknowledges a byte every microsecond until then
	w.acked = func() (uint64, bool) {
		if now.After(lastAck) {
			return uint64(lastAck.Sub(w.start).Microseconds()), true
		}
		return uint64(now.Sub(w.start).Microseconds()), true
	}
	every := w.every()
	w.mu.Unlock()
	if every > timeout/10 {
		t.Fatalf("the watch looks every %v; a stall would be declared more than a tenth past its timeout", every)
	}
	for rctx.Err() == nil {
		if now.Sub(lastAck) > 2*timeout {
			t.Fatal("no stall was declared")
		}
		now = now.Add(every) // the watch's next look
		w.fire()
	}
	if stalled(rctx) == nil {
		t.Fatal("the request ended without a stall")
	}
	late := now.Sub(lastAck) - timeout
	if late < 0 || late > timeout/10 {
		t.Errorf("stall declared %v after the timeout past the last acknowledgement; want within a tenth of it", late)
	}
}
