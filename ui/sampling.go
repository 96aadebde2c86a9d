package ui

import (
	"context"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"hoist/engine"
)

// sampleEvery is how often the window looks at the queue's counters.
const sampleEvery = 100 * time.Millisecond

// sampling reads, off the UI goroutine, what the window shows: about ten
// times a second it looks whether the queue changed and reads its jobs,
// what the sandbox received, the queue's events and the results of
// background work, and hands them to the UI goroutine, where the reading
// becomes the next snapshot. It never waits for the UI: while a reading is
// on its way, the next tick is skipped.
type sampling struct {
	q      *engine.Queue
	frame  *windowFrame
	thumbs *thumbnails
	events chan engine.Event // from the queue
	watch  *receiptsWatch    // nil without a sandbox
	ring   *focusRing
	now    func() time.Time
	draw   func(r reading)       // on the UI goroutine
	notify func(ev engine.Event) // on the UI goroutine, after the reading that shows it

	pending  atomic.Bool // a reading is on its way to the UI goroutine
	resample atomic.Bool // the jobs must be read again though the queue did not change

	// Owned by whoever calls collect: the sampling goroutine, or a test.
	changes   sampler
	retrying  bool
	focusSeen fyne.Focusable // the focused control at the last reading
}

// run samples until ctx ends.
func (s *sampling) run(ctx context.Context) {
	tick := time.NewTicker(sampleEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		if s.pending.Load() {
			continue
		}
		if show := s.collect(); show != nil {
			s.pending.Store(true)
			fyne.Do(func() {
				defer s.pending.Store(false)
				show()
			})
		}
	}
}

// refreshNow samples and shows at once, on the calling goroutine, which must
// be the UI goroutine (tests drive the window this way).
func (s *sampling) refreshNow() {
	if show := s.collect(); show != nil {
		show()
	}
}

// collect gathers everything new since the last call and returns what to
// run on the UI goroutine, or nil when nothing changed. One goroutine at a
// time.
func (s *sampling) collect() func() {
	shows := s.frame.takeLater()

	var events []engine.Event
	for drained := false; !drained; {
		select {
		case ev := <-s.events:
			events = append(events, ev)
		default:
			drained = true
		}
	}
	// The jobs are read after the events, so the snapshot shows what they tell.
	r := reading{ready: s.thumbs.takeReady(), now: s.now()}
	if s.changes.needed(s.q.Summary(), s.retrying) || s.resample.Swap(false) || len(r.ready) > 0 {
		r.jobs, r.views = s.q.Briefs(), s.q.Job
		s.retrying = anyRetrying(r.jobs)
	}
	if s.watch != nil {
		r.receipts = s.watch.read()
	}
	if r.jobs != nil || r.receipts != nil {
		shows = append(shows, func() { s.draw(r) })
	}
	if len(events) > 0 { // told after the snapshot that shows them
		shows = append(shows, func() {
			for _, ev := range events {
				s.notify(ev)
			}
		})
	}

	if f := s.frame.win.Canvas().Focused(); f != s.focusSeen || s.ring.on.Load() {
		s.focusSeen = f
		shows = append(shows, s.ring.show) // the focus moved, or the ringed control may have
	}

	if len(shows) == 0 {
		return nil
	}
	return func() {
		for _, f := range shows {
			f()
		}
	}
}
