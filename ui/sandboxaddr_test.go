package ui

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"hoist/engine/emulator"
)

// openTestSession opens the window's session in fresh folders.
func openTestSession(t *testing.T) (*session, folders) {
	t.Helper()
	test.NewTempApp(t)
	f := folders{Config: t.TempDir(), Journal: t.TempDir(), Sandbox: t.TempDir()}
	log := slog.New(slog.DiscardHandler)
	s, err := openSession(context.Background(), Config{}, f, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.close(log) })
	return s, f
}

// freeLoopback is a loopback address nothing listens on now.
func freeLoopback(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestTheWindowsSandboxHonoursTheVariable: HOIST_SANDBOX_ADDR moves the
// window's sandbox, as it moves the command line's; the address is
// announced for the same user's `hoist send --to sandbox` and taken back
// when the window closes.
func TestTheWindowsSandboxHonoursTheVariable(t *testing.T) {
	addr := freeLoopback(t)
	t.Setenv(emulator.AddrEnv, addr)
	s, f := openTestSession(t)
	if s.sandbox.url != "http://"+addr {
		t.Fatalf("with %s=%s the window's sandbox is at %s", emulator.AddrEnv, addr, s.sandbox.url)
	}
	if got := emulator.Announced(f.Config); got != s.sandbox.url {
		t.Errorf("the window announced %q, want %q", got, s.sandbox.url)
	}
	s.close(slog.New(slog.DiscardHandler))
	s.withdraw, s.sandbox, s.queue, s.journal = nil, nil, nil, nil
	if got := emulator.Announced(f.Config); got != "" {
		t.Errorf("after the window closed its sandbox is still announced at %q", got)
	}
}

// TestTheWindowsSandboxIsTheUsersOwn: without the variable the window's
// sandbox takes the user's own port, not the 8765 every user's `hoist
// send --to sandbox` looks at, so another user's uploads never land in it.
func TestTheWindowsSandboxIsTheUsersOwn(t *testing.T) {
	t.Setenv(emulator.AddrEnv, "")
	want := "http://" + emulator.UserAddr()
	// Another window of this user (a smoke test) may hold the port a while.
	for try := 0; ; try++ {
		l, err := net.Listen("tcp", emulator.UserAddr())
		if err == nil {
			l.Close()
			break
		}
		if try == 200 {
			t.Fatalf("this user's sandbox port stays taken (%v); the test needs it free", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	s, f := openTestSession(t)
	if s.sandbox.url != want {
		t.Errorf("the window's sandbox is at %s, want this user's own %s", s.sandbox.url, want)
	}
	if strings.HasSuffix(s.sandbox.url, ":8765") {
		t.Error("the window's sandbox took the port every user's command line looks at")
	}
	if got := emulator.Announced(f.Config); got != s.sandbox.url {
		t.Errorf("the window announced %q, want %q", got, s.sandbox.url)
	}
}
