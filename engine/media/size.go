package media

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"hoist/digits"
)

// ErrBadSize is wrapped by ParseSize's errors.
var ErrBadSize = errors.New("not a size")

var decimalUnits = []string{"KB", "MB", "GB", "TB", "PB", "EB"}

// FormatSize writes a size the way file managers show it, in decimal units:
// "512 bytes", "1.5 KB", "22 MB", "1.2 GB".
func FormatSize(n int64) string {
	if n < 0 {
		return "-" + FormatSize(-n)
	}
	if n < 1000 {
		if n == 1 {
			return "1 byte"
		}
		return strconv.FormatInt(n, 10) + " bytes"
	}
	shown, unit := RoundSize(n)
	return strconv.FormatFloat(shown, 'f', -1, 64) + " " + unit
}

// RoundSize is a size of 1000 bytes or more as it is shown: the value,
// rounded to a tenth below 10 and to a whole number above, and its decimal
// unit (KB, MB, GB, TB, PB, EB). Smaller sizes are their byte count, unit "".
func RoundSize(n int64) (float64, string) {
	if n < 1000 {
		return float64(n), ""
	}
	v := float64(n)
	for _, unit := range decimalUnits {
		v /= 1000
		// Round as it will be shown, so 999,999 bytes reads "1 MB", not "1000 KB".
		shown := math.Round(v)
		if v < 10 {
			shown = math.Round(v*10) / 10
		}
		if shown < 1000 || unit == decimalUnits[len(decimalUnits)-1] {
			return shown, unit
		}
	}
	panic("unreachable")
}

// FormatBytes writes an exact byte count with thousands separators: "16,000,001 bytes".
func FormatBytes(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if n == 1 {
		return "1 byte"
	}
	return b.String() + " bytes"
}

var sizeUnits = map[string]int64{
	"": 1, "b": 1, "byte": 1, "bytes": 1,
	"k": 1 << 10, "ki": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mi": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gi": 1 << 30, "gib": 1 << 30, "gb": 1e9,
	"t": 1 << 40, "ti": 1 << 40, "tib": 1 << 40, "tb": 1e12,
}

// ParseSize reads a size such as "256KiB", "8MiB", "16MB", "1GiB", "1.5GB",
// "0" or a plain number of bytes. KiB, MiB, GiB and TiB are powers of 1024;
// KB, MB, GB and TB powers of 1000; a bare K, M, G or T counts as 1024-based.
// Case and spaces do not matter; fractions are rounded to whole bytes.
func ParseSize(s string) (int64, error) {
	bad := func() (int64, error) { return 0, badSize(s) }
	t := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(digits.ASCII(s)), " ", "")) // ۸MiB is 8MiB
	i := strings.IndexFunc(t, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	if i < 0 {
		i = len(t)
	}
	number, unit := t[:i], t[i:]
	mult, ok := sizeUnits[unit]
	if !ok || number == "" || number == "." {
		return bad()
	}
	if !strings.Contains(number, ".") {
		n, err := strconv.ParseInt(number, 10, 64)
		if err != nil || n > math.MaxInt64/mult {
			return bad()
		}
		return n * mult, nil
	}
	f, err := strconv.ParseFloat(number, 64)
	if err != nil {
		return bad()
	}
	v := math.Round(f * float64(mult))
	if v >= math.MaxInt64 {
		return bad()
	}
	return int64(v), nil
}

// badSize is a text that ParseSize cannot read; its message is a plain sentence.
type badSize string

func (b badSize) Error() string {
	return fmt.Sprintf("media: %q is not a size", string(b))
}

func (b badSize) Is(target error) bool { return target == ErrBadSize }
