//go:build linux

package auth

import (
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"

	"hoist/internal/testbus"
)

// portal imitates xdg-desktop-portal's OpenURI on a bus of the test's own.
type portal struct{ opened chan string }

func (p portal) OpenURI(parent, uri string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	p.opened <- uri
	return "/org/freedesktop/portal/desktop/request/1_1/hoist", nil
}

// TestBrowserWithoutXdgOpen: where xdg-utils is not installed, the sign-in
// page opens through the desktop's portal.
func TestBrowserWithoutXdgOpen(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", testbus.Start(t))
	t.Setenv("DISPLAY", ":99")
	t.Setenv("PATH", t.TempDir()) // no xdg-open anywhere

	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	p := portal{opened: make(chan string, 1)}
	if err := conn.Export(p, "/org/freedesktop/portal/desktop", "org.freedesktop.portal.OpenURI"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName("org.freedesktop.portal.Desktop", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("taking the portal's name: %v %v", reply, err)
	}

	const page = "https://accounts.google.com/o/oauth2/v2/auth?client_id=x"
	if err := OpenSystemBrowser(page); err != nil {
		t.Fatalf("OpenSystemBrowser without xdg-open: %v", err)
	}
	if got := <-p.opened; got != page {
		t.Errorf("the portal was asked to open %q, want %q", got, page)
	}

	// Without the portal either, it says so.
	conn.ReleaseName("org.freedesktop.portal.Desktop")
	if err := OpenSystemBrowser(page); err == nil || !strings.Contains(err.Error(), "portal") {
		t.Errorf("OpenSystemBrowser with neither = %v", err)
	}
}
