//go:build !windows

package proxy

import (
	"context"
	"errors"
	"strings"

	"github.com/godbus/dbus/v5"
)

// Where NetworkManager answers on the system's D-Bus.
const (
	nmService = "org.freedesktop.NetworkManager"
	nmPath    = "/org/freedesktop/NetworkManager"
)

// systemDHCP reads the DHCP lease's option 252 from NetworkManager.
func (d Detector) systemDHCP() (func(ctx context.Context) (string, error), string) {
	return func(ctx context.Context) (string, error) { return networkManagerWPAD(ctx, d.Bus) }, ByDHCP
}

// systemDomains: elsewhere than on Windows, resolv.conf and the host's
// name say the computer's domains.
func systemDomains() []string { return nil }

// networkManagerWPAD is the "wpad" option of the DHCP lease of
// NetworkManager's primary connection, else of its other active ones; ""
// when no lease names one, an error where NetworkManager does not answer
// (a computer without it: detection goes on with DNS).
func networkManagerWPAD(ctx context.Context, bus string) (string, error) {
	var conn *dbus.Conn
	var err error
	if bus == "" {
		conn, err = dbus.ConnectSystemBus(dbus.WithContext(ctx))
	} else {
		conn, err = dbus.Connect(bus, dbus.WithContext(ctx))
	}
	if err != nil {
		return "", err
	}
	defer conn.Close()
	get := func(path dbus.ObjectPath, iface, name string, into any) error {
		v, err := conn.Object(nmService, path).GetProperty(iface + "." + name)
		if err != nil {
			return err
		}
		return v.Store(into)
	}
	var primary dbus.ObjectPath
	var active []dbus.ObjectPath
	errPrimary := get(nmPath, nmService, "PrimaryConnection", &primary)
	errActive := get(nmPath, nmService, "ActiveConnections", &active)
	if errPrimary != nil && errActive != nil {
		return "", errPrimary // no NetworkManager on this bus
	}
	for _, c := range append([]dbus.ObjectPath{primary}, active...) {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if !c.IsValid() || c == "/" {
			continue
		}
		var dhcp dbus.ObjectPath
		if get(c, nmService+".Connection.Active", "Dhcp4Config", &dhcp) != nil || !dhcp.IsValid() || dhcp == "/" {
			continue
		}
		var options map[string]dbus.Variant
		if get(dhcp, nmService+".DHCP4Config", "Options", &options) != nil {
			continue
		}
		var wpad string
		if v, ok := options["wpad"]; ok && v.Store(&wpad) == nil {
			if wpad = strings.TrimRight(strings.TrimSpace(wpad), "\x00"); wpad != "" {
				return wpad, nil
			}
		}
	}
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	return "", errNoLease
}

var errNoLease = errors.New("no DHCP lease names a proxy script")
