// Package testbus gives a test a private D-Bus session bus of its own (a
// real dbus-daemon, stopped when the test ends) and a stand-in for the
// desktop's tray on it. For tests only.
package testbus

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// Start runs a private session bus and returns its address. It fails the
// test when dbus-daemon is missing (package dbus).
func Start(t testing.TB) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Fatal("dbus-daemon is missing (apt-get install dbus): ", err)
	}
	addr := "unix:path=" + filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command(daemon, "--session", "--nofork", "--nopidfile", "--print-address=1", "--address="+addr)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon did not say its address: %v", err)
	}
	return strings.TrimSpace(line)
}

// Connect opens a connection to the bus at addr, closed when the test ends.
func Connect(t testing.TB, addr string) *dbus.Conn {
	t.Helper()
	conn, err := dbus.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Auth(nil); err != nil {
		t.Fatal(err)
	}
	if err := conn.Hello(); err != nil {
		t.Fatal(err)
	}
	return conn
}

// TrayWatcher is a stand-in for the desktop's StatusNotifierWatcher, the
// service that tray hosts (a panel's notification area) register with.
type TrayWatcher struct {
	props *prop.Properties
}

// WatcherName is the StatusNotifierWatcher's bus name and interface.
const WatcherName = "org.kde.StatusNotifierWatcher"

// StartTrayWatcher serves a StatusNotifierWatcher on the bus at addr,
// saying whether a host (a tray that shows icons) is registered.
func StartTrayWatcher(t testing.TB, addr string, hostRegistered bool) *TrayWatcher {
	t.Helper()
	conn := Connect(t, addr)
	props, err := prop.Export(conn, "/StatusNotifierWatcher", prop.Map{
		WatcherName: {
			"IsStatusNotifierHostRegistered": {Value: hostRegistered, Emit: prop.EmitTrue},
			"RegisteredStatusNotifierItems":  {Value: []string{}, Emit: prop.EmitTrue},
			"ProtocolVersion":                {Value: int32(0), Emit: prop.EmitTrue},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(WatcherName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("could not take the name %s: %v (%v)", WatcherName, err, reply)
	}
	return &TrayWatcher{props: props}
}

// SetHost says a host came (true) or went (false).
func (w *TrayWatcher) SetHost(registered bool) {
	w.props.SetMust(WatcherName, "IsStatusNotifierHostRegistered", registered)
}
