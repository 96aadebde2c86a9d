package words

import (
	"slices"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// TestPreferredPerSystem checks each system's choice, whatever system runs it.
func TestPreferredPerSystem(t *testing.T) {
	apple := "(\n    \"fa-IR\",\n    \"en-US\"\n)\n"
	for _, tc := range []struct {
		name string
		goos string
		src  sources
		want []string
		code string
	}{
		{"linux LANG", "linux", sources{getenv: env(map[string]string{"LANG": "fa_IR.UTF-8"})}, []string{"fa_IR.UTF-8"}, "fa"},
		{"linux LC_ALL wins over LANG", "linux", sources{getenv: env(map[string]string{"LC_ALL": "he_IL.UTF-8", "LANG": "ar_EG.UTF-8"})}, []string{"he_IL.UTF-8"}, "he"},
		{"linux LC_MESSAGES over LANG", "linux", sources{getenv: env(map[string]string{"LC_MESSAGES": "ar_EG.UTF-8", "LANG": "en_US.UTF-8"})}, []string{"ar_EG.UTF-8"}, "ar"},
		{"linux LANGUAGE list first", "linux", sources{getenv: env(map[string]string{"LANGUAGE": "de:he", "LANG": "fa_IR.UTF-8"})}, []string{"de", "he", "fa_IR.UTF-8"}, "he"},
		{"linux LANGUAGE ignored under C", "linux", sources{getenv: env(map[string]string{"LANGUAGE": "fa", "LANG": "C"})}, []string{"C"}, "en"},
		{"linux nothing set", "linux", sources{getenv: env(nil)}, nil, "en"},
		{"windows UI languages", "windows", sources{getenv: env(map[string]string{"LANG": "en_US"}), windows: func() []string { return []string{"ar-SA", "en-US"} }}, []string{"ar-SA", "en-US"}, "ar"},
		{"windows without a list reads the environment", "windows", sources{getenv: env(map[string]string{"LANG": "he_IL"}), windows: func() []string { return nil }}, []string{"he_IL"}, "he"},
		{"macOS AppleLanguages", "darwin", sources{getenv: env(map[string]string{"LANG": "en_US.UTF-8"}), apple: func() string { return apple }}, []string{"fa-IR", "en-US"}, "fa"},
		{"macOS without AppleLanguages reads the environment", "darwin", sources{getenv: env(map[string]string{"LANG": "he_IL.UTF-8"}), apple: func() string { return "" }}, []string{"he_IL.UTF-8"}, "he"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := preferred(tc.goos, tc.src)
			if !slices.Equal(got, tc.want) {
				t.Errorf("preferred = %q, want %q", got, tc.want)
			}
			if l := Choose("", got); l.Code() != tc.code {
				t.Errorf("Choose = %s, want %s", l.Code(), tc.code)
			}
		})
	}
}

func TestChooseSetting(t *testing.T) {
	system := []string{"fa_IR.UTF-8"}
	for _, tc := range []struct{ setting, want string }{
		{"", "fa"},
		{SystemSetting, "fa"},
		{"he", "he"},
		{"en", "en"},
		{"ar", "ar"},
		{"xx", "fa"}, // a setting Hoist cannot speak follows the system
	} {
		if got := Choose(tc.setting, system).Code(); got != tc.want {
			t.Errorf("Choose(%q) = %s, want %s", tc.setting, got, tc.want)
		}
	}
	// Settings names a language, the system its region: the numbers follow the region.
	if got := Choose("", []string{"ar_MA.UTF-8"}).Size(1_500_000); got != "1,5 ميغابايت" {
		t.Errorf("ar_MA: Size = %q", got)
	}
}
