package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/ui/look"
	"hoist/ui/queuelist"
	"hoist/ui/view"
)

// BenchmarkQueueListRefresh measures one refresh cycle of a list of 10,000
// jobs of which 1,000 are uploading and change at every sample: making the
// snapshot (comparing it with the last one, counting the totals) and drawing
// the rows that changed.
func BenchmarkQueueListRefresh(b *testing.B) {
	a := test.NewTempApp(b)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	const jobs, moving = 10_000, 1_000
	views := make([]engine.JobView, jobs)
	for i := range views {
		views[i] = engine.JobView{
			ID: engine.JobID(fmt.Sprintf("job%05d", i)), Name: fmt.Sprintf("photo %05d.png", i), Path: "/nowhere",
			Size: 50_000_000, MIME: "application/octet-stream", Destination: "sandbox", DestKind: "sandbox",
			State: engine.Waiting, Version: 1, ETA: -1,
		}
		if i < moving {
			views[i].State = engine.Uploading
		}
	}
	now := time.Now()
	l := queuelist.NewQueueList(rowActions{})
	w := test.NewTempWindow(b, l)
	w.Resize(fyne.NewSize(960, 640))
	shots := view.NewSnapshots()
	l.Draw(shots.Make(readingOf(views, now)))

	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		b.StopTimer() // the queue's own copy of its jobs is not the window's cost
		next := make([]engine.JobView, jobs)
		copy(next, views)
		for i := range moving {
			next[i].Version = uint64(n + 2)
			next[i].Committed = int64(n%50) * 1_000_000
			next[i].Speed = 1_000_000
			next[i].ETA = time.Duration(50-n%50) * time.Second
		}
		r := readingOf(next, now)
		b.StartTimer()
		l.Draw(shots.Make(r))
	}
}

// BenchmarkQueueListScroll measures scrolling through 10,000 rows, a screen at a time.
func BenchmarkQueueListScroll(b *testing.B) {
	a := test.NewTempApp(b)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	views := make([]engine.JobView, 10_000)
	for i := range views {
		views[i] = engine.JobView{
			ID: engine.JobID(fmt.Sprintf("job%05d", i)), Name: fmt.Sprintf("report %05d.eml", i), Size: 40_000,
			MIME: "message/rfc822", Email: &engine.Email{From: "Sam <sam@example.com>", Subject: "Report"},
			Destination: "sandbox", DestKind: "sandbox", State: engine.Waiting, Version: 1, ETA: -1,
		}
	}
	now := time.Now()
	l := queuelist.NewQueueList(rowActions{})
	w := test.NewTempWindow(b, l)
	w.Resize(fyne.NewSize(960, 640))
	shots := view.NewSnapshots()
	l.Draw(shots.Make(readingOf(views, now)))

	b.ReportAllocs()
	b.ResetTimer()
	for n := range b.N {
		l.ScrollTo((n * 5) % len(views))
	}
}

// BenchmarkReadChangedAfterRemoval measures what a reading costs on a list
// of 10,000 uploads just after one was taken off it, where no row's version
// changed: the rows moved, so the previous reading's versions are looked up
// by id rather than by place.
func BenchmarkReadChangedAfterRemoval(b *testing.B) {
	jobs := make([]engine.Brief, 10_000)
	for i := range jobs {
		jobs[i] = engine.Brief{ID: engine.JobID(fmt.Sprintf("job-%05d", i)), Version: uint64(i + 1)}
	}
	after := jobs[1:]
	s := &sampling{}
	b.ReportAllocs()
	for b.Loop() {
		s.lastJobs = jobs
		if seen := s.readChanged(after); len(seen) != 0 {
			b.Fatalf("%d rows read again; none changed", len(seen))
		}
	}
}
