package ui

import (
	"context"
	"os"
	"testing"
	"time"

	"hoist/engine"
	"hoist/ui/handover"
)

// TestAQuitRequestPausesAndQuits: an installer asks the window, through the
// hand-over channel, to quit while a file uploads and the question closing
// the window asks is open. The window asks nothing more: it pauses the
// upload where the server stands and quits.
func TestAQuitRequestPausesAndQuits(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)
	h.d.exit.askQuit(true)
	if h.findButton("Pause uploads and quit") == nil {
		t.Fatal("closing the window did not ask first")
	}

	dir, err := os.MkdirTemp("", "hq")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	claim, err := handover.Listen(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer claim.Close()
	h.d.exit.answerQuitRequests(claim)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = claim.Serve(ctx, func([]string) {}) }()

	// The asking side waits for this process to end, which a test's does
	// not: it is stopped once the window has done its part.
	asked := make(chan error, 1)
	go func() {
		_, err := handover.AskToQuit(ctx, dir)
		asked <- err
	}()
	h.waitFor("the window to pause the upload and quit", func() bool {
		return h.d.exit.quitting && h.state("movie.dat") == engine.Paused
	})
	cancel()
	select {
	case err := <-asked:
		if err == nil {
			t.Error("AskToQuit returned success while this process still runs")
		}
	case <-time.After(10 * time.Second):
		t.Error("AskToQuit did not stop when asked")
	}
}
