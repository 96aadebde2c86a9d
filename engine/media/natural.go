package media

import (
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// CompareNames orders file names as people count: "doc_2" before
// "doc_10", letters without regard to case, and numbers written in
// Western, Arabic-Indic or Persian digits by their value. Names equal
// that way are ordered by their bytes, so the order is total.
func CompareNames(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		ra, wa := utf8.DecodeRuneInString(a[i:])
		rb, wb := utf8.DecodeRuneInString(b[j:])
		if digitValue(ra) >= 0 && digitValue(rb) >= 0 {
			na, ea := number(a[i:])
			nb, eb := number(b[j:])
			if c := compareNumbers(na, nb); c != 0 {
				return c
			}
			i, j = i+ea, j+eb
			continue
		}
		if ra != rb {
			la, lb := unicode.ToLower(ra), unicode.ToLower(rb)
			if la != lb {
				if la < lb {
					return -1
				}
				return 1
			}
		}
		i, j = i+wa, j+wb
	}
	switch {
	case len(a)-i < len(b)-j:
		return -1
	case len(a)-i > len(b)-j:
		return 1
	}
	return strings.Compare(a, b)
}

// ComparePaths orders paths by their file names (CompareNames), then by
// their folders.
func ComparePaths(a, b string) int {
	if c := CompareNames(filepath.Base(a), filepath.Base(b)); c != 0 {
		return c
	}
	return CompareNames(a, b)
}

// digitValue is r's value as a decimal digit in the scripts Hoist speaks,
// or -1.
func digitValue(r rune) int {
	switch {
	case r >= '0' && r <= '9':
		return int(r - '0')
	case r >= '٠' && r <= '٩':
		return int(r - '٠')
	case r >= '۰' && r <= '۹':
		return int(r - '۰')
	}
	return -1
}

// number reads the run of digits s starts with: its digits as ASCII
// without leading zeros, and how many bytes it took.
func number(s string) (string, int) {
	var b strings.Builder
	n := 0
	for n < len(s) {
		r, w := utf8.DecodeRuneInString(s[n:])
		v := digitValue(r)
		if v < 0 {
			break
		}
		if v != 0 || b.Len() > 0 {
			b.WriteByte(byte('0' + v))
		}
		n += w
	}
	return b.String(), n
}

// compareNumbers compares two numbers written without leading zeros.
func compareNumbers(a, b string) int {
	if len(a) != len(b) {
		if len(a) < len(b) {
			return -1
		}
		return 1
	}
	return strings.Compare(a, b)
}
