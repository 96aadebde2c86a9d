package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/internal/testproc"
)

// TestSendOnAFullDisk runs `hoist send` with its list on a disk that really
// fills (a small memory file system of its own): no upload starts that the
// list does not hold, one plain sentence says the disk is full and where,
// the exit is 1, what was recorded stays, and nothing is called damaged.
func TestSendOnAFullDisk(t *testing.T) {
	listDir, inside := testproc.InTmpfs(t, 512<<10)
	if !inside {
		return
	}
	emu, base := serveEmulator(t, emulator.Options{})
	home := t.TempDir()
	var files []string
	bySum := map[string]string{} // a file's SHA-256, as the emulator gives it, and its path
	for i := range 200 {
		p := filepath.Join(home, fmt.Sprintf("scan-%03d-%s.png", i, strings.Repeat("long-name-", 8)))
		data := []byte(fmt.Sprintf("file %d", i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		sum := sha256.Sum256(data)
		bySum[hex.EncodeToString(sum[:])] = p
	}
	journalPath := filepath.Join(listDir, "journal.db")
	send := func(paths ...string) (int, string) {
		t.Helper()
		args := append([]string{"send", "--to", base + dest.SandboxPath, "--no-auth", "--journal", journalPath}, paths...)
		p := startHoist(t, home, args...)
		code := p.wait(t)
		return code, p.out.String()
	}
	full := "The disk that holds the list of uploads is full (" + listDir + ")"
	checkSaid := func(when, out string) {
		t.Helper()
		if n := strings.Count(out, full); n != 1 {
			t.Errorf("%s: the output says %d times that the disk is full, want once:\n%s", when, n, out)
		}
		for _, wrong := range []string{"damaged", "level=", "200 of 200"} {
			if strings.Contains(out, wrong) {
				t.Errorf("%s: the output says %q:\n%s", when, wrong, out)
			}
		}
	}
	listed := func() map[string]bool {
		t.Helper()
		p := startHoist(t, home, "queue", "--json", "--journal", journalPath)
		if code := p.wait(t); code != 0 {
			t.Fatalf("hoist queue exited %d:\n%s", code, p.out.String())
		}
		if strings.Contains(p.out.String(), "damaged") {
			t.Errorf("hoist queue calls the list damaged:\n%s", p.out.String())
		}
		m := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(p.out.String()), "\n") {
			var job struct {
				File string `json:"file"`
			}
			if err := json.Unmarshal([]byte(line), &job); err != nil {
				t.Fatalf("hoist queue --json: %v: %q", err, line)
			}
			m[job.File] = true
		}
		return m
	}
	noBackups := func(when string) {
		t.Helper()
		entries, _ := os.ReadDir(listDir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".bad-") {
				t.Errorf("%s: %s was set aside as damaged", when, e.Name())
			}
		}
	}

	// Full before there is a list: nothing starts.
	free := testproc.FillDisk(t, listDir)
	code, out := send(files[:20]...)
	if code != exitFailed {
		t.Errorf("full at the start: exit %d, want 1:\n%s", code, out)
	}
	checkSaid("full at the start", out)
	if n := len(emu.Objects()); n != 0 {
		t.Errorf("full at the start: %d files were uploaded that no list holds", n)
	}
	noBackups("full at the start")
	free()

	// A list of three, then the disk fills: the list keeps its three, and
	// no file is uploaded that the list does not hold.
	if code, out := send(files[:3]...); code != 0 {
		t.Fatalf("with room: exit %d:\n%s", code, out)
	}
	free = testproc.FillDisk(t, listDir)
	code, out = send(files[3:]...)
	if code != exitFailed {
		t.Errorf("full with a list: exit %d, want 1:\n%s", code, out)
	}
	checkSaid("full with a list", out)
	noBackups("full with a list")
	free()
	have := listed()
	for _, f := range files[:3] {
		if !have[f] {
			t.Errorf("%s was in the list before the disk filled, and is gone", filepath.Base(f))
		}
	}
	uploaded := 0
	for _, o := range emu.Objects() {
		uploaded++
		if p := bySum[o.SHA256]; !have[p] {
			t.Errorf("%q was uploaded, and the list does not hold it", filepath.Base(p))
		}
	}
	if uploaded >= len(files) {
		t.Errorf("all %d files were uploaded although the list could not hold them", uploaded)
	}
	t.Logf("with the disk full, %d of %d files were in the list and uploaded", uploaded-3, len(files)-3)
}
