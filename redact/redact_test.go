package redact

import "testing"

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"getting a token: Sign in again", "getting a token: Sign in again"},
		{"token: abcdefghijklmnopqrstuvwxyz", "token: " + Mark},
		{`{"access_token": "short"}`, `{"access_token": "` + Mark + `"}`},
		{"code=4/0AbCdEf", "code=" + Mark},
		{"https://x/upload?upload_type=resumable&upload_id=ADPycdv", "https://x/upload?upload_type=resumable&upload_id=" + Mark},
		{"Authorization: Bearer ya29.a0AfB", "Authorization: " + Mark},
		{"key: AIzaSyD-1", "key: " + Mark},
		{"client_secret=GOCSPX-abc", "client_secret=" + Mark},
		{"the id_token: eyJhbGciOi.eyJzdWIi.sig", "the id_token: " + Mark},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
