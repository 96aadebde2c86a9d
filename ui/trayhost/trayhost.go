// Package trayhost says whether the desktop would really show an icon in
// its system tray. Windows and macOS always have one. On Linux and the
// BSDs an application's tray icon (a StatusNotifierItem) is shown only when
// a tray host, such as a panel's notification area, is registered with the
// session's StatusNotifierWatcher on D-Bus; many desktops (GNOME without an
// extension, minimal window managers) have none, and an icon set there is
// never seen. Hiding a window "to the tray" there would lose it.
//
// It imports no Fyne and nothing of Hoist's.
package trayhost

import (
	"context"
	"runtime"
	"time"

	"github.com/godbus/dbus/v5"
)

// askWithin bounds the whole question; a bus that does not answer by then
// counts as no tray.
const askWithin = time.Second

// watchers are the names the StatusNotifierWatcher is found under (KDE's
// name, which every implementation uses, and the freedesktop one).
var watchers = []string{"org.kde.StatusNotifierWatcher", "org.freedesktop.StatusNotifierWatcher"}

// Shown reports whether a tray icon set now would be shown.
func Shown(ctx context.Context) bool {
	switch runtime.GOOS {
	case "windows", "darwin":
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, askWithin)
	defer cancel()
	conn, err := dbus.SessionBusPrivateNoAutoStartup(dbus.WithContext(ctx))
	if err != nil {
		return false
	}
	return hostOn(ctx, conn)
}

// ShownOn reports whether a StatusNotifier host is registered on the bus
// at address.
func ShownOn(ctx context.Context, address string) bool {
	ctx, cancel := context.WithTimeout(ctx, askWithin)
	defer cancel()
	conn, err := dbus.Dial(address, dbus.WithContext(ctx))
	if err != nil {
		return false
	}
	return hostOn(ctx, conn)
}

// hostOn asks the watcher on conn (and closes conn) whether a host is
// registered. Nothing is started to answer: a watcher that is not running
// is not activated.
func hostOn(ctx context.Context, conn *dbus.Conn) bool {
	defer conn.Close()
	if err := conn.Auth(nil); err != nil {
		return false
	}
	if err := conn.Hello(); err != nil {
		return false
	}
	for _, name := range watchers {
		var registered dbus.Variant
		call := conn.Object(name, "/StatusNotifierWatcher").CallWithContext(ctx,
			"org.freedesktop.DBus.Properties.Get", dbus.FlagNoAutoStart, name, "IsStatusNotifierHostRegistered")
		if call.Err != nil || call.Store(&registered) != nil {
			continue
		}
		if yes, ok := registered.Value().(bool); ok && yes {
			return true
		}
	}
	return false
}
