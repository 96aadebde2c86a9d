package auth

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const (
	testAccess  = "ya29.a0AfB_byC-secretAccessToken_123"
	testRefresh = "1//0gSecretRefreshToken-abc_DEF"
	testSecret  = "GOCSPX-SecretClientSecret_xyz"
	testUpload  = "ADPycdvSecretUploadId-qwerty_123"
	testCode    = "4/0AeaYSHSecretAuthCode"
	testJWT     = "eyJhbGciOiJSUzI1NiJ9.eyJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSJ9.c2lnbmF0dXJl"
	plainToken  = "opaqueTokenWithoutPrefix42"
)

var testSecrets = []string{testAccess, testRefresh, testSecret, testUpload, testCode, testJWT, plainToken}

func TestRedact(t *testing.T) {
	tests := []struct {
		name string
		in   string
		keep []string // harmless words that must survive
	}{
		{"authorization header", "Authorization: Bearer " + testAccess, []string{"Authorization"}},
		{"bearer with an opaque token", "sent header Bearer " + plainToken + " to the API", []string{"to the API"}},
		{"access token alone", "token " + testAccess + " expired", []string{"expired"}},
		{"refresh token alone", "refresh with " + testRefresh + ".", []string{"refresh with"}},
		{"form body", "grant_type=refresh_token&refresh_token=" + plainToken + "&client_secret=" + plainToken + "&client_id=123.apps",
			[]string{"grant_type=refresh_token", "client_id=123.apps"}},
		{"JSON answer", `{"access_token": "` + plainToken + `", "token_type": "Bearer", "expires_in": 3599}`, []string{"expires_in"}},
		{"escaped JSON", `{\"refresh_token\":\"` + plainToken + `\"}`, nil},
		{"client secret by shape", "secret is " + testSecret, []string{"secret is"}},
		{"callback URL", "GET /?state=abc&code=" + testCode + "&scope=openid", []string{"state=abc", "scope=openid"}},
		{"session URI", `Put "https://www.googleapis.com/upload/gmail/v1/users/me/messages?uploadType=resumable&upload_id=` + testUpload + `": EOF`,
			[]string{"uploadType=resumable", "www.googleapis.com", "EOF"}},
		{"escaped session URI", "next=https%3A%2F%2Fx%3Fupload_id%3D" + testUpload, []string{"next="}},
		{"ID token", "id_token " + testJWT, nil},
		{"token parameter of revoke", "token=" + plainToken, nil},
		{"code challenge is harmless", "code_challenge=abc123&code_challenge_method=S256", []string{"code_challenge=abc123"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := Redact(tt.in)
			for _, s := range testSecrets {
				if strings.Contains(out, s) {
					t.Errorf("Redact(%q) = %q still has a secret", tt.in, out)
				}
			}
			if out != tt.in && !strings.Contains(out, redacted) {
				t.Errorf("Redact(%q) = %q, changed without marking it", tt.in, out)
			}
			for _, k := range tt.keep {
				if !strings.Contains(out, k) {
					t.Errorf("Redact(%q) = %q lost %q", tt.in, out, k)
				}
			}
			if again := Redact(out); again != out {
				t.Errorf("Redact is not stable: %q then %q", out, again)
			}
		})
	}
}

type secretValuer struct{}

func (secretValuer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("header", "Bearer "+testAccess), slog.Int("n", 3))
}

func TestRedactingHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(RedactingHandler(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	session, _ := url.Parse("https://www.googleapis.com/upload/x?uploadType=resumable&upload_id=" + testUpload)
	header := http.Header{"Authorization": {"Bearer " + plainToken}, "Content-Type": {"text/plain"}}

	log.Info("refreshing with "+testRefresh, "attempt", 2)
	log.With("session", session.String()).WithGroup("upload").Warn("chunk failed",
		slog.Any("error", fmt.Errorf("put %s: %w", session, errors.New("connection reset"))),
		slog.Group("request", slog.Any("header", header), slog.Group("deeper", slog.String("body", "refresh_token="+plainToken))),
		slog.String("authorization", "abc"),
		slog.String("SessionURI", "https://example.com/opaque"),
		slog.Any("valuer", secretValuer{}),
		slog.Any("url", session),
		slog.Any("bytes", []byte("client_secret="+plainToken)),
	)
	out := buf.String()
	for _, s := range append(testSecrets, "https://example.com/opaque") {
		if strings.Contains(out, s) {
			t.Errorf("log output has %q:\n%s", s, out)
		}
	}
	for _, keep := range []string{`"attempt":2`, "connection reset", "chunk failed", `"n":3`, "text/plain", `"upload":`} {
		if !strings.Contains(out, keep) {
			t.Errorf("log output lost %q:\n%s", keep, out)
		}
	}
	if RedactingHandler(RedactingHandler(slog.NewTextHandler(&buf, nil))).(*redactingHandler).inner == nil {
		t.Error("wrapping twice lost the inner handler")
	}
}
