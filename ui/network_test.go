package ui

import (
	"context"
	"net"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"hoist/engine/proxy"
	"hoist/ui/settings"
)

// TestSettingsShowOfficeProxy: Settings say which proxy Hoist goes through
// and where its setting came from, or that it connects directly.
func TestSettingsShowOfficeProxy(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	shown := func() string {
		t.Helper()
		form := settings.NewSettingsPanel(settings.SettingsPanelSide{WindowFrame: h.d.frame, SettingsSide: h.d.settings}).Form
		for _, it := range form.Items {
			if it.Text == "Office network" {
				return it.Widget.(*widget.Label).Text
			}
		}
		t.Fatal("Settings show no office network")
		return ""
	}
	if got := shown(); !strings.Contains(got, "connects directly") {
		t.Errorf("no proxy: %q", got)
	}
	h.d.settings.Network = &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromWindows, Mode: proxy.Manual, HTTP: "proxy.corp:8080", HTTPS: "proxy.corp:8080"}}
	if got, want := shown(), "Hoist connects through the office proxy proxy.corp:8080 (from Windows settings)."; got != want {
		t.Errorf("fixed proxy: %q, want %q", got, want)
	}
	h.d.settings.Network = &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromGNOME, Mode: proxy.Script, PAC: "http://wpad.corp/proxy.pac"}}
	if got, want := shown(), "Hoist follows the proxy script http://wpad.corp/proxy.pac (from GNOME settings)."; got != want {
		t.Errorf("PAC: %q, want %q", got, want)
	}
	// "Automatically detect": said as such until detection has run, then
	// the script's address it found.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	detected := &proxy.Proxies{Setting: proxy.Setting{Origin: proxy.FromKDE, Mode: proxy.Script, Detect: true},
		Detector: proxy.Detector{DHCP: func(context.Context) (string, error) { return "http://" + closed + "/wpad.dat", nil }}}
	h.d.settings.Network = detected
	if got, want := shown(), "Hoist looks for the office's proxy script automatically (from KDE settings)."; got != want {
		t.Errorf("before detection: %q, want %q", got, want)
	}
	detected.InUse(context.Background(), "https://storage.googleapis.com/")
	if got, want := shown(), "Hoist follows the proxy script http://"+closed+"/wpad.dat (from KDE settings)."; !strings.HasPrefix(got, want) {
		t.Errorf("after detection: %q, want %q first", got, want)
	}
}
