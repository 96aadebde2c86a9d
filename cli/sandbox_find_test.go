package cli

import (
	"context"
	"os"
	"testing"

	"hoist/dirs"
	"hoist/engine/emulator"
)

// TestSendFindsTheWindowsSandbox: `hoist send --to sandbox` uploads into
// the sandbox this user's window runs, wherever it listens (it announces
// its address in the user's private settings folder), not into one it
// starts itself nor into the one at 8765, which another user may run.
func TestSendFindsTheWindowsSandbox(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	t.Setenv(SandboxAddrEnv, "")
	srv, err := emulator.New(emulator.Options{Store: emulator.NewMemoryStore()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url, stop, err := srv.Start(context.Background(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
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

	got, ours, err := sandboxURL(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if ours != nil {
		ours()
	}
	if got != url || ours != nil {
		t.Errorf("--to sandbox went to %s (started its own: %v), want the window's %s", got, ours != nil, url)
	}
}
