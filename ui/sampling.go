package ui

import (
	"context"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"hoist/engine"
	"hoist/ui/queuelist"
	"hoist/ui/received"
	"hoist/ui/view"
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
	frame  *view.WindowFrame
	thumbs *queuelist.Thumbnails
	events chan engine.Event       // from the queue
	watch  *received.ReceiptsWatch // nil without a sandbox
	ring   *focusRing
	now    func() time.Time
	draw   func(r view.Reading)  // on the UI goroutine
	notify func(ev engine.Event) // on the UI goroutine, after the reading that shows it

	pending  atomic.Bool // a reading is on its way to the UI goroutine
	resample atomic.Bool // the jobs must be read again though the queue did not change

	// Owned by whoever calls collect: the sampling goroutine, or a test.
	changes    queuelist.Sampler
	lastJobs   []engine.Brief          // the jobs at the last reading
	wasVersion map[engine.JobID]uint64 // the last reading's versions by id, made again when rows move
	retrying   bool
	focusSeen  fyne.Focusable // the focused control at the last reading
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

// readChanged reads the whole views of the jobs that changed since the last
// reading (new ones too), at most keptViews of them, so that their rows,
// drawn later on the UI goroutine, show what this reading counts. A view
// newer than its brief (the job changed again meanwhile) is left out: its
// row reads it when drawn, and the next reading counts it.
func (s *sampling) readChanged(jobs []engine.Brief) map[engine.JobID]engine.JobView {
	before := s.lastJobs
	s.lastJobs = jobs
	same := len(before) == len(jobs)
	for i := 0; same && i < len(jobs); i++ {
		same = jobs[i].ID == before[i].ID
	}
	was := s.wasVersion // only when rows came, went or moved; kept for the next time
	if !same {
		if was == nil {
			was = make(map[engine.JobID]uint64, len(before))
			s.wasVersion = was
		}
		clear(was)
		for _, b := range before {
			was[b.ID] = b.Version
		}
	}
	var seen map[engine.JobID]engine.JobView
	for i := range jobs {
		b := &jobs[i]
		if same {
			if b.Version == before[i].Version {
				continue
			}
		} else if v, ok := was[b.ID]; ok && v == b.Version {
			continue
		}
		if len(seen) == view.KeptViews {
			break
		}
		v, ok := s.q.Job(b.ID)
		if !ok || v.Version != b.Version {
			continue
		}
		if seen == nil {
			seen = map[engine.JobID]engine.JobView{}
		}
		seen[b.ID] = v
	}
	return seen
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
	shows := s.frame.TakeLater()

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
	r := view.Reading{Ready: s.thumbs.TakeReady(), Now: s.now()}
	if s.changes.Needed(s.q.Summary(), s.retrying) || s.resample.Swap(false) || len(r.Ready) > 0 {
		r.Jobs, r.Views = s.q.Briefs(), s.q.Job
		r.Seen = s.readChanged(r.Jobs)
		s.retrying = queuelist.AnyRetrying(r.Jobs)
	}
	if s.watch != nil {
		r.Receipts = s.watch.Read()
	}
	if r.Jobs != nil || r.Receipts != nil {
		shows = append(shows, func() { s.draw(r) })
	}
	if len(events) > 0 { // told after the snapshot that shows them
		shows = append(shows, func() {
			for _, ev := range events {
				s.notify(ev)
			}
		})
	}

	if f := s.frame.Win.Canvas().Focused(); f != s.focusSeen || s.ring.on.Load() {
		s.focusSeen = f
		shows = append(shows, s.ring.Draw) // the focus moved, or the ringed control may have
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
