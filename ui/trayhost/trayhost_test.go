package trayhost

import (
	"context"
	"testing"

	"hoist/internal/testbus"
)

// TestATrayIsShownOnlyWhenAHostAnswers, on a real private session bus:
// with no watcher there is no tray; with a watcher but no host (a desktop
// whose panel shows no tray icons) there is none either; once a host
// registers there is one, and when it goes there is none again.
func TestATrayIsShownOnlyWhenAHostAnswers(t *testing.T) {
	ctx := context.Background()
	bus := testbus.Start(t)
	if ShownOn(ctx, bus) {
		t.Fatal("a tray was found on a bus with no StatusNotifierWatcher")
	}
	w := testbus.StartTrayWatcher(t, bus, false)
	if ShownOn(ctx, bus) {
		t.Fatal("a tray was found though no host is registered")
	}
	w.SetHost(true)
	if !ShownOn(ctx, bus) {
		t.Fatal("no tray was found though a host is registered")
	}
	w.SetHost(false)
	if ShownOn(ctx, bus) {
		t.Fatal("the tray is still found after its host went")
	}
}

// TestNoBusNoTray: without a session bus there is no tray, and Shown
// answers at once.
func TestNoBusNoTray(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:")
	if Shown(context.Background()) {
		t.Fatal("a tray was found without a session bus")
	}
	if ShownOn(context.Background(), "unix:path=/nonexistent/bus") {
		t.Fatal("a tray was found on a bus that is not there")
	}
}

// TestShownReadsTheSessionBus: Shown asks the session's own bus.
func TestShownReadsTheSessionBus(t *testing.T) {
	bus := testbus.Start(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	if Shown(context.Background()) {
		t.Fatal("a tray was found with no host")
	}
	testbus.StartTrayWatcher(t, bus, true)
	if !Shown(context.Background()) {
		t.Fatal("the session's tray host was not found")
	}
}
