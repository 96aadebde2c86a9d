package engine_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/journal"
	"hoist/engine/upload"
)

// BenchmarkAddWhileUploading adds 300 files of 2 MiB (each read and hashed)
// while an upload to the emulator runs, and reports the longest wait of a
// snapshot of the list (Jobs and Summary, as the window's ticker takes it)
// and the longest pause of the running upload, measured where the server
// reads its body. Goals: snapshot ≤ 50 ms, upload pause ≤ 100 ms. The
// control is the longest pause of the upload while the same files are read
// and hashed beside it without the queue: the part of the pause that is the
// machine's (two CPUs shared), not the queue's.
func BenchmarkAddWhileUploading(b *testing.B) {
	const files, fileSize = 300, 2 << 20
	dir := b.TempDir()
	var paths []string
	buf := make([]byte, fileSize)
	for i := range files {
		rand.Read(buf)
		p := filepath.Join(dir, fmt.Sprintf("photo-%03d.bin", i))
		if err := os.WriteFile(p, buf, 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	big := filepath.Join(dir, "film.bin") // sparse: it costs no disk
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Truncate(big, 8<<30); err != nil {
		b.Fatal(err)
	}

	emu, err := emulator.New(emulator.Options{Store: emulator.NewHashStore()})
	if err != nil {
		b.Fatal(err)
	}
	reads := &readClock{}
	ts := httptest.NewServer(reads.wrap(emu))
	b.Cleanup(func() { ts.Close(); emu.Close() })

	var snapshotMax, pauseMax, controlMax, addTotal time.Duration
	b.ResetTimer()
	for i := range b.N {
		j, err := journal.Open(filepath.Join(dir, fmt.Sprintf("journal-%d.db", i)), journal.Options{})
		if err != nil {
			b.Fatal(err)
		}
		q, err := engine.Open(context.Background(), engine.Options{
			Journal: j, SandboxURL: ts.URL, Parallel: 1, Method: upload.Resumable,
			ChunkSize: 8 << 20, BandwidthLimit: 200 << 20,
		})
		if err != nil {
			b.Fatal(err)
		}
		d := dest.Destination{Kind: dest.Sandbox}
		film := q.Add([]string{big}, d).IDs[0]
		for v, _ := q.Job(film); v.Committed < 16<<20; v, _ = q.Job(film) {
			time.Sleep(5 * time.Millisecond)
		}

		stop := make(chan struct{})
		var wg sync.WaitGroup
		var snapshot atomic.Int64
		wg.Add(1)
		go func() { // the window's ticker, ten times faster
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
				t0 := time.Now()
				q.Jobs()
				q.Summary()
				if w := int64(time.Since(t0)); w > snapshot.Load() {
					snapshot.Store(w)
				}
			}
		}()
		reads.start()
		t0 := time.Now()
		if res := q.Add(paths, d); len(res.IDs) != files {
			b.Fatalf("%d of %d files added: %v", len(res.IDs), files, res.Problems)
		}
		addTotal += time.Since(t0)
		close(stop)
		wg.Wait()
		pause := reads.stop()
		if v, _ := q.Job(film); v.State != engine.Uploading {
			b.Fatalf("the upload was %s, not uploading, by the end of the adding", v.State)
		}
		// The control: the same reading and hashing beside the upload, without
		// the queue. What pause it causes is the machine's, not the queue's.
		reads.start()
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			sha256.Sum256(data)
		}
		control := reads.stop()
		snapshotMax = max(snapshotMax, time.Duration(snapshot.Load()))
		pauseMax = max(pauseMax, pause)
		controlMax = max(controlMax, control)

		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := q.Close(ctx); err != nil {
			b.Fatal(err)
		}
		cancel()
		j.Close()
	}
	b.ReportMetric(float64(snapshotMax)/float64(time.Millisecond), "snapshot-max-ms")
	b.ReportMetric(float64(pauseMax)/float64(time.Millisecond), "upload-pause-max-ms")
	b.ReportMetric(float64(controlMax)/float64(time.Millisecond), "control-pause-max-ms")
	b.ReportMetric(float64(addTotal)/float64(b.N)/float64(time.Millisecond), "add-ms")
}

// readClock measures the longest time between two reads of any request
// body the server takes, while it is started.
type readClock struct {
	mu      sync.Mutex
	on      bool
	last    time.Time
	longest time.Duration
}

func (c *readClock) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = &clockedBody{ReadCloser: r.Body, c: c}
		h.ServeHTTP(w, r)
	})
}

func (c *readClock) tick() {
	now := time.Now()
	c.mu.Lock()
	if c.on {
		c.longest = max(c.longest, now.Sub(c.last))
	}
	c.last = now
	c.mu.Unlock()
}

func (c *readClock) start() {
	c.mu.Lock()
	c.on, c.last, c.longest = true, time.Now(), 0
	c.mu.Unlock()
}

func (c *readClock) stop() time.Duration {
	c.tick()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.on = false
	return c.longest
}

type clockedBody struct {
	io.ReadCloser
	c *readClock
}

func (b *clockedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 {
		b.c.tick()
	}
	return n, err
}

// BenchmarkFinishedJobsHeld opens a list of 10,000 finished uploads, as the
// window does at start, and reports what the queue keeps alive for each
// (B/job: the live heap after two collections, less the heap before it was
// opened) and the bytes allocated while it opened (alloc-B/job). Every
// record is a copy of one that a real upload to the sandbox wrote, with
// its own path, name and fingerprint. Issue 23 gives 10,000 finished jobs
// at most 25 MiB in the window beside its empty one.
func BenchmarkFinishedJobsHeld(b *testing.B) {
	const jobs = 10_000
	dir := b.TempDir()
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	b.Cleanup(func() { ts.Close(); emu.Close() })
	file := filepath.Join(dir, "photo.jpg")
	if err := os.WriteFile(file, make([]byte, 300<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	list := filepath.Join(dir, journal.FileName)
	opts := engine.Options{SandboxURL: ts.URL, LeanResults: true}
	j, err := journal.Open(list, journal.Options{})
	if err != nil {
		b.Fatal(err)
	}
	opts.Journal = j
	q, err := engine.Open(context.Background(), opts)
	if err != nil {
		b.Fatal(err)
	}
	id := q.Add([]string{file}, dest.Destination{Kind: dest.Sandbox, BuiltinSandbox: true}).IDs[0]
	for v, _ := q.Job(id); v.State != engine.Done; v, _ = q.Job(id) {
		if v.State.Finished() {
			b.Fatalf("the upload ended %s", v.State)
		}
		time.Sleep(5 * time.Millisecond)
	}
	q.Close(context.Background())
	one, err := j.Get(string(id))
	if err != nil {
		b.Fatal(err)
	}
	recs := make([]journal.Record, jobs)
	for i := range recs {
		r := one
		r.ID = fmt.Sprintf("%s-%05d", id, i)
		r.Order = int64(i)
		r.Name = fmt.Sprintf("IMG_%05d.jpg", i)
		r.Path = filepath.Join(dir, "Pictures", "2026", r.Name)
		r.Fingerprint = fmt.Sprintf("%064x", sha256.Sum256([]byte(r.Path)))
		recs[i] = r
	}
	if err := j.PutAll(recs...); err != nil {
		b.Fatal(err)
	}
	recs = nil
	if err := j.Close(); err != nil {
		b.Fatal(err)
	}

	var held, allocated uint64
	b.ResetTimer()
	for range b.N {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&before)
		j, err := journal.Open(list, journal.Options{})
		if err != nil {
			b.Fatal(err)
		}
		opts.Journal, opts.Idle = j, true
		q, err := engine.Open(context.Background(), opts)
		if err != nil {
			b.Fatal(err)
		}
		if n := len(q.Briefs()); n != jobs+1 {
			b.Fatalf("%d jobs opened, want %d", n, jobs+1)
		}
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&after)
		held += after.HeapAlloc - before.HeapAlloc
		allocated += after.TotalAlloc - before.TotalAlloc
		runtime.KeepAlive(q)
		q.Close(context.Background())
		j.Close()
	}
	b.ReportMetric(float64(held)/float64(b.N)/jobs, "B/job")
	b.ReportMetric(float64(allocated)/float64(b.N)/jobs, "alloc-B/job")
}
