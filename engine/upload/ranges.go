package upload

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseRange reads the Range header of a 308 answer, which says what the
// server has persisted: "0-42" or Google's "bytes=0-42" both mean bytes 0
// to 42, so next is 43, the first byte to send. An empty header means
// nothing is persisted (next 0, ok false). Anything else — several ranges, a
// range not starting at 0, signs, overflow — is an error wrapping
// ErrBadResponse.
func ParseRange(h string) (next int64, ok bool, err error) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false, nil
	}
	spec := h
	if len(spec) >= 6 && strings.EqualFold(spec[:6], "bytes=") {
		spec = strings.TrimSpace(spec[6:])
	}
	first, last, found := strings.Cut(spec, "-")
	if !found {
		return 0, false, badRange("it is not a range")
	}
	f, err1 := parseDigits(strings.TrimSpace(first))
	l, err2 := parseDigits(strings.TrimSpace(last))
	switch {
	case err1 != nil || err2 != nil:
		return 0, false, badRange("it is not a range")
	case f != 0:
		return 0, false, badRange("it does not start at byte 0")
	case l == math.MaxInt64:
		return 0, false, badRange("it is too large")
	}
	return l + 1, true, nil
}

// FormatRange is the Range header a server sends for next persisted bytes,
// in Google's form; "" when nothing is persisted.
func FormatRange(next int64) string {
	if next <= 0 {
		return ""
	}
	return fmt.Sprintf("bytes=0-%d", next-1)
}

func badRange(why string) error {
	return fmt.Errorf("%w: the Range header could not be used: %s", ErrBadResponse, why)
}

// errNotDigits is the cause of a malformed number in a range header.
var errNotDigits = errors.New("not a decimal number")

// parseDigits accepts only ASCII decimal digits: no sign, no spaces.
func parseDigits(s string) (int64, error) {
	if s == "" || len(s) > 19 {
		return 0, errNotDigits
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, errNotDigits
		}
	}
	return strconv.ParseInt(s, 10, 64)
}

// ContentRange is the Content-Range header of a request to a session:
// "bytes FIRST-LAST/TOTAL" for bytes, "bytes */TOTAL" for none (a status
// query, or the only request of an empty file). TOTAL is "*" while unknown.
type ContentRange struct {
	First  int64 // offset of the first byte in the request; 0 when Length is 0
	Length int64 // bytes in the request
	Total  int64 // size of the whole file; -1 when unknown
}

// Last is the offset of the last byte in the request.
func (c ContentRange) Last() int64 { return c.First + c.Length - 1 }

func (c ContentRange) String() string {
	total := "*"
	if c.Total >= 0 {
		total = strconv.FormatInt(c.Total, 10)
	}
	if c.Length <= 0 {
		return "bytes */" + total
	}
	return fmt.Sprintf("bytes %d-%d/%s", c.First, c.Last(), total)
}

// ParseContentRange reads a Content-Range request header.
func ParseContentRange(s string) (ContentRange, error) {
	bad := func(why string) (ContentRange, error) {
		return ContentRange{}, fmt.Errorf("malformed Content-Range: %s", why)
	}
	s = strings.TrimSpace(s)
	if len(s) < 6 || !strings.EqualFold(s[:6], "bytes ") {
		return bad("it does not start with \"bytes \"")
	}
	spec, total, found := strings.Cut(strings.TrimSpace(s[6:]), "/")
	if !found {
		return bad("no total")
	}
	c := ContentRange{Total: -1}
	if total != "*" {
		t, err := parseDigits(total)
		if err != nil {
			return bad("the total is not a number")
		}
		c.Total = t
	}
	if spec == "*" {
		return c, nil
	}
	first, last, found := strings.Cut(spec, "-")
	if !found {
		return bad("no range")
	}
	f, err1 := parseDigits(first)
	l, err2 := parseDigits(last)
	switch {
	case err1 != nil || err2 != nil:
		return bad("the range is not numbers")
	case l < f:
		return bad("the range ends before it starts")
	case l == math.MaxInt64:
		return bad("the range is too large")
	case c.Total >= 0 && l >= c.Total:
		return bad("the range goes past the total")
	}
	c.First, c.Length = f, l-f+1
	return c, nil
}
