package ui

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/journal"
	"hoist/ui/destination"
	"hoist/ui/look"
	"hoist/ui/received"
)

// benchWindow is a window as Run opens it (journal, built-in sandbox,
// queue, desk) on the test driver, sampled by the benchmark's goroutine,
// which stands for both the window's ticker and its UI goroutine.
type benchWindow struct {
	d  *desk
	q  *engine.Queue
	j  *journal.Journal
	sb *received.Sandbox
}

func openBenchWindow(b *testing.B, dir string) *benchWindow {
	b.Helper()
	log := slog.New(slog.DiscardHandler)
	w := &benchWindow{}
	var err error
	if w.j, err = journal.Open(filepath.Join(dir, journal.FileName), journal.Options{TidyLater: true}); err != nil {
		b.Fatal(err)
	}
	if w.sb, err = received.StartSandbox(context.Background(), "", "127.0.0.1:0", log); err != nil {
		b.Fatal(err)
	}
	presets, err := destination.OpenPresets(dir)
	if err != nil {
		b.Fatal(err)
	}
	if w.q, err = engine.Open(context.Background(), engine.Options{Journal: w.j, SandboxURL: w.sb.Url, LeanResults: true}); err != nil {
		b.Fatal(err)
	}
	w.d = newDesk(context.Background(), fyne.CurrentApp(), w.q, deskOptions{
		presets: presets, auth: &auth.Service{ConfigDir: dir}, sandbox: w.sb, log: log, journal: w.j.Path(),
	})
	w.d.win.Resize(fyne.NewSize(1366, 768))
	w.d.thumbs.Start(w.d.frame.Context)
	return w
}

func (w *benchWindow) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w.d.Close()
	w.d.win.Close()
	w.q.Close(ctx)
	w.sb.Close()
	w.j.Close()
}

// Frame samples the queue and draws what changed, as one tick of the
// window does; it returns how long the UI goroutine's part took.
func (w *benchWindow) Frame() time.Duration {
	show := w.d.sampling.collect()
	if show == nil {
		return 0
	}
	t0 := time.Now()
	show()
	return time.Since(t0)
}

// benchFiles writes n small files of size bytes into dir.
func benchFiles(b *testing.B, dir string, n, size int) []string {
	b.Helper()
	data := make([]byte, size)
	paths := make([]string, n)
	for i := range paths {
		data[0], data[1] = byte(i), byte(i>>8) // each file its own
		paths[i] = filepath.Join(dir, fmt.Sprintf("photo %05d.bin", i))
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return paths
}

// BenchmarkWindowStart opens the window on a list of 10,000 queued files
// (the journal of an earlier run) and reports the time until every row is
// in the list and drawn (start-ms), and the Go heap the window then holds
// (heap-MiB, the first window's). Goal: a usable window within 2 s. Peak RSS of the real
// window is measured from outside (bench/cmd/windowbench).
func BenchmarkWindowStart(b *testing.B) {
	b.Run("queued", func(b *testing.B) { benchWindowStart(b, false) })
	b.Run("finished", func(b *testing.B) { benchWindowStart(b, true) })
}

func benchWindowStart(b *testing.B, finished bool) {
	const jobs = 10_000
	test.NewTempApp(b).Settings().SetTheme(look.NewTheme(look.ThemeLight))
	dir, files := b.TempDir(), b.TempDir()
	paths := benchFiles(b, files, jobs, 1024)
	{ // the earlier run: files queued, or all sent
		j, err := journal.Open(filepath.Join(dir, journal.FileName), journal.Options{})
		if err != nil {
			b.Fatal(err)
		}
		sb, err := received.StartSandbox(context.Background(), "", "127.0.0.1:0", slog.New(slog.DiscardHandler))
		if err != nil {
			b.Fatal(err)
		}
		q, err := engine.Open(context.Background(), engine.Options{Journal: j, SandboxURL: sb.Url, Idle: !finished})
		if err != nil {
			b.Fatal(err)
		}
		if res := q.Add(paths, dest.Destination{Kind: dest.Sandbox, BuiltinSandbox: true}); len(res.IDs) != jobs {
			b.Fatalf("%d of %d files queued: %v", len(res.IDs), jobs, res.Problems)
		}
		for finished && q.Summary().Done < jobs {
			time.Sleep(50 * time.Millisecond)
		}
		q.Close(context.Background())
		sb.Close()
		j.Close()
	}

	var total time.Duration
	var heap uint64
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		w := openBenchWindow(b, dir)
		for w.Frame(); len(w.d.list.Snap.Rows) < jobs; w.Frame() {
			time.Sleep(time.Millisecond)
		}
		total += time.Since(t0)
		b.StopTimer()
		if heap == 0 { // the first window's: the toolkit keeps some of every window it made
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap = m.HeapInuse
		}
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "start-ms")
	b.ReportMetric(float64(heap)/(1<<20), "heap-MiB")
}

// BenchmarkAddThousands adds 3,000 files of 64 KiB to the built-in sandbox
// through the window, sampling it as its ticker does, and reports when the
// first rows appeared (first-rows-ms), the longest the UI goroutine spent on
// one frame (frame-max-ms) and when all were listed (all-rows-ms). Goals:
// first rows within 200 ms, no frame over 100 ms.
func BenchmarkAddThousands(b *testing.B) {
	const files = 3_000
	test.NewTempApp(b).Settings().SetTheme(look.NewTheme(look.ThemeLight))
	paths := benchFiles(b, b.TempDir(), files, 64<<10)
	var first, all, frameMax time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		w := openBenchWindow(b, b.TempDir())
		w.Frame()
		b.StartTimer()
		t0 := time.Now()
		w.d.Add(paths)
		var seen bool
		for len(w.d.list.Snap.Rows) < files {
			frameMax = max(frameMax, w.Frame())
			if !seen && len(w.d.list.Snap.Rows) > 0 {
				first, seen = max(first, time.Since(t0)), true
			}
			time.Sleep(sampleEvery)
		}
		all = max(all, time.Since(t0))
		b.StopTimer()
		w.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(first.Microseconds())/1000, "first-rows-ms")
	b.ReportMetric(float64(frameMax.Microseconds())/1000, "frame-max-ms")
	b.ReportMetric(float64(all.Milliseconds()), "all-rows-ms")
}
