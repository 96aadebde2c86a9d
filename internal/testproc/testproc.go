// Package testproc lets a test run its own test binary again as a second
// process that plays a part (holding a file, serving a socket), and read
// what that process reports, one line per event. Tests that need two
// processes — the upload list's file lock, the window's hand-over — share it.
package testproc

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Helper is another process running the test binary.
type Helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	lines *bufio.Scanner
}

// Start runs the test binary again, running no test, with env added to its
// environment: the package's TestMain sees there which part to play. The
// process is killed when the test ends.
func Start(t testing.TB, env ...string) *Helper {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe() // closed by Finish or when the process is killed
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &Helper{cmd: cmd, stdin: stdin, lines: bufio.NewScanner(stdout)}
	t.Cleanup(func() {
		_ = h.cmd.Process.Kill()
		_ = h.cmd.Wait()
	})
	return h
}

// Next returns the helper's next line; the test fails if the helper ended
// or reported a line starting with "error ".
func (h *Helper) Next(t testing.TB) string {
	t.Helper()
	if !h.lines.Scan() {
		t.Fatalf("the other process ended early: %v", h.lines.Err())
	}
	line := h.lines.Text()
	if strings.HasPrefix(line, "error ") {
		t.Fatalf("the other process: %s", line)
	}
	return line
}

// Expect fails the test unless the helper's next line is want.
func (h *Helper) Expect(t testing.TB, want string) {
	t.Helper()
	if got := h.Next(t); got != want {
		t.Fatalf("the other process said %q, want %q", got, want)
	}
}

// Finish closes the helper's stdin and waits for it to exit.
func (h *Helper) Finish(t testing.TB) {
	t.Helper()
	_ = h.stdin.Close()
	for h.lines.Scan() {
	}
	if err := h.cmd.Wait(); err != nil {
		t.Fatalf("the other process: %v", err)
	}
}

// Kill ends the helper abruptly (SIGKILL on Unix).
func (h *Helper) Kill(t testing.TB) {
	t.Helper()
	if err := h.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	for h.lines.Scan() {
	}
	_ = h.cmd.Wait()
}

// Ended returns a channel closed once the helper has exited by itself; the
// lines it has not reported yet are read and dropped.
func (h *Helper) Ended() <-chan struct{} {
	done := make(chan struct{})
	go func() {
		for h.lines.Scan() {
		}
		_ = h.cmd.Wait()
		close(done)
	}()
	return done
}
