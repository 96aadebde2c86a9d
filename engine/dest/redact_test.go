package dest

import "testing"

func TestRedact(t *testing.T) {
	tests := map[string]string{
		"see https://x.googleapis.com/upload/a?upload_id=abc&x=1#frag now": "see https://x.googleapis.com/upload/a now",
		"token=abc&key=def":                       "token=[redacted]&key=[redacted]",
		"Authorization: Bearer abc.def-ghi":       "Authorization: [redacted]",
		"refresh 1//0gABCdef and access ya29.xyz": "refresh [redacted] and access [redacted]",
		"nothing secret here":                     "nothing secret here",
	}
	for in, want := range tests {
		if got := Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
}
