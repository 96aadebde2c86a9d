package cli

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine/emulator"
)

// waitFor polls cond until it holds, failing after a generous while.
func waitFor(t *testing.T, p *hoistProcess, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			p.kill()
			t.Fatalf("%s never happened; output:\n%s", what, p.out.String())
		}
		select {
		case <-p.done:
			t.Fatalf("hoist ended before %s; output:\n%s", what, p.out.String())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// A `hoist send` killed while it waits for a one-request upload's answer,
// which the server holds back after storing the file, is run again with
// --resume: the destination is asked, and there is exactly one object.
func TestKilledWhileWaitingForTheAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real processes")
	}
	for _, tc := range []struct {
		name string
		args func(base string) []string
	}{
		{"sandbox media", func(base string) []string {
			return []string{"--to", "sandbox", "--base-url", base, "--method", "media"}
		}},
		{"sandbox multipart", func(base string) []string {
			return []string{"--to", "sandbox", "--base-url", base, "--method", "multipart"}
		}},
		{"cloud storage media", func(base string) []string {
			return []string{"--to", base + "/upload/storage/v1/b/banners/o?name=spring.bin", "--method", "media"}
		}},
		{"cloud storage multipart", func(base string) []string {
			return []string{"--to", base + "/upload/storage/v1/b/banners/o", "--metadata", `{"name":"spring.bin"}`, "--method", "multipart"}
		}},
		{"drive multipart", func(base string) []string {
			return []string{"--to", "drive", "--base-url", base, "--method", "multipart"}
		}},
		{"gmail media", func(base string) []string {
			return []string{"--to", "gmail-insert", "--base-url", base, "--method", "media"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			emu, base := serveEmulator(t, emulator.Options{})
			hold := make(chan struct{})
			emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
			home := t.TempDir()
			file := filepath.Join(home, "spring.bin")
			data := []byte(strings.Repeat("spring banner ", 5000))
			if strings.HasPrefix(tc.name, "gmail") {
				file = filepath.Join(home, "spring.eml")
				data = []byte("From: Noa <noa@example.co.il>\r\nTo: office@example.org\r\nSubject: Spring\r\n" +
					"Message-ID: <spring-2026@example.co.il>\r\n\r\n" + string(data))
			}
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"send", "--no-auth", "--journal", filepath.Join(home, "journal.db")}, tc.args(base)...)
			p := startHoist(t, home, append(args, file)...)
			waitFor(t, p, "the upload arriving", func() bool { return emu.Received() == 1 })
			p.kill()
			close(hold)

			p = startHoist(t, home, append(args, "--resume")...)
			if code := p.wait(t); code != 0 {
				t.Fatalf("hoist send --resume exited %d:\n%s", code, p.out.String())
			}
			if n := len(emu.Objects()); n != 1 {
				t.Fatalf("%d objects on the server, want exactly 1; output:\n%s", n, p.out.String())
			}
		})
	}
}

// Killed while it waits for a Campaign Manager 360 asset's answer, which
// nothing can ask about: --resume does not send it again, says when it
// went out and what to look for, and how to send it anyway.
func TestKilledWhileWaitingWithNothingToAsk(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real processes")
	}
	emu, base := serveEmulator(t, emulator.Options{})
	hold := make(chan struct{})
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Action: emulator.DropAnswer{Hold: hold}})
	home := t.TempDir()
	file := filepath.Join(home, "banner.png")
	if err := os.WriteFile(file, pngBytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"send", "--no-auth", "--journal", filepath.Join(home, "journal.db"), "--to", "cm360", "--base-url", base,
		"--profile", "4180912", "--advertiser", "64032117"}
	p := startHoist(t, home, append(args, file)...)
	waitFor(t, p, "the upload arriving", func() bool { return emu.Received() == 1 })
	p.kill()
	close(hold)

	p = startHoist(t, home, append(args, "--resume")...)
	if code := p.wait(t); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, p.out.String())
	}
	out := p.out.String()
	for _, want := range []string{"banner.png was sent at", "Campaign Manager 360 offers no way", `Look in Campaign Manager 360 for “banner.png”`, "hoist queue restart", "hoist queue remove"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `Run "hoist send --resume" to try again`) {
		t.Errorf("the output offers to send it again blindly:\n%s", out)
	}
	if n := len(emu.Objects()); n != 1 {
		t.Fatalf("%d objects, want the one that arrived", n)
	}
}

// pngBytes is a small real PNG image.
func pngBytes() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 12, 12))
	img.Set(3, 4, color.RGBA{G: 180, A: 255})
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

// A server that asks for two hours' wait: hoist send waits no longer than
// --max-wait, exits 1 saying until when, and leaves the file waiting in the
// list; hoist queue shows it so, and --resume before its time exits at once.
func TestMaxWaitLeavesTheFileWaiting(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Times: -1, Action: emulator.Answer{Status: 503, RetryAfter: "7200"}})
	home := t.TempDir()
	file := filepath.Join(home, "report.bin")
	if err := os.WriteFile(file, []byte("quarterly figures"), 0o644); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(home, "journal.db")
	args := []string{"send", "--no-auth", "--journal", journal, "--to", "sandbox", "--base-url", base, "--max-wait", "5m"}
	began := time.Now()
	p := startHoist(t, home, append(args, file)...)
	if code := p.wait(t); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, p.out.String())
	}
	if d := time.Since(began); d > 30*time.Second {
		t.Errorf("hoist send took %v: it waited", d)
	}
	out := p.out.String()
	for _, want := range []string{"It waits until ", "as the server asked", "hoist send --resume"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	q := startHoist(t, home, "queue", "--journal", journal)
	if code := q.wait(t); code != 0 || !strings.Contains(q.out.String(), "Waiting until ") {
		t.Errorf("hoist queue (exit %d) does not show the file waiting until its time:\n%s", code, q.out.String())
	}
	p = startHoist(t, home, append(args, "--resume")...)
	if code := p.wait(t); code != exitFailed || !strings.Contains(p.out.String(), "It waits until ") {
		t.Errorf("--resume before its time: exit %d:\n%s", code, p.out.String())
	}
	if n := len(emu.Requests()); n != 1 {
		t.Errorf("%d requests: the file was tried again before its time", n)
	}
}

// A server that refuses with 429 and asks for no wait: Hoist's own backoff
// would go past --max-wait, so hoist send stops and leaves the file waiting
// until a time of its own choosing, and says so without claiming the server
// asked for it; the list says the same when it is read again.
func TestOwnWaitIsNotTheServers(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Times: -1, Action: emulator.Answer{Status: 429}})
	home := t.TempDir()
	file := filepath.Join(home, "report.bin")
	if err := os.WriteFile(file, []byte("quarterly figures"), 0o644); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(home, "journal.db")
	args := []string{"send", "--no-auth", "--journal", journal, "--to", "sandbox", "--base-url", base, "--max-wait", "1s"}
	p := startHoist(t, home, append(args, file)...)
	if code := p.wait(t); code != exitFailed {
		t.Fatalf("exit %d, want 1:\n%s", code, p.out.String())
	}
	out := p.out.String()
	if !strings.Contains(out, "It waits until ") || strings.Contains(out, "server asked") {
		t.Errorf("output does not say until when Hoist waits of its own accord:\n%s", out)
	}
	p = startHoist(t, home, append(args, "--resume")...)
	if code := p.wait(t); code != exitFailed || !strings.Contains(p.out.String(), "It waits until ") || strings.Contains(p.out.String(), "server asked") {
		t.Errorf("--resume before its time: exit %d:\n%s", code, p.out.String())
	}
}

// A server that says "complete" with part of the file: hoist send says so,
// naming the copy it holds; --resume asks the old session again and never
// starts a second copy on its own; hoist queue restart does.
func TestEarlyCompleteIsNeverCopiedByResume(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	early := emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageChunk}, Skip: 1, Times: -1, Action: emulator.FinishEarly{}})
	home := t.TempDir()
	file := filepath.Join(home, "archive.bin")
	if err := os.WriteFile(file, bytes.Repeat([]byte("archive "), 400_000), 0o644); err != nil {
		t.Fatal(err)
	}
	journal := filepath.Join(home, "journal.db")
	args := []string{"send", "--no-auth", "--journal", journal, "--to", "sandbox", "--base-url", base, "--method", "resumable", "--chunk-size", "1MiB"}
	for i, extra := range [][]string{{file}, {"--resume"}} {
		p := startHoist(t, home, append(args, extra...)...)
		if code := p.wait(t); code != exitFailed {
			t.Fatalf("run %d: exit %d, want 1:\n%s", i, code, p.out.String())
		}
		objs := emu.Objects()
		if len(objs) != 1 {
			t.Fatalf("run %d: %d objects, want the one copy:\n%s", i, len(objs), p.out.String())
		}
		for _, want := range []string{"received only", "The copy the sandbox holds is " + objs[0].ID, "hoist queue restart"} {
			if !strings.Contains(p.out.String(), want) {
				t.Errorf("run %d: output lacks %q:\n%s", i, want, p.out.String())
			}
		}
	}
	early.Remove()
	if p := startHoist(t, home, "queue", "restart", "--journal", journal, file); p.wait(t) != 0 {
		t.Fatalf("queue restart:\n%s", p.out.String())
	}
	if p := startHoist(t, home, append(args, "--resume")...); p.wait(t) != 0 {
		t.Fatalf("after restart:\n%s", p.out.String())
	}
	if n := len(emu.Objects()); n != 2 {
		t.Errorf("%d objects; Restart sends the whole file anew", n)
	}
}
