package engine

import "testing"

func TestSystemConfigDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	none := func(string) bool { return false }
	tests := []struct {
		goos   string
		env    map[string]string
		exists func(string) bool
		want   string
	}{
		{"linux", nil, none, "/etc/xdg/hoist"},
		{"linux", map[string]string{"XDG_CONFIG_DIRS": "/opt/site/xdg:/etc/xdg"}, none, "/opt/site/xdg/hoist"},
		{"linux", map[string]string{"XDG_CONFIG_DIRS": "relative:/opt/site/xdg:/etc/xdg"},
			func(p string) bool { return p == "/etc/xdg/hoist" }, "/etc/xdg/hoist"},
		{"windows", map[string]string{"ProgramData": `D:\Data`}, none, `D:\Data\Hoist`},
		{"windows", nil, none, `C:\ProgramData\Hoist`},
		{"darwin", nil, none, "/Library/Application Support/Hoist"},
	}
	for _, tt := range tests {
		if got := systemConfigDir(tt.goos, env(tt.env), tt.exists); got != tt.want {
			t.Errorf("%s %v: %q, want %q", tt.goos, tt.env, got, tt.want)
		}
	}
	t.Setenv(SystemConfigEnv, "/tmp/site")
	if got := SystemConfigDir(); got != "/tmp/site" {
		t.Errorf("with %s set: %q", SystemConfigEnv, got)
	}
}
