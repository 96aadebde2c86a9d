package ui

import (
	"context"
	"log/slog"
	"net"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hoist/engine/emulator"
	"hoist/ui/received"
)

// openTestSession opens the window's session in fresh folders, its
// sandbox given a port of its own as this user's.
func openTestSession(t *testing.T) (*session, folders) {
	t.Helper()
	return openTestSessionAt(t, freeLoopback(t))
}

// openTestSessionAt is openTestSession with own as this user's sandbox address.
func openTestSessionAt(t *testing.T, own string) (*session, folders) {
	t.Helper()
	test.NewTempApp(t)
	f := folders{Config: t.TempDir(), Journal: t.TempDir(), Sandbox: t.TempDir(), OwnSandbox: own}
	log := slog.New(slog.DiscardHandler)
	s, err := openSession(context.Background(), Config{}, f, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(log) })
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
	if s.sandbox.Url != "http://"+addr {
		t.Fatalf("with %s=%s the window's sandbox is at %s", emulator.AddrEnv, addr, s.sandbox.Url)
	}
	if got := emulator.Announced(f.Config); got != s.sandbox.Url {
		t.Errorf("the window announced %q, want %q", got, s.sandbox.Url)
	}
	s.Close(slog.New(slog.DiscardHandler))
	s.withdraw, s.sandbox, s.queue, s.journal = nil, nil, nil, nil
	if got := emulator.Announced(f.Config); got != "" {
		t.Errorf("after the window closed its sandbox is still announced at %q", got)
	}
}

// TestTheWindowsSandboxIsTheUsersOwn: without the variable the window's
// sandbox takes the user's own port, not the 8765 every user's `hoist
// send --to sandbox` looks at, so another user's uploads never land in it.
// The test does not need this user's port free: a Hoist window the same
// user has open holds it (here, a listener stands for one), and the test's
// window is given a port of its own as the user's.
func TestTheWindowsSandboxIsTheUsersOwn(t *testing.T) {
	t.Setenv(emulator.AddrEnv, "")
	if l, err := net.Listen("tcp", emulator.UserAddr()); err == nil {
		t.Cleanup(func() { l.Close() }) // the user's open window
	}
	if got := received.SandboxAddr(func(string) string { return "" }, ""); got != emulator.UserAddr() {
		t.Errorf("the window's sandbox would listen at %s, want this user's own %s", got, emulator.UserAddr())
	}
	if strings.HasSuffix(emulator.UserAddr(), ":8765") {
		t.Error("this user's own port is the one every user's command line looks at")
	}
	own := freeLoopback(t)
	s, f := openTestSessionAt(t, own)
	if want := "http://" + own; s.sandbox.Url != want {
		t.Errorf("the window's sandbox is at %s, want this user's own %s", s.sandbox.Url, want)
	}
	if got := emulator.Announced(f.Config); got != s.sandbox.Url {
		t.Errorf("the window announced %q, want %q", got, s.sandbox.Url)
	}
}
