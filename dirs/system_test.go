package dirs

import "testing"

func TestSystemIsTheFirstThatExists(t *testing.T) {
	none := func(string) bool { return false }
	tests := []struct {
		folders []string
		exists  func(string) bool
		want    string
	}{
		{[]string{"/opt/site/xdg/hoist", "/etc/xdg/hoist"}, none, "/opt/site/xdg/hoist"},
		{[]string{"/opt/site/xdg/hoist", "/etc/xdg/hoist"}, func(p string) bool { return p == "/etc/xdg/hoist" }, "/etc/xdg/hoist"},
		{nil, none, ""},
	}
	for _, tt := range tests {
		if got := firstExisting(tt.folders, tt.exists); got != tt.want {
			t.Errorf("%v: %q, want %q", tt.folders, got, tt.want)
		}
	}
	t.Setenv(SystemEnv, "/tmp/site")
	if got := System(); got != "/tmp/site" {
		t.Errorf("with %s set: %q", SystemEnv, got)
	}
}
