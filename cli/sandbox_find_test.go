package cli

import (
	"context"
	"os"
	"testing"
	"time"

	"hoist/dirs"
	"hoist/engine/emulator"
	"hoist/internal/syncbuf"
)

// aloneWithOwnFolders gives the test settings and data folders of its own,
// where no sandbox was announced, and no sandbox address in the environment.
func aloneWithOwnFolders(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv(SandboxAddrEnv, "")
}

// sendsTo checks that --to sandbox finds the sandbox at url, whose it is,
// and starts none of its own.
func sendsTo(t *testing.T, url, whose string) {
	t.Helper()
	got, ours, err := sandboxURL(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ours != nil {
		ours()
	}
	if got != url || ours != nil {
		t.Errorf("--to sandbox went to %s (started its own: %v), want %s %s", got, ours != nil, whose, url)
	}
}

// TestSendFindsTheWindowsSandbox: `hoist send --to sandbox` uploads into
// the sandbox this user's window runs, wherever it listens (it announces
// its address in the user's private settings folder), not into one it
// starts itself nor into the one at 8765, which another user may run.
func TestSendFindsTheWindowsSandbox(t *testing.T) {
	aloneWithOwnFolders(t)
	_, url := serveEmulator(t, emulator.Options{Store: emulator.NewMemoryStore()})
	cfg, err := dirs.Config()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	withdraw, err := emulator.Announce(cfg, url)
	if err != nil {
		t.Fatal(err)
	}
	defer withdraw()

	sendsTo(t, url, "the window's")
}

// TestSendLeavesAnotherUsersSandboxAlone: a sandbox at `hoist sandbox`'s
// default address that this user did not announce may be another user's,
// so `hoist send --to sandbox` never uploads into it.
func TestSendLeavesAnotherUsersSandboxAlone(t *testing.T) {
	aloneWithOwnFolders(t)
	srv, err := emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	theirs, stop, err := srv.Start(context.Background(), DefaultSandboxAddr)
	if err != nil {
		t.Fatalf("the test needs %s free for a stand-in of another user's sandbox: %v", DefaultSandboxAddr, err)
	}
	defer stop()

	got, ours, err := sandboxURL(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ours != nil {
		defer ours()
	}
	if got == theirs || ours == nil {
		t.Errorf("--to sandbox went to %s (started its own: %v); the sandbox at %s was not announced by this user", got, ours != nil, theirs)
	}
}

// TestSendFindsHoistSandbox: `hoist sandbox` announces where it listens,
// wherever that is, so the same user's `hoist send --to sandbox` uploads
// into it; the note goes when it stops.
func TestSendFindsHoistSandbox(t *testing.T) {
	aloneWithOwnFolders(t)
	cfg, err := dirs.Config()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var out, errs syncbuf.Buffer
	done := make(chan int, 1)
	go func() { done <- Sandbox(ctx, []string{"--addr", "127.0.0.1:0", "--store", "memory"}, &out, &errs) }()
	deadline := time.Now().Add(10 * time.Second)
	for emulator.Announced(cfg) == "" {
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("hoist sandbox announced nothing; it said: %s %s", out.String(), errs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	url := emulator.Announced(cfg)
	sendsTo(t, url, "hoist sandbox's")
	cancel()
	if status := <-done; status != exitOK {
		t.Errorf("hoist sandbox ended with %d", status)
	}
	if a := emulator.Announced(cfg); a != "" {
		t.Errorf("hoist sandbox left its address announced after it stopped: %s", a)
	}
}
