// Package sessionbus points the libraries that talk to the desktop over
// D-Bus (the keychain, notifications, the tray, the file portal) at the
// session's own bus, and keeps them from starting one when there is none.
//
// Without an address in DBUS_SESSION_BUS_ADDRESS the D-Bus library runs
// dbus-launch, which starts a dbus-daemon that nobody stops: every start of
// Hoist outside a desktop session (a terminal over SSH, a minimal window
// manager, a service) would leave one behind. Settle, called once at start
// before anything connects, uses the session's bus where the system keeps
// it and otherwise says there is none, so nothing Hoist starts outlives it.
package sessionbus

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
)

// Variable is where the D-Bus libraries read the session bus's address.
const Variable = "DBUS_SESSION_BUS_ADDRESS"

// None is the address Settle sets when the session has no bus: no
// transport answers to it, so a connection fails at once instead of
// starting a bus.
const None = "disabled:"

// Settle makes sure the session bus's address is known before anything
// connects to it, and returns it (None when there is no bus).
// On Windows and macOS, where the D-Bus libraries start nothing, it does
// nothing and returns "".
func Settle() string {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return ""
	}
	addr := Address(os.Getenv, os.Getuid(), isSocket)
	if os.Getenv(Variable) != addr {
		_ = os.Setenv(Variable, addr)
	}
	return addr
}

// Address is the session bus's address: the one given, else the socket
// the system keeps in the user's runtime folder, else None. "autolaunch:",
// the address that asks for a bus to be started, counts as none given.
func Address(getenv func(string) string, uid int, socket func(string) bool) string {
	if a := getenv(Variable); a != "" && a != "autolaunch:" {
		return a
	}
	var places []string
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		places = append(places, filepath.Join(dir, "bus"))
	}
	places = append(places, filepath.Join("/run/user", strconv.Itoa(uid), "bus"))
	for _, p := range places {
		if socket(p) {
			return "unix:path=" + escape(p)
		}
	}
	return None
}

// isSocket is true when path is a Unix socket.
func isSocket(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&os.ModeSocket != 0
}

// escape writes a path as a D-Bus address value: bytes other than
// [-0-9A-Za-z_/.\*] as %XX.
func escape(s string) string {
	const hex = "0123456789abcdef"
	var b []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z',
			c == '-', c == '_', c == '/', c == '.', c == '\\', c == '*':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}
