package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// Gmail's users.getProfile gives the mailbox's historyId, and
// users.history.list the messages added after one (of a label), as Gmail's
// discovery document describes them; an id older than the history kept is
// refused with 404.
func TestGmailProfileAndHistory(t *testing.T) {
	h := newHarness(t, Options{RequireAuth: func(string) bool { return true }, TokenScopes: func(tok string) []string { return strings.Split(tok, ",") }})
	insert := hdr("Authorization", "Bearer https://www.googleapis.com/auth/gmail.insert", "Content-Type", "multipart/related; boundary=b")
	meta := hdr("Authorization", "Bearer https://www.googleapis.com/auth/gmail.metadata")
	put := func(msgid, label string) string {
		t.Helper()
		mail := "From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\nMessage-ID: <" + msgid + ">\r\n\r\nbody\r\n"
		resp, body := h.do(http.MethodPost, "/upload/gmail/v1/users/me/messages?uploadType=multipart", insert,
			multipartBody("b", [2]string{"Content-Type: application/json", `{"labelIds":["` + label + `"]}`}, [2]string{"Content-Type: message/rfc822", mail}))
		wantStatus(t, resp, body, http.StatusOK)
		return decode(t, body)["id"].(string)
	}
	profile := func() string {
		t.Helper()
		resp, body := h.do(http.MethodGet, "/gmail/v1/users/me/profile", meta, nil)
		wantStatus(t, resp, body, http.StatusOK)
		return decode(t, body)["historyId"].(string)
	}
	resp, body := h.do(http.MethodGet, "/gmail/v1/users/me/profile", hdr("Authorization", "Bearer https://www.googleapis.com/auth/gmail.insert"), nil)
	wantError(t, resp, body, http.StatusForbidden, "insufficient authentication scopes")

	put("old@example.com", "INBOX")
	before := profile()
	inbox := put("new@example.com", "INBOX")
	put("other@example.com", "Label_1")
	if after := profile(); after <= before || len(after) != len(before) {
		t.Fatalf("historyId went from %s to %s", before, after)
	}
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/history?historyTypes=messageAdded&labelId=INBOX&startHistoryId="+before, meta, nil)
	wantStatus(t, resp, body, http.StatusOK)
	hist := decode(t, body)["history"].([]any)
	if len(hist) != 1 {
		t.Fatalf("history after %s in INBOX: %s", before, body)
	}
	added := hist[0].(map[string]any)["messagesAdded"].([]any)[0].(map[string]any)["message"].(map[string]any)
	if added["id"] != inbox {
		t.Errorf("history names %v, want %s", added, inbox)
	}
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/history?startHistoryId="+before, meta, nil)
	if hist := decode(t, body)["history"].([]any); resp.StatusCode != 200 || len(hist) != 2 {
		t.Errorf("history after %s: %s", before, body)
	}
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/history?startHistoryId=12", meta, nil)
	wantError(t, resp, body, http.StatusNotFound, "not found")
	resp, body = h.do(http.MethodGet, "/gmail/v1/users/me/history?historyTypes=messageMoved&startHistoryId="+before, meta, nil)
	wantStatus(t, resp, body, http.StatusBadRequest)
}

// users.messages.send keeps a Message-ID written <left@right>, and gives
// an email without one (or with one it cannot use) a Message-ID of its own,
// as Gmail does.
func TestGmailSendGivesItsOwnMessageID(t *testing.T) {
	h := newHarness(t, Options{})
	for _, tc := range []struct{ header, want string }{
		{"Message-ID: <m-1@example.com>\r\n", "m-1@example.com"},
		{"Message-ID: m-2\r\n", ""},
		{"", ""},
	} {
		mail := "From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\n" + tc.header + "\r\nbody\r\n"
		resp, body := h.do(http.MethodPost, "/upload/gmail/v1/users/me/messages/send?uploadType=media", hdr("Content-Type", "message/rfc822"), []byte(mail))
		wantStatus(t, resp, body, http.StatusOK)
		id := decode(t, body)["id"].(string)
		o, _ := h.srv.store.Object(id)
		switch {
		case tc.want != "" && o.MessageID != tc.want:
			t.Errorf("%q sent as %q, want it kept", tc.header, o.MessageID)
		case tc.want == "" && !strings.HasSuffix(o.MessageID, "@mail.gmail.com"):
			t.Errorf("%q sent as %q, want Gmail's own", tc.header, o.MessageID)
		}
	}
}
