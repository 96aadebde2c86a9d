package cli

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// TestResumeFindsANameThatIsNotUTF8: a file whose name is in another
// encoding (Latin-1 here, as an old disk or a zip from elsewhere gives)
// is found again by --resume, and its name is shown readably.
func TestResumeFindsANameThatIsNotUTF8(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	var arrived atomic.Bool
	held := emu.Inject(emulator.Fault{Match: emulator.Match{Func: func(*http.Request) bool { arrived.Store(true); return true }},
		Action: emulator.Stall{Until: release}})

	home := t.TempDir()
	file := filepath.Join(home, "r\xe9sum\xe9.png")
	if err := os.WriteFile(file, bytes.Repeat([]byte("x"), 5000), 0o644); err != nil {
		t.Fatal(err)
	}
	journalPath := filepath.Join(home, "journal.db")
	args := []string{"send", "--to", base + dest.SandboxPath, "--no-auth", "--method", "resumable", "--journal", journalPath}
	p := startHoist(t, home, append(args, file)...)
	deadline := time.Now().Add(30 * time.Second)
	for !arrived.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("the upload never reached the server:\n%s", p.out.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.kill()
	close(release)
	held.Remove()

	p = startHoist(t, home, append(args, "--resume")...)
	code := p.wait(t)
	out := p.out.String()
	if code != 0 || strings.Contains(out, "no longer there") {
		t.Fatalf("hoist send --resume: exit %d:\n%s", code, out)
	}
	if !strings.Contains(out, `r\xe9sum\xe9.png`) {
		t.Errorf("the name is not shown readably (bytes it cannot show as \\xNN):\n%s", out)
	}
	if n := len(emu.Objects()); n != 1 {
		t.Errorf("%d objects, want 1", n)
	}
}
