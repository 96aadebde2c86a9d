package digits

import "testing"

func TestASCII(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"12", "12"},
		{"۱۲", "12"}, // Persian
		{"١٢", "12"}, // Arabic-Indic
		{"۱۲۳۴۵۶۷۸۹۰", "1234567890"},
		{"١٬٢٣٤", "1234"}, // Arabic thousands separator
		{"۱٫۵", "1.5"},    // Arabic decimal separator
		{"v۴", "v4"},
		{"abc", "abc"},
		{"", ""},
	} {
		if got := ASCII(tc.in); got != tc.want {
			t.Errorf("ASCII(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
