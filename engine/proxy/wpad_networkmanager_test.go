//go:build !windows

package proxy

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// TestWPADFromNetworkManager: NetworkManager on a D-Bus of the test's own
// keeps the DHCP lease whose option 252 names the script; the primary
// connection's lease is read first. Without NetworkManager on the bus,
// detection goes on with DNS.
func TestWPADFromNetworkManager(t *testing.T) {
	bus := privateBus(t)
	d, l := detector(t, "host.corp.example.test", "", "wpad.corp.example.test")
	d.DHCP, d.Bus = nil, bus
	if got, err := d.Detect(context.Background()); err != nil || got.How != ByDNS {
		t.Fatalf("no NetworkManager: %+v, %v", got, err)
	}

	conn, err := dbus.Connect(bus)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	export := func(path dbus.ObjectPath, iface string, values map[string]any) {
		t.Helper()
		m := map[string]*prop.Prop{}
		for k, v := range values {
			m[k] = &prop.Prop{Value: v, Emit: prop.EmitFalse}
		}
		if _, err := prop.Export(conn, path, prop.Map{iface: m}); err != nil {
			t.Fatal(err)
		}
	}
	lease := func(wpad string) map[string]any {
		opts := map[string]dbus.Variant{"ip_address": dbus.MakeVariant("192.0.2.7")}
		if wpad != "" {
			opts["wpad"] = dbus.MakeVariant(wpad)
		}
		return map[string]any{"Options": opts}
	}
	export(nmPath, nmService, map[string]any{
		"PrimaryConnection": dbus.ObjectPath("/org/freedesktop/NetworkManager/ActiveConnection/2"),
		"ActiveConnections": []dbus.ObjectPath{"/org/freedesktop/NetworkManager/ActiveConnection/1", "/org/freedesktop/NetworkManager/ActiveConnection/2"},
	})
	export("/org/freedesktop/NetworkManager/ActiveConnection/1", nmService+".Connection.Active", map[string]any{"Dhcp4Config": dbus.ObjectPath("/org/freedesktop/NetworkManager/DHCP4Config/1")})
	export("/org/freedesktop/NetworkManager/ActiveConnection/2", nmService+".Connection.Active", map[string]any{"Dhcp4Config": dbus.ObjectPath("/org/freedesktop/NetworkManager/DHCP4Config/2")})
	export("/org/freedesktop/NetworkManager/DHCP4Config/1", nmService+".DHCP4Config", lease("http://other.example.test/other.pac"))
	export("/org/freedesktop/NetworkManager/DHCP4Config/2", nmService+".DHCP4Config", lease("http://pac.corp.example.test/proxy.pac"))
	if reply, err := conn.RequestName(nmService, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("could not stand in for NetworkManager: %v, %v", reply, err)
	}
	before := len(l.names())
	got, err := d.Detect(context.Background())
	if err != nil || got.Address != "http://pac.corp.example.test/proxy.pac" || got.How != ByDHCP || len(l.names()) != before {
		t.Fatalf("Detect = %+v, %v; looked up %v", got, err, l.names()[before:])
	}
}

// privateBus starts a D-Bus daemon of the test's own and returns its address.
func privateBus(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Fatalf("dbus-daemon is needed (make deps): %v", err)
	}
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--print-address")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(addr)
}
