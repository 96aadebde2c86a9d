package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/emulator"
)

// Another writer puts an object under the name while a resumable upload to
// Cloud Storage is on its way: Cloud Storage refuses the upload (412), and
// the refusal stays a refusal: "hoist send --resume" does not send the file
// again, and the other writer's object is never overwritten.
func TestResumeAfterTheNameWasTakenMeanwhile(t *testing.T) {
	if testing.Short() {
		t.Skip("starts real processes")
	}
	emu, base := serveEmulator(t, emulator.Options{})
	release := make(chan struct{})
	stalled := emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Action: emulator.Stall{Until: release}})
	home := t.TempDir()
	file := filepath.Join(home, "spring.bin")
	if err := os.WriteFile(file, bytes.Repeat([]byte("spring banner "), 30000), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"send", "--no-auth", "--journal", filepath.Join(home, "journal.db"),
		"--to", "storage", "--bucket", "banners", "--base-url", base, "--method", "resumable"}
	p := startHoist(t, home, append(args, file)...)
	waitFor(t, p, "the bytes on their way", func() bool { return stalled.Count() == 1 })

	theirs := []byte("the other writer's spring banner")
	resp, err := http.Post(base+"/upload/storage/v1/b/banners/o?uploadType=media&name=spring.bin", "application/octet-stream", bytes.NewReader(theirs))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the other writer's upload: %s", resp.Status)
	}
	close(release)
	p.wait(t)
	first := p.out.String()

	// As Cloud Storage does, the session that was refused is gone when asked again.
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageQuery}, Times: -1, Action: emulator.ExpireSession{}})
	p = startHoist(t, home, append(args, "--resume")...)
	p.wait(t)
	objs := emu.Objects()
	sum := sha256.Sum256(theirs)
	if len(objs) != 1 || objs[0].SHA256 != hex.EncodeToString(sum[:]) {
		t.Fatalf("the bucket holds %d objects (the first %d bytes): the other writer's object was overwritten\nfirst run:\n%s\nresumed:\n%s", len(objs), objs[0].Size, first, p.out.String())
	}
	if strings.Contains(p.out.String(), "Done") {
		t.Errorf("the resume said done:\n%s", p.out.String())
	}
	if !strings.Contains(first, "while the file was on its way") {
		t.Errorf("the first run said:\n%s", first)
	}
}
