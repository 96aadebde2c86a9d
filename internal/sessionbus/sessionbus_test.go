package sessionbus

import (
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/zalando/go-keyring"
)

// fakeLaunch puts a dbus-launch first on PATH that only notes it was run
// (and fails, so no bus starts); the returned function says whether it ran.
func fakeLaunch(t *testing.T) (ran func() bool) {
	t.Helper()
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "launched")
	script := "#!/bin/sh\ntouch '" + mark + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return func() bool {
		_, err := os.Stat(mark)
		return err == nil
	}
}

// TestNothingStartsABus: with no session bus, neither the keychain nor a
// connection to the session bus starts one (dbus-launch is never run), and
// the address says there is none. Without Settle the D-Bus library runs
// dbus-launch, whose dbus-daemon outlives Hoist.
func TestNothingStartsABus(t *testing.T) {
	ran := fakeLaunch(t)
	t.Setenv(Variable, "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := os.Stat(filepath.Join("/run/user", "0", "bus")); err == nil && os.Getuid() == 0 {
		t.Fatal("this machine has a session bus at /run/user/0/bus; the test needs one without")
	}

	if got := Settle(); got != None {
		t.Fatalf("Settle without a bus = %q, want %q", got, None)
	}
	if _, err := keyring.Get("hoist-sessionbus-test", "nobody"); err == nil {
		t.Error("the keychain answered without a bus")
	}
	if c, err := dbus.ConnectSessionBus(); err == nil {
		c.Close()
		t.Error("a session bus was reached where there is none")
	}
	if ran() {
		t.Fatal("dbus-launch was run: a dbus-daemon would outlive Hoist")
	}
}

// TestTheSessionsBusIsFound: the socket in the user's runtime folder is
// used when no address is given, and a given address is kept.
func TestTheSessionsBusIsFound(t *testing.T) {
	ran := fakeLaunch(t)
	run, err := os.MkdirTemp("", "bus")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(run)
	l, err := net.Listen("unix", filepath.Join(run, "bus"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	t.Setenv(Variable, "autolaunch:")
	t.Setenv("XDG_RUNTIME_DIR", run)
	want := "unix:path=" + escape(filepath.Join(run, "bus"))
	if got := Settle(); got != want || os.Getenv(Variable) != want {
		t.Fatalf("Settle = %q (variable %q), want %q", got, os.Getenv(Variable), want)
	}
	t.Setenv(Variable, "unix:path=/somewhere/else")
	if got := Settle(); got != "unix:path=/somewhere/else" {
		t.Errorf("a given address was replaced by %q", got)
	}
	if ran() {
		t.Error("dbus-launch was run")
	}
}

func TestEscape(t *testing.T) {
	if got := escape("/tmp/a b,c=é"); got != "/tmp/a%20b%2cc%3d%c3%a9" {
		t.Errorf("escape = %q", got)
	}
}
