package emulator

import (
	"encoding/base64"
	"encoding/binary"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hoist/engine/crc32c"
)

func crcOf(b []byte) string {
	var s [4]byte
	binary.BigEndian.PutUint32(s[:], crc32c.Checksum(b))
	return base64.StdEncoding.EncodeToString(s[:])
}

// Cloud Storage: a generation precondition that does not hold is refused
// with 412, a checksum the bytes do not match with 400, and objects.get
// gives the newest generation of a name.
func TestStoragePreconditionsAndChecksums(t *testing.T) {
	h := newHarness(t, Options{})
	const upload = "/upload/storage/v1/b/banners/o?uploadType=media&name=spring%2Fsale.png"
	a, b := payload(3000, 1), payload(4000, 2)
	resp, body := h.do(http.MethodPost, upload+"&ifGenerationMatch=0", hdr("Content-Type", "image/png", "X-Goog-Hash", "crc32c="+crcOf(a)), a)
	wantStatus(t, resp, body, http.StatusOK)
	gen := decode(t, body)["generation"].(string)

	resp, body = h.do(http.MethodPost, upload+"&ifGenerationMatch=0", hdr("Content-Type", "image/png"), b)
	wantError(t, resp, body, http.StatusPreconditionFailed, "pre-conditions you specified did not hold")
	resp, body = h.do(http.MethodPost, upload+"&ifGenerationMatch="+gen, hdr("Content-Type", "image/png", "X-Goog-Hash", "crc32c="+crcOf(a)), b)
	wantError(t, resp, body, http.StatusBadRequest, "doesn't match calculated CRC32C")
	resp, body = h.do(http.MethodPost, upload+"&ifGenerationMatch="+gen, hdr("Content-Type", "image/png"), b)
	wantStatus(t, resp, body, http.StatusOK)

	resp, body = h.do(http.MethodGet, "/storage/v1/b/banners/o/"+url.PathEscape("spring/sale.png"), nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if got := decode(t, body); got["size"] != "4000" || got["crc32c"] != crcOf(b) || got["md5Hash"] == "" {
		t.Errorf("objects.get answered %v, want the newest generation", got)
	}
	resp, body = h.do(http.MethodGet, "/storage/v1/b/banners/o/none.png", nil, nil)
	wantError(t, resp, body, http.StatusNotFound, "No such object")
}

// Drive's files.list finds a file by its appProperties; Gmail's lookups
// find an email by its Message-ID, and refuse q to a token that carries
// gmail.metadata alone.
func TestLookupsOfDriveAndGmail(t *testing.T) {
	h := newHarness(t, Options{RequireAuth: func(string) bool { return true }, TokenScopes: func(tok string) []string { return strings.Split(tok, ",") }})
	all := "Bearer https://www.googleapis.com/auth/drive.file,https://www.googleapis.com/auth/gmail.readonly"
	meta := hdr("Authorization", "Bearer https://www.googleapis.com/auth/gmail.metadata")
	resp, body := h.do(http.MethodPost, "/upload/drive/v3/files?uploadType=multipart&fields=id,name", hdr("Authorization", all,
		"Content-Type", "multipart/related; boundary=b"), multipartBody("b", [2]string{"Content-Type: application/json", `{"name":"a.txt","appProperties":{"hoistJob":"j1"}}`}, [2]string{"Content-Type: text/plain", "hello"}))
	wantStatus(t, resp, body, http.StatusOK)
	id := decode(t, body)["id"]
	q := url.Values{"q": {"appProperties has { key='hoistJob' and value='j1' } and trashed=false"}, "fields": {"files(id,name)"}}
	resp, body = h.do(http.MethodGet, "/drive/v3/files?"+q.Encode(), hdr("Authorization", all), nil)
	wantStatus(t, resp, body, http.StatusOK)
	if files := decode(t, body)["files"].([]any); len(files) != 1 || files[0].(map[string]any)["id"] != id {
		t.Errorf("files.list found %v, want %v", files, id)
	}
	q.Set("q", "appProperties has { key='hoistJob' and value='j2' }")
	resp, body = h.do(http.MethodGet, "/drive/v3/files?"+q.Encode(), hdr("Authorization", all), nil)
	if files := decode(t, body)["files"].([]any); resp.StatusCode != 200 || len(files) != 0 {
		t.Errorf("files.list for another job found %v", files)
	}

	mail := "From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\nMessage-ID: <m-1@example.com>\r\n\r\nbody\r\n"
	resp, body = h.do(http.MethodPost, "/upload/gmail/v1/users/me/messages?uploadType=media", hdr("Authorization", all, "Content-Type", "message/rfc822"), []byte(mail))
	wantStatus(t, resp, body, http.StatusOK)
	msg := decode(t, body)["id"]
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/messages?q="+url.QueryEscape("rfc822msgid:m-1@example.com"), hdr("Authorization", all), nil)
	if list := decode(t, body)["messages"].([]any); resp.StatusCode != 200 || len(list) != 1 || list[0].(map[string]any)["id"] != msg {
		t.Errorf("messages.list by rfc822msgid: %s", body)
	}
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/messages?q="+url.QueryEscape("rfc822msgid:m-1@example.com"), meta, nil)
	wantError(t, resp, body, http.StatusForbidden, "Metadata scope does not support 'q' parameter")
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/messages?maxResults=10", meta, nil)
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/messages/"+msg.(string)+"?format=metadata&metadataHeaders=Message-ID", meta, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if !strings.Contains(string(body), `"value":"\u003cm-1@example.com\u003e"`) && !strings.Contains(string(body), `"value":"<m-1@example.com>"`) {
		t.Errorf("messages.get does not give the Message-ID: %s", body)
	}
}
