package media

import (
	"errors"
	"testing"
)

func TestFormatSize(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0 bytes"},
		{1, "1 byte"},
		{999, "999 bytes"},
		{1000, "1 KB"},
		{1536, "1.5 KB"},
		{999_499, "999 KB"},
		{999_999, "1 MB"},
		{22_000_000, "22 MB"},
		{22_499_999, "22 MB"},
		{15 << 20, "16 MB"},
		{1_200_000_000, "1.2 GB"},
		{1 << 30, "1.1 GB"},
		{9_960_000, "10 MB"},
		{3_000_000_000_000, "3 TB"},
		{-2048, "-2 KB"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			if got := FormatSize(tt.n); got != tt.want {
				t.Errorf("FormatSize(%d) = %q, want %q", tt.n, got, tt.want)
			}
		})
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"0", 0},
		{"1048576", 1 << 20},
		{"256KiB", 256 << 10},
		{"8MiB", 8 << 20},
		{"16MB", 16_000_000},
		{"1GiB", 1 << 30},
		{"1 GB", 1_000_000_000},
		{"8mib", 8 << 20},
		{"8M", 8 << 20},
		{"1.5GiB", 3 << 29},
		{"0.5KB", 500},
		{"  42 bytes ", 42},
		{"100B", 100},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if err != nil || got != tt.want {
				t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "MB", "-5MB", "5XB", "1.2.3MB", "9999999999999TiB", "ten", "."} {
		t.Run("bad "+bad, func(t *testing.T) {
			_, err := ParseSize(bad)
			if !errors.Is(err, ErrBadSize) {
				t.Fatalf("ParseSize(%q) err = %v, want ErrBadSize", bad, err)
			}
			if want := `media: "` + bad + `" is not a size`; err.Error() != want {
				t.Errorf("message = %q", err.Error())
			}
		})
	}
}

func TestParseSizePersianAndArabicDigits(t *testing.T) {
	for in, want := range map[string]int64{"۸MiB": 8 << 20, "١٦MB": 16_000_000, "۱٫۵KB": 1500} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
