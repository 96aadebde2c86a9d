package locale

import "testing"

func TestPreferred(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"LANG": "C.UTF-8"}, "en"},
		{map[string]string{"LC_ALL": "POSIX.utf8", "LANG": "fa_IR.UTF-8"}, "en"},
		{map[string]string{"LC_MESSAGES": "C.UTF-8"}, "en"},
		{map[string]string{"LANG": "C"}, ""}, // read as "no language" already
		{map[string]string{"LANG": "he_IL.UTF-8"}, ""},
		{map[string]string{"LC_ALL": "ar_EG.UTF-8", "LANG": "C.UTF-8"}, ""},
		{map[string]string{"LANG": "C.UTF-8", "LANGUAGE": "fa"}, ""},
		{map[string]string{}, ""},
	} {
		got, ok := Preferred(func(k string) string { return tc.env[k] })
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%v: Preferred = %q, %v; want %q", tc.env, got, ok, tc.want)
		}
	}
}
