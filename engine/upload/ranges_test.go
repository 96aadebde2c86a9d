package upload

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		next int64
		ok   bool
		bad  bool
	}{
		{"", 0, false, false},
		{"   ", 0, false, false},
		{"0-42", 43, true, false},
		{"bytes=0-42", 43, true, false},
		{"BYTES=0-0", 1, true, false},
		{" bytes=0-299999 ", 300000, true, false},
		{"bytes=0-9223372036854775806", math.MaxInt64, true, false},
		{"bytes=0-9223372036854775807", 0, false, true},
		{"bytes=1-42", 0, false, true},
		{"bytes=0-", 0, false, true},
		{"bytes=-42", 0, false, true},
		{"0-+42", 0, false, true},
		{"0-4a", 0, false, true},
		{"0-1,3-4", 0, false, true},
		{"bytes 0-42", 0, false, true},
		{"42", 0, false, true},
		{"<html>", 0, false, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			next, ok, err := ParseRange(tc.in)
			if next != tc.next || ok != tc.ok || (err != nil) != tc.bad {
				t.Errorf("ParseRange(%q) = %d, %v, %v", tc.in, next, ok, err)
			}
			if err != nil && !errors.Is(err, ErrBadResponse) {
				t.Errorf("error %v is not ErrBadResponse", err)
			}
		})
	}
	if FormatRange(0) != "" || FormatRange(43) != "bytes=0-42" {
		t.Errorf("FormatRange: %q %q", FormatRange(0), FormatRange(43))
	}
}

func TestContentRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ContentRange
		bad  bool
	}{
		{"bytes 0-99/100", ContentRange{0, 100, 100}, false},
		{"bytes 43-1999999/2000000", ContentRange{43, 1999957, 2000000}, false},
		{"bytes 0-262143/*", ContentRange{0, 262144, -1}, false},
		{"bytes */2000000", ContentRange{0, 0, 2000000}, false},
		{"bytes */0", ContentRange{0, 0, 0}, false},
		{"bytes */*", ContentRange{0, 0, -1}, false},
		{"bytes 5-4/10", ContentRange{}, true},
		{"bytes 0-10/10", ContentRange{}, true},
		{"bytes 0-9", ContentRange{}, true},
		{"bytes=0-9/10", ContentRange{}, true},
		{"0-9/10", ContentRange{}, true},
		{"bytes -1-9/10", ContentRange{}, true},
		{"bytes 0-9/x", ContentRange{}, true},
		{"bytes 0-9223372036854775807/*", ContentRange{}, true},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseContentRange(tc.in)
			if (err != nil) != tc.bad || got != tc.want {
				t.Fatalf("ParseContentRange(%q) = %+v, %v", tc.in, got, err)
			}
			if err == nil && got.String() != tc.in {
				t.Errorf("String() = %q, want %q", got.String(), tc.in)
			}
		})
	}
}

func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"", "0-42", "bytes=0-42", "bytes=1-2", "0-9223372036854775806", "bytes=0-1,2-3", " 0 - 1 "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		next, ok, err := ParseRange(h)
		switch {
		case err != nil:
			if ok || next != 0 || !errors.Is(err, ErrBadResponse) {
				t.Fatalf("ParseRange(%q) = %d, %v, %v", h, next, ok, err)
			}
		case !ok:
			if next != 0 || strings.TrimSpace(h) != "" {
				t.Fatalf("ParseRange(%q) = %d, not ok, no error", h, next)
			}
		default:
			if next < 1 {
				t.Fatalf("ParseRange(%q) = %d", h, next)
			}
			again, ok2, err2 := ParseRange(FormatRange(next))
			if again != next || !ok2 || err2 != nil {
				t.Fatalf("round trip of %d: %d, %v, %v", next, again, ok2, err2)
			}
		}
	})
}

func FuzzContentRange(f *testing.F) {
	for _, s := range []string{"bytes 0-99/100", "bytes */100", "bytes */*", "bytes 0-262143/*", "bytes 5-4/10", "bytes 0-9/x"} {
		f.Add(s, int64(0), int64(1), int64(1))
	}
	f.Add("", int64(43), int64(1999957), int64(2000000))
	f.Fuzz(func(t *testing.T, s string, first, length, total int64) {
		if c, err := ParseContentRange(s); err == nil {
			if c.Length < 0 || c.First < 0 || (c.Length == 0 && c.First != 0) || (c.Total >= 0 && c.Length > 0 && c.Last() >= c.Total) {
				t.Fatalf("ParseContentRange(%q) = %+v", s, c)
			}
			again, err := ParseContentRange(c.String())
			if err != nil || again != c {
				t.Fatalf("round trip of %+v via %q: %+v, %v", c, c.String(), again, err)
			}
		}
		// A range the uploader could send always parses back to itself.
		if first < 0 || length < 0 || total < -1 || first > math.MaxInt64-length || (total >= 0 && first+length > total) {
			return
		}
		c := ContentRange{First: first, Length: length, Total: total}
		if length == 0 {
			c.First = 0
		}
		if c.Length > 0 && c.Last() == math.MaxInt64 {
			return
		}
		got, err := ParseContentRange(c.String())
		if err != nil || got != c {
			t.Fatalf("%+v → %q → %+v, %v", c, c.String(), got, err)
		}
	})
}

func FuzzMultipart(f *testing.F) {
	f.Add([]byte(`{"name":"Llama"}`), []byte("picture bytes"), "image/jpeg")
	f.Add([]byte(""), []byte(""), "message/rfc822")
	f.Add([]byte("--hoist_\r\n--"), []byte("\r\n--\r\n"), "application/octet-stream")
	f.Add([]byte(`{}`), []byte{0, 1, 2, 255}, `text/plain; charset="utf-8"`)
	f.Fuzz(func(t *testing.T, meta, media []byte, mediaType string) {
		mediaType = strings.TrimSpace(mediaType) // as the uploader does
		if checkMediaType(mediaType) != nil {
			return
		}
		mp, err := newMultipart(meta, mediaType)
		if err != nil {
			t.Fatal(err)
		}
		pl := &payload{src: bytes.NewReader(media), n: int64(len(media)), head: mp.head, tail: mp.tail, obs: nopObserver{}}
		body, err := io.ReadAll(pl.open())
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(body)) != mp.size(int64(len(media))) || int64(len(body)) != pl.length() {
			t.Fatalf("body %d bytes, size says %d", len(body), mp.size(int64(len(media))))
		}
		mt, params, err := mime.ParseMediaType(mp.contentType)
		if err != nil || mt != "multipart/related" {
			t.Fatalf("content type %q: %v", mp.contentType, err)
		}
		if bytes.Contains(meta, []byte(params["boundary"])) {
			t.Fatal("boundary occurs in the metadata")
		}
		if bytes.Contains(media, []byte(params["boundary"])) {
			return // 216 random bits; a fuzzer will not find one
		}
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		var parts [][]byte
		var types []string
		for {
			p, err := r.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("part %d: %v", len(parts), err)
			}
			b, err := io.ReadAll(p)
			if err != nil {
				t.Fatalf("part %d: %v", len(parts), err)
			}
			parts = append(parts, b)
			types = append(types, p.Header.Get("Content-Type"))
		}
		if len(parts) != 2 || !bytes.Equal(parts[0], meta) || !bytes.Equal(parts[1], media) {
			t.Fatalf("parts %q, want %q and %q", parts, meta, media)
		}
		if types[0] != metadataType || types[1] != mediaType {
			t.Fatalf("part types %q", types)
		}
	})
}

func TestParseAPIError(t *testing.T) {
	for _, tc := range []struct {
		name        string
		ctype, body string
		want        APIError
		understood  bool
	}{
		{"google json", "application/json", `{"error":{"code":403,"message":"Insufficient Permission","errors":[{"reason":"insufficientPermissions"}],"status":"PERMISSION_DENIED"}}`,
			APIError{Status: 403, Code: 403, Reason: "insufficientPermissions", Message: "Insufficient Permission"}, true},
		{"status only", "application/json", `{"error":{"code":400,"message":"Bad","status":"INVALID_ARGUMENT"}}`,
			APIError{Status: 400, Code: 400, Reason: "INVALID_ARGUMENT", Message: "Bad"}, true},
		{"oauth style", "application/json", `{"error":"invalid_grant","error_description":"Token has been expired or revoked."}`,
			APIError{Status: 400, Reason: "invalid_grant", Message: "Token has been expired or revoked."}, true},
		{"plain text", "text/plain; charset=utf-8", "Failed to parse Content-Range header.\n",
			APIError{Status: 400, Message: "Failed to parse Content-Range header."}, true},
		{"empty", "", "", APIError{Status: 400}, true},
		{"html", "text/html", "<html><body>Error 400</body></html>", APIError{Status: 400}, false},
		{"html as text", "text/plain", "<!DOCTYPE html><p>x</p>", APIError{Status: 400}, false},
		{"broken json", "application/json", `{"error":`, APIError{Status: 400}, false},
		{"json without error", "application/json", `{"id":"1"}`, APIError{Status: 400}, false},
		{"long text", "text/plain", strings.Repeat("x", 400), APIError{Status: 400}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			h.Set("Content-Type", tc.ctype)
			status := tc.want.Status
			got, understood := parseAPIError(status, h, []byte(tc.body))
			got.Body = nil
			if fmt.Sprintf("%+v", *got) != fmt.Sprintf("%+v", tc.want) || understood != tc.understood {
				t.Errorf("got %+v %v, want %+v %v", *got, understood, tc.want, tc.understood)
			}
			if strings.Contains(got.Error(), "<") {
				t.Errorf("Error() shows markup: %q", got.Error())
			}
		})
	}
	long := fmt.Sprintf(`{"error":{"code":400,"message":%q}}`, strings.Repeat("word\n", 200))
	got, _ := parseAPIError(400, http.Header{}, []byte(long))
	if len([]rune(got.Message)) > maxMessage+1 || strings.Contains(got.Message, "\n") {
		t.Errorf("message not cleaned: %q", got.Message)
	}
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"canceled", fmt.Errorf("x: %w", context.Canceled), false},
		{"file changed", fmt.Errorf("%w: size", ErrFileChanged), false},
		{"foreign host", ErrForeignHost, false},
		{"answer lost", fmt.Errorf("%w: %w", ErrAnswerLost, io.ErrUnexpectedEOF), false},
		{"invalid", ErrInvalid, false},
		{"sign in again", fmt.Errorf("%w after 1 attempts: %w", ErrTooManyRetries, signInAgain{}), false},
		{"400", &APIError{Status: 400}, false},
		{"401", &APIError{Status: 401}, false},
		{"403", &APIError{Status: 403}, false},
		{"403 quota", &APIError{Status: 403, Reason: "quotaExceeded"}, false},
		{"403 rate limit", &APIError{Status: 403, Reason: "userRateLimitExceeded"}, true},
		{"404", &APIError{Status: 404}, true},
		{"408", &APIError{Status: 408}, true},
		{"429 exhausted", fmt.Errorf("%w (11): %w", ErrTooManyRetries, &APIError{Status: 429}), true},
		{"503", &APIError{Status: 503}, true},
		{"html 400", fmt.Errorf("%w: %w", ErrBadResponse, &APIError{Status: 400}), false},
		{"bad response", ErrBadResponse, true},
		{"stalled", ErrStalled, true},
		{"expired", ErrSessionExpired, true},
		{"too many", ErrTooManyRetries, true},
		{"unknown", errors.New("something"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Retryable(tc.err); got != tc.want {
				t.Errorf("Retryable(%v) = %v, want %v", tc.err, got, tc.want)
			}
		})
	}
}
