package cli

import (
	"context"
	"crypto/rand"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// `hoist sandbox --tls` serves HTTPS with a certificate made at start and
// writes its authority to a file; `hoist send` reaches it only when told to
// trust that file (--ca-file or HOIST_CA_FILE), over HTTP/1.1 or HTTP/2.
func TestSendOverHTTPSSandbox(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Sandbox(ctx, []string{"--tls", "--addr", "127.0.0.1:0", "--store", "memory", "--ca-out", ca}, pw, io.Discard)
		pw.Close()
	}()
	line := make([]byte, 256)
	n, err := pr.Read(line)
	if err != nil {
		t.Fatalf("the sandbox printed no address: %v", err)
	}
	base := strings.TrimSpace(string(line[:n]))
	go func() { _, _ = io.Copy(io.Discard, pr) }()
	defer func() {
		stop()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the sandbox did not stop")
		}
	}()
	if !strings.HasPrefix(base, "https://127.0.0.1:") {
		t.Fatalf("the sandbox serves at %q, want an https address", base)
	}
	data := make([]byte, 3<<20+5)
	_, _ = rand.Read(data)
	file := l.file("over-tls.bin", data)
	to := []string{"--to", base + dest.SandboxPath, "--no-auth", "--method", "resumable", "--json"}

	code, _, stderr := l.send(append(to, file)...)
	if code == exitOK {
		t.Fatal("hoist send trusted the sandbox's certificate without being told to")
	}
	t.Setenv(engine.CAFileEnv, ca)
	code, _, stderr = l.send(append(to, file)...)
	if code != exitOK {
		t.Fatalf("hoist send with %s: exit %d: %s", engine.CAFileEnv, code, stderr)
	}
	t.Setenv(engine.CAFileEnv, "")
	code, _, stderr = l.send(append(to, "--ca-file", ca, "--http2", "--chunk-size", "auto", file)...)
	if code != exitOK {
		t.Fatalf("hoist send --ca-file --http2: exit %d: %s", code, stderr)
	}
	bad := l.file("not-a-cert.pem", []byte("hello"))
	if code, _, stderr = l.send(append(to, "--ca-file", bad, file)...); code != exitUsage || !strings.Contains(stderr, "no PEM certificate") {
		t.Errorf("a file without certificates: exit %d, %q", code, stderr)
	}
}
