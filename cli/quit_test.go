package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/ui/handover"
)

// TestQuitStopsASend: "hoist quit", as an installer runs it, asks a running
// "hoist send" to pause its upload and end, and waits until it has; the
// upload is paused where the server stands, to be resumed later.
func TestQuitStopsASend(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	defer close(release)
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Times: -1, Action: emulator.Stall{Until: release}})

	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	file := filepath.Join(home, "archive.bin")
	if err := os.WriteFile(file, bytes.Repeat([]byte("hoist"), 1<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startHoist(t, home, "send", "--to", base+dest.SandboxPath, "--method", "resumable", "--chunk-size", "256KiB",
		"--no-auth", "--journal", filepath.Join(home, "journal.db"), file)
	commands := filepath.Join(home, "config", "Hoist", "commands")
	deadline := time.Now().Add(30 * time.Second)
	for {
		entries, _ := os.ReadDir(commands)
		if len(entries) == 1 && chunkBytes(t, emu) >= 256<<10 {
			break
		}
		select {
		case <-p.done:
			t.Fatalf("hoist send ended early:\n%s", p.out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("hoist send did not start its upload and listen; commands folder: %v", entries)
		}
		time.Sleep(20 * time.Millisecond)
	}

	var out, errs bytes.Buffer
	if status := Quit(context.Background(), nil, &out, &errs); status != exitOK {
		t.Fatalf("hoist quit = %d; it said:\n%s%s", status, out.String(), errs.String())
	}
	if got := strings.TrimSpace(out.String()); got != "1 Hoist command paused its uploads and ended." {
		t.Errorf("hoist quit said %q", got)
	}
	// Gone, or exited and not yet reaped by this test's own wait for it:
	// either way it holds no file an installer would replace.
	if !handover.Ended(p.cmd.Process.Pid) {
		t.Fatal("hoist quit returned while hoist send still runs")
	}
	p.wait(t)
	if p.status != exitFailed || !strings.Contains(p.out.String(), "Paused. Run \"hoist send --resume\"") {
		t.Errorf("hoist send ended with %d, saying:\n%s", p.status, p.out.String())
	}
	if entries, _ := os.ReadDir(commands); len(entries) != 0 {
		t.Errorf("hoist send left its channel behind: %v", entries)
	}

	out.Reset()
	if status := Quit(context.Background(), nil, &out, &errs); status != exitOK || strings.TrimSpace(out.String()) != "No Hoist window or command was open." {
		t.Errorf("hoist quit with nothing open = %d, %q", status, out.String())
	}
}

// TestAfterUpdateOpensOnlyWhatAnUpdateClosed: an installer starts
// "hoist --after-update" once it is done; the window opens only when the
// update closed it (hoist quit --for-update), and only once.
func TestAfterUpdateOpensOnlyWhatAnUpdateClosed(t *testing.T) {
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	opened := 0
	env := Env{Stdout: new(bytes.Buffer), Stderr: new(bytes.Buffer), Window: func(context.Context, []string, bool) int { opened++; return 0 }}
	if status := Run(context.Background(), []string{"--after-update"}, env); status != exitOK || opened != 0 {
		t.Fatalf("--after-update with no window closed by the update = %d, opened %d times", status, opened)
	}
	dir := filepath.Join(home, "config", "Hoist")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := handover.NoteReopen(dir); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if status := Run(context.Background(), []string{"--after-update"}, env); status != exitOK {
			t.Fatalf("--after-update = %d", status)
		}
	}
	if opened != 1 {
		t.Errorf("the window opened %d times after one update, want once", opened)
	}
}
