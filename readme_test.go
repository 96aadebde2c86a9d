package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestReadmeCommands runs every command of the README's sh blocks as a new
// user would type it, from a folder holding build/hoist and the files the
// commands name, against the sandbox: each must work as written. The make
// commands are left to CI itself, and the window (hoist --sandbox FILES) to
// the real-window smoke test, as this test has no display.
func TestReadmeCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("builds Hoist and runs the README's commands")
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlocks(string(readme))
	if len(blocks) < 2 {
		t.Fatalf("found %d sh blocks in the README", len(blocks))
	}

	work := t.TempDir()
	hoist := filepath.Join(work, "build", "hoist")
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		goTool = "go" // from PATH
	}
	build := exec.Command(goTool, "build", "-o", hoist, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	writeExampleFiles(t, work)

	// The sandbox's own port when it is free, else another; the commands
	// and the sandbox's default address follow it.
	addr := "127.0.0.1:8765"
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
	} else {
		addr = freeAddr(t)
	}
	home := filepath.Join(work, "home")
	env := append(os.Environ(),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"HOIST_SANDBOX_ADDR="+addr,
		"TERM=dumb",
		// The README shows the command line's English.
		"LANGUAGE=", "LC_ALL=", "LC_MESSAGES=", "LANG=C.UTF-8",
	)

	ran := 0
	for i, block := range blocks {
		if strings.HasPrefix(block[0], "make ") {
			continue
		}
		t.Run(fmt.Sprintf("block %d", i+1), func(t *testing.T) {
			stop := func() {}
			defer func() { stop() }()
			for _, line := range block {
				line = strings.ReplaceAll(line, "127.0.0.1:8765", addr)
				switch {
				case isWindow(line):
					t.Logf("not run here (the window needs a display): %s", line)
				case isSandboxServer(line):
					stop = startSandbox(t, work, env, addr, strings.TrimSuffix(strings.TrimSpace(line), "&"))
				default:
					runSend(t, work, env, addr, line)
					ran++
				}
			}
		})
	}
	if ran < 5 {
		t.Errorf("only %d commands ran", ran)
	}
}

// shBlocks returns each ```sh block's commands, comments dropped.
func shBlocks(readme string) [][]string {
	var blocks [][]string
	var cur []string
	in := false
	for line := range strings.Lines(readme) {
		line = strings.TrimRight(line, "\r\n")
		switch {
		case !in && strings.TrimSpace(line) == "```sh":
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			if len(cur) > 0 {
				blocks = append(blocks, cur)
			}
		case in:
			if c := strings.TrimSpace(trailingComment.ReplaceAllString(line, "")); c != "" {
				cur = append(cur, c)
			}
		}
	}
	return blocks
}

// trailingComment is a shell comment after a command: " # …".
var trailingComment = regexp.MustCompile(`\s+#\s.*$`)

// isWindow: hoist with no subcommand opens the window.
func isWindow(line string) bool {
	f := strings.Fields(line)
	return len(f) > 1 && strings.HasSuffix(f[0], "hoist") && strings.HasPrefix(f[1], "-")
}

func isSandboxServer(line string) bool {
	f := strings.Fields(line)
	return len(f) > 1 && strings.HasSuffix(f[0], "hoist") && f[1] == "sandbox"
}

// startSandbox starts `hoist sandbox` as the line says and waits until it answers.
func startSandbox(t *testing.T, dir string, env []string, addr, line string) (stop func()) {
	t.Helper()
	cmd := exec.Command("sh", "-c", "exec "+line)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		_ = cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	for {
		resp, err := http.Get("http://" + addr + "/sandbox/objects")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return stop
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("%s ended before it answered (%v):\n%s", line, err, out.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// uploaded is hoist send's last line when every file went up.
var uploaded = regexp.MustCompile(`(?m)^(\d+) of (\d+) files? uploaded`)

// runSend runs a hoist send line as written and checks that every file
// went up, and what each destination answers.
func runSend(t *testing.T, dir string, env []string, addr, line string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		t.Fatalf("%s\n  failed (%v):\n%s%s", line, err, stdout.String(), stderr.String())
	}
	m := uploaded.FindStringSubmatch(stdout.String())
	if m == nil || m[1] != m[2] || m[1] == "0" {
		t.Fatalf("%s\n  did not upload every file:\n%s%s", line, stdout.String(), stderr.String())
	}
	if strings.Contains(line, "--to cm360") {
		if !regexp.MustCompile(`Added to Campaign Manager 360\. Name: [^\n]*\. Id: [0-9]+\.`).MatchString(stdout.String()) {
			t.Errorf("%s\n  printed no asset id:\n%s", line, stdout.String())
		}
		if p := lastObjectPath(t, addr); !strings.HasPrefix(p, "/upload/dfareporting/v5/") {
			t.Errorf("%s\n  went to %s, want API v5", line, p)
		}
	}
	t.Logf("%s\n%s", line, stdout.String())
}

// lastObjectPath is the path the sandbox's newest object was uploaded to.
func lastObjectPath(t *testing.T, addr string) string {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/sandbox/objects")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var objs []struct {
		Path    string    `json:"path"`
		Created time.Time `json:"created"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&objs); err != nil {
		t.Fatal(err)
	}
	last := ""
	var when time.Time
	for _, o := range objs {
		if !o.Created.Before(when) {
			last, when = o.Path, o.Created
		}
	}
	return last
}

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// writeExampleFiles makes the files the README's commands name.
func writeExampleFiles(t *testing.T, dir string) {
	t.Helper()
	// Each picture its own bytes: the same bytes sent twice to one place
	// would be skipped as already there.
	picture := func(g uint8) []byte {
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		for x := range 64 {
			img.Set(x, x, color.RGBA{R: 200, G: g, B: 90, A: 255})
		}
		var pic bytes.Buffer
		if err := png.Encode(&pic, img); err != nil {
			t.Fatal(err)
		}
		return pic.Bytes()
	}
	email := func(subject string) []byte {
		return []byte("From: Ana <ana@example.com>\r\nTo: office@example.org\r\nSubject: " + subject +
			"\r\nDate: Mon, 2 Mar 2026 09:00:00 +0000\r\n\r\nHello.\r\n")
	}
	iso := make([]byte, 3<<20+12345) // several chunks of 256 KiB, the last one short
	for i := range iso {
		iso[i] = byte(i * 7)
	}
	files := map[string][]byte{
		"photo.png": picture(1), "photo.jpg": picture(2), "banner.png": picture(3), "icon.png": picture(4),
		"mail.eml": email("Hello"), "mail/a.eml": email("First"), "mail/b.eml": email("Second"),
		"big.iso": iso, "launch.mp4": append([]byte("\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom"), iso[:1<<20]...),
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}
