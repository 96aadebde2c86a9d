package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func pngBytes(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(1, 1, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

const (
	gmailMe = "/upload/gmail/v1/users/me"
	eml     = "From: Amira <amira@example.com>\r\nTo: office@example.com\r\nSubject: =?UTF-8?B?2YHYp9iq2YjYsdip?=\r\nDate: Sat, 1 Mar 2025 10:00:00 +0000\r\n\r\nHello.\r\n"
)

var gmailID = regexp.MustCompile(`^[0-9a-f]{16}$`)

// upload sends a file to path in one request: media without metadata, multipart with it.
func (h *harness) upload(method, path, contentType string, meta string, data []byte) (*http.Response, []byte) {
	h.t.Helper()
	if meta == "" {
		return h.do(method, withQuery(path, "uploadType", "media"), hdr("Content-Type", contentType), data)
	}
	body := multipartBody("foo_bar_baz", [2]string{"Content-Type: application/json; charset=UTF-8", meta},
		[2]string{"Content-Type: " + contentType, string(data)})
	return h.do(method, withQuery(path, "uploadType", "multipart"), hdr("Content-Type", "multipart/related; boundary=foo_bar_baz"), body)
}

// uploadResumable sends a file through a session in one PUT.
func (h *harness) uploadResumable(method, path, contentType, meta string, data []byte) (*http.Response, []byte) {
	h.t.Helper()
	session := h.start(method, withQuery(path, "uploadType", "resumable"),
		hdr("X-Upload-Content-Type", contentType, "X-Upload-Content-Length", fmt.Sprint(len(data))), meta)
	return h.do(http.MethodPut, session, nil, data)
}

func TestGmailMessages(t *testing.T) {
	h := newHarness(t, Options{})
	t.Run("insert, media", func(t *testing.T) {
		resp, body := h.upload(http.MethodPost, gmailMe+"/messages", "message/rfc822", "", []byte(eml))
		wantStatus(t, resp, body, http.StatusOK)
		m := decode(t, body)
		id, _ := m["id"].(string)
		if !gmailID.MatchString(id) || m["threadId"] != id || m["labelIds"] != nil {
			t.Fatalf("answer = %s", body)
		}
		obj, ok := h.srv.Object(id)
		if !ok || obj.Kind != KindGmail || obj.Action != "gmail.users.messages.insert" || obj.Name != "فاتورة" || obj.SHA256 != sha([]byte(eml)) {
			t.Fatalf("object = %+v", obj)
		}
	})
	t.Run("insert, multipart with labels and thread", func(t *testing.T) {
		resp, body := h.upload(http.MethodPost, withQuery(gmailMe+"/messages", "internalDateSource", "dateHeader", "deleted", "false"),
			"message/rfc822", `{"labelIds":["INBOX","UNREAD","Label_12"],"threadId":"18c2f0b9a1d3e4f5"}`, []byte(eml))
		wantStatus(t, resp, body, http.StatusOK)
		m := decode(t, body)
		if m["threadId"] != "18c2f0b9a1d3e4f5" || fmt.Sprint(m["labelIds"]) != "[INBOX UNREAD Label_12]" {
			t.Fatalf("answer = %s", body)
		}
	})
	t.Run("import, resumable", func(t *testing.T) {
		resp, body := h.uploadResumable(http.MethodPost, withQuery(gmailMe+"/messages/import", "neverMarkSpam", "true", "processForCalendar", "false"),
			"message/rfc822", `{"labelIds":["INBOX"]}`, []byte(eml))
		wantStatus(t, resp, body, http.StatusCreated)
		if m := decode(t, body); !gmailID.MatchString(m["id"].(string)) || fmt.Sprint(m["labelIds"]) != "[INBOX]" {
			t.Fatalf("answer = %s", body)
		}
	})
	t.Run("send", func(t *testing.T) {
		resp, body := h.upload(http.MethodPost, gmailMe+"/messages/send", "message/rfc822", "", []byte(eml))
		wantStatus(t, resp, body, http.StatusOK)
		if m := decode(t, body); fmt.Sprint(m["labelIds"]) != "[SENT]" {
			t.Fatalf("answer = %s", body)
		}
	})
	t.Run("subjects in the charsets of older mail programs", func(t *testing.T) {
		for file, want := range map[string]string{
			"arabic-windows-1256.eml": "فاتورة شهر مارس",
			"דוח שנתי.eml":            "דוח שנתי 2025",
		} {
			data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "eml", file))
			if err != nil {
				t.Fatal(err)
			}
			resp, body := h.upload(http.MethodPost, gmailMe+"/messages", "message/rfc822", "", data)
			wantStatus(t, resp, body, http.StatusOK)
			id, _ := decode(t, body)["id"].(string)
			if obj, ok := h.srv.Object(id); !ok || obj.Name != want {
				t.Errorf("%s: object named %q, want %q", file, obj.Name, want)
			}
		}
	})
	t.Run("user given by address", func(t *testing.T) {
		resp, body := h.upload(http.MethodPost, "/upload/gmail/v1/users/amira%40example.com/messages", "message/rfc822", "", []byte(eml))
		wantStatus(t, resp, body, http.StatusOK)
	})
}

func TestGmailDrafts(t *testing.T) {
	h := newHarness(t, Options{})
	resp, body := h.upload(http.MethodPost, gmailMe+"/drafts", "message/rfc822", `{"message":{"threadId":"t1"}}`, []byte(eml))
	wantStatus(t, resp, body, http.StatusOK)
	var draft struct {
		ID      string `json:"id"`
		Message struct {
			ID       string   `json:"id"`
			ThreadID string   `json:"threadId"`
			LabelIDs []string `json:"labelIds"`
		} `json:"message"`
	}
	decodeInto(t, body, &draft)
	if !strings.HasPrefix(draft.ID, "r") || !gmailID.MatchString(draft.Message.ID) || draft.Message.ThreadID != "t1" || fmt.Sprint(draft.Message.LabelIDs) != "[DRAFT]" {
		t.Fatalf("draft = %s", body)
	}

	resp, body = h.uploadResumable(http.MethodPut, gmailMe+"/drafts/"+draft.ID, "message/rfc822", "", []byte(eml+"P.S.\r\n"))
	wantStatus(t, resp, body, http.StatusOK) // a session started with PUT ends 200
	first := draft
	decodeInto(t, body, &draft)
	if draft.ID != first.ID || draft.Message.ID == first.Message.ID {
		t.Fatalf("updated draft = %s", body)
	}
	obj, _ := h.srv.Object(draft.Message.ID)
	if obj.Draft != first.ID || obj.Action != "gmail.users.drafts.update" {
		t.Fatalf("object = %+v", obj)
	}

	resp, body = h.upload(http.MethodPut, gmailMe+"/drafts/r123", "message/rfc822", "", []byte(eml))
	wantError(t, resp, body, http.StatusNotFound, "Requested entity was not found.")
}

func TestGmailRules(t *testing.T) {
	big := func(n int64) http.Header {
		return hdr("X-Upload-Content-Type", "message/rfc822", "X-Upload-Content-Length", fmt.Sprint(n))
	}
	for _, tc := range []struct {
		name, method, path, ctype, meta, body string
		startHeader                           http.Header // a resumable start instead of a one-request upload
		status                                int
		want                                  string
	}{
		{name: "not message/*", path: "/messages", ctype: "text/plain", body: eml, status: 400, want: "Media type 'text/plain' is not supported. Valid media types: [message/*]"},
		{name: "not RFC 822", path: "/messages", ctype: "message/rfc822", body: "this is not mail\r\n\r\n", status: 400, want: "not an RFC 822 email message"},
		{name: "empty", path: "/messages/import", ctype: "message/rfc822", body: "", status: 400, want: "empty"},
		{name: "send without recipient", path: "/messages/send", ctype: "message/rfc822", body: "Subject: hi\r\n\r\nx", status: 400, want: "Recipient address required"},
		{name: "invalid label", path: "/messages", ctype: "message/rfc822", meta: `{"labelIds":["INBOX","Friends"]}`, body: eml, status: 400, want: "Invalid label: Friends"},
		{name: "unknown field", path: "/messages", ctype: "message/rfc822", meta: `{"subject":"x"}`, body: eml, status: 400, want: `Unknown name "subject"`},
		{name: "unknown draft field", path: "/drafts", ctype: "message/rfc822", meta: `{"message":{"color":"red"}}`, body: eml, status: 400, want: `Unknown name "message.color"`},
		{name: "labels not strings", path: "/messages", ctype: "message/rfc822", meta: `{"labelIds":[1]}`, body: eml, status: 400, want: "labelIds a list of strings"},
		{name: "bad internalDateSource", path: "/messages?internalDateSource=now", ctype: "message/rfc822", body: eml, status: 400, want: "internal_date_source"},
		{name: "bad neverMarkSpam", path: "/messages/import?neverMarkSpam=maybe", ctype: "message/rfc822", body: eml, status: 400, want: "neverMarkSpam"},
		{name: "bad user id", path: "@someone/messages", ctype: "message/rfc822", body: eml, status: 400, want: "Invalid user id"},
		{name: "PUT to messages", method: "PUT", path: "/messages", ctype: "message/rfc822", body: eml, status: 404, want: "Method not found"},
		{name: "POST to a draft", path: "/drafts/r1", ctype: "message/rfc822", body: eml, status: 404, want: "Method not found"},
		{name: "unknown method", path: "/messages/batchInsert", ctype: "message/rfc822", body: eml, status: 404, want: "Method not found"},
		{name: "send over 35 MiB", path: "/messages/send", startHeader: big(35<<20 + 1), status: 413, want: "36700160 bytes"},
		{name: "draft over 35 MiB", path: "/drafts", startHeader: big(35<<20 + 1), status: 413, want: "36700160 bytes"},
		{name: "insert over 150 MiB", path: "/messages", startHeader: big(150<<20 + 1), status: 413, want: "157286400 bytes"},
		{name: "insert of 35 MiB is fine", path: "/messages", startHeader: big(35<<20 + 1), status: 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			path := gmailMe + tc.path
			if strings.HasPrefix(tc.path, "@") {
				path = "/upload/gmail/v1/users/" + tc.path[1:]
			}
			var resp *http.Response
			var body []byte
			if tc.startHeader != nil {
				resp, body = h.do(method, withQuery(path, "uploadType", "resumable"), tc.startHeader, nil)
			} else {
				resp, body = h.upload(method, path, tc.ctype, tc.meta, []byte(tc.body))
			}
			if tc.status == 200 {
				wantStatus(t, resp, body, 200)
				return
			}
			wantError(t, resp, body, tc.status, tc.want)
			if len(h.srv.Objects()) != 0 {
				t.Fatal("a refused upload was stored")
			}
		})
	}
}

func TestGmailRefusesBytesAtCompletion(t *testing.T) {
	// A session's bytes are checked when the last one arrives; the refusal sticks.
	h := newHarness(t, Options{})
	data := []byte("no headers here\r\n\r\n")
	session := h.start(http.MethodPost, withQuery(gmailMe+"/messages", "uploadType", "resumable"), hdr("X-Upload-Content-Type", "message/rfc822"), "")
	resp, body := h.do(http.MethodPut, session, nil, data)
	wantError(t, resp, body, http.StatusBadRequest, "not an RFC 822")
	resp, body = h.status(session, int64(len(data)))
	wantError(t, resp, body, http.StatusBadRequest, "not an RFC 822")
}

const cmPath = "/upload/dfareporting/v5/userprofiles/123456/creativeAssets/7890/creativeAssets"

var int64ID = regexp.MustCompile(`^[1-9][0-9]{9,10}$`)

// Version v4 answers as Google's switched-off versions do: 403 in Google's
// JSON error shape, saying the version is no longer supported, whatever
// way the file comes.
func TestCampaignManagerV4IsSwitchedOff(t *testing.T) {
	img := pngBytes(t)
	h := newHarness(t, Options{})
	v4 := strings.Replace(cmPath, "/v5/", "/v4/", 1)
	meta := `{"assetIdentifier":{"name":"a.png","type":"HTML_IMAGE"}}`
	for _, uploadType := range []string{"multipart", "resumable"} {
		t.Run(uploadType, func(t *testing.T) {
			var resp *http.Response
			var body []byte
			if uploadType == "resumable" {
				resp, body = h.do(http.MethodPost, withQuery(v4, "uploadType", "resumable"), hdr("Content-Type", "application/json"), []byte(meta))
			} else {
				resp, body = h.upload(http.MethodPost, v4, "image/png", meta, img)
			}
			if resp.StatusCode != http.StatusForbidden {
				t.Fatalf("status %d, want 403; body %s", resp.StatusCode, body)
			}
			var got struct {
				Error struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Status  string `json:"status"`
					Errors  []struct {
						Message, Domain, Reason string
					} `json:"errors"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("not Google's JSON error: %s", body)
			}
			e := got.Error
			if e.Code != 403 || e.Status != "PERMISSION_DENIED" || !strings.HasPrefix(e.Message, "3140 : Version v4 of the ") ||
				!strings.Contains(e.Message, "API is no longer supported") || len(e.Errors) != 1 || e.Errors[0].Message != e.Message {
				t.Errorf("error %+v", e)
			}
		})
	}
	if n := len(h.srv.Objects()); n != 0 {
		t.Errorf("%d objects stored through v4", n)
	}
}

func TestCampaignManager(t *testing.T) {
	img := pngBytes(t)
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		name, path, asset, typ string
		resumable              bool
	}{
		{"multipart", cmPath, "Spring sale-banner_1.png", "HTML_IMAGE", false},
		{"resumable", cmPath, "spot 30s.mp4", "VIDEO", true},
		{"letters of any script", cmPath, "لافتة الربيع.png", "HTML_IMAGE", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			meta := fmt.Sprintf(`{"assetIdentifier":{"name":%q,"type":%q}}`, tc.asset, tc.typ)
			var resp *http.Response
			var body []byte
			want := http.StatusOK
			if tc.resumable {
				resp, body = h.uploadResumable(http.MethodPost, tc.path, "video/mp4", meta, img)
				want = http.StatusCreated
			} else {
				resp, body = h.upload(http.MethodPost, tc.path, "image/png", meta, img)
			}
			wantStatus(t, resp, body, want)
			var got struct {
				Kind            string          `json:"kind"`
				ID              string          `json:"id"`
				AssetIdentifier assetIdentifier `json:"assetIdentifier"`
			}
			decodeInto(t, body, &got)
			if got.Kind != "dfareporting#creativeAssetMetadata" || !int64ID.MatchString(got.ID) ||
				got.AssetIdentifier != (assetIdentifier{Name: tc.asset, Type: tc.typ}) {
				t.Fatalf("answer = %s", body)
			}
			if obj, ok := h.srv.Object(got.ID); !ok || obj.Kind != KindCampaignManager || obj.Name != tc.asset {
				t.Fatalf("object = %+v", obj)
			}
		})
	}
}

func TestCampaignManagerRules(t *testing.T) {
	img := string(pngBytes(t))
	asset := func(name, typ string) string {
		return fmt.Sprintf(`{"assetIdentifier":{"name":%q,"type":%q}}`, name, typ)
	}
	for _, tc := range []struct {
		name, method, path, meta, want string
		status                         int
	}{
		{name: "profile not a number", path: strings.Replace(cmPath, "123456", "me", 1), meta: asset("a", "HTML"), want: "profile_id"},
		{name: "advertiser zero", path: strings.Replace(cmPath, "7890", "0", 1), meta: asset("a", "HTML"), want: "advertiser_id"},
		{name: "no metadata", path: cmPath, want: "metadata is required"},
		{name: "no assetIdentifier", path: cmPath, meta: `{}`, want: "assetIdentifier is required"},
		{name: "no name", path: cmPath, meta: asset("", "HTML"), want: "assetIdentifier.name is required"},
		{name: "name with a slash", path: cmPath, meta: asset("ads/banner.png", "HTML_IMAGE"), want: "may contain only letters, digits"},
		{name: "name with a comma", path: cmPath, meta: asset("banner,1.png", "HTML_IMAGE"), want: "may contain only letters, digits"},
		{name: "no type", path: cmPath, meta: asset("a", ""), want: "assetIdentifier.type is required"},
		{name: "IMAGE retired", path: cmPath, meta: asset("a", "IMAGE"), want: "upload images as HTML_IMAGE"},
		{name: "FLASH retired", path: cmPath, meta: asset("a", "FLASH"), want: "no longer accepted"},
		{name: "unknown type", path: cmPath, meta: asset("a", "PICTURE"), want: "asset_identifier.type"},
		{name: "unknown field", path: cmPath, meta: `{"assetIdentifier":{"name":"a","type":"HTML"},"size":3}`, want: `Unknown name "size"`},
		{name: "unknown identifier field", path: cmPath, meta: `{"assetIdentifier":{"name":"a","type":"HTML","id":1}}`, want: `Unknown name "assetIdentifier.id"`},
		{name: "PUT", method: "PUT", path: cmPath, meta: asset("a", "HTML"), want: "Method not found", status: 404},
		{name: "v3", path: strings.Replace(cmPath, "/v5/", "/v3/", 1), meta: asset("a", "HTML"), want: "Method not found", status: 404},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			status := tc.status
			if status == 0 {
				status = http.StatusBadRequest
			}
			resp, body := h.upload(method, tc.path, "image/png", tc.meta, []byte(img))
			wantError(t, resp, body, status, tc.want)
		})
	}
	t.Run("over 1 GiB", func(t *testing.T) {
		h := newHarness(t, Options{})
		resp, body := h.do(http.MethodPost, withQuery(cmPath, "uploadType", "resumable"),
			hdr("X-Upload-Content-Length", fmt.Sprint(1<<30+1), "Content-Type", "application/json"), []byte(asset("a", "VIDEO")))
		wantError(t, resp, body, http.StatusRequestEntityTooLarge, "1073741824 bytes")
	})
}

func TestRefuseResumable(t *testing.T) {
	h := newHarness(t, Options{RefuseResumable: []Kind{KindCampaignManager}})
	meta := `{"assetIdentifier":{"name":"a","type":"HTML_IMAGE"}}`
	resp, body := h.do(http.MethodPost, withQuery(cmPath, "uploadType", "resumable"), hdr("Content-Type", "application/json"), []byte(meta))
	wantError(t, resp, body, http.StatusBadRequest, "uploadType=resumable is not supported")
	resp, body = h.upload(http.MethodPost, cmPath, "image/png", meta, pngBytes(t))
	wantStatus(t, resp, body, http.StatusOK)
	session := h.resumable(10) // other destinations still take sessions
	if session == "" {
		t.Fatal("generic session refused")
	}
}

const gamesPath = "/upload/games/v1configuration/images/CgkI9N6l_ACHIEV/imageType/ACHIEVEMENT_ICON"

func TestPlayGames(t *testing.T) {
	img := pngBytes(t)
	h := newHarness(t, Options{})
	for _, tc := range []struct {
		name   string
		send   func() (*http.Response, []byte)
		status int
	}{
		{"media", func() (*http.Response, []byte) { return h.upload(http.MethodPost, gamesPath, "image/png", "", img) }, 200},
		{"multipart with empty metadata", func() (*http.Response, []byte) {
			return h.upload(http.MethodPost, gamesPath, "image/png", "{}", img)
		}, 200},
		{"resumable", func() (*http.Response, []byte) {
			return h.uploadResumable(http.MethodPost, gamesPath, "image/png", "", img)
		}, 201},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, body := tc.send()
			wantStatus(t, resp, body, tc.status)
			var got struct{ Kind, URL, ResourceID, ImageType string }
			decodeInto(t, body, &got)
			if got.Kind != "gamesConfiguration#imageConfiguration" || got.ResourceID != "CgkI9N6l_ACHIEV" || got.ImageType != "ACHIEVEMENT_ICON" ||
				!strings.HasPrefix(got.URL, h.ts.URL+"/games/images/") || !strings.HasSuffix(got.URL, ".png") {
				t.Fatalf("answer = %s", body)
			}
			resp, err := h.client.Get(got.URL)
			if err != nil {
				t.Fatal(err)
			}
			served, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !bytes.Equal(served, img) {
				t.Fatalf("image URL served %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
		})
	}
}

func TestPlayGamesRules(t *testing.T) {
	img := pngBytes(t)
	for _, tc := range []struct {
		name, method, path, ctype, meta string
		body                            []byte
		start                           http.Header
		status                          int
		want                            string
	}{
		{name: "unknown image type", path: strings.Replace(gamesPath, "ACHIEVEMENT_ICON", "BANNER", 1), ctype: "image/png", body: img, status: 400, want: "image_type"},
		{name: "leaderboard icon is fine", path: strings.Replace(gamesPath, "ACHIEVEMENT_ICON", "LEADERBOARD_ICON", 1), ctype: "image/png", body: img, status: 200},
		{name: "not image/*", path: gamesPath, ctype: "text/plain", body: img, status: 400, want: "Valid media types: [image/*]"},
		{name: "not an image", path: gamesPath, ctype: "image/png", body: []byte("<html>hello</html>"), status: 400, want: "not an image"},
		{name: "a TIFF is an image", path: gamesPath, ctype: "image/tiff", body: append([]byte("II*\x00\x08\x00\x00\x00"), img...), status: 200},
		{name: "an SVG is an image", path: gamesPath, ctype: "image/svg+xml",
			body: []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>`), status: 200},
		{name: "metadata", path: gamesPath, ctype: "image/png", meta: `{"name":"icon"}`, body: img, status: 400, want: `Unknown name "name"`},
		{name: "over 15 MiB", path: gamesPath, start: hdr("X-Upload-Content-Type", "image/png", "X-Upload-Content-Length", fmt.Sprint(15<<20+1)), status: 413, want: "15728640 bytes"},
		{name: "PUT", method: "PUT", path: gamesPath, ctype: "image/png", body: img, status: 404, want: "Method not found"},
		{name: "wrong path", path: "/upload/games/v1configuration/images/x", ctype: "image/png", body: img, status: 404, want: "Method not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			method := tc.method
			if method == "" {
				method = http.MethodPost
			}
			var resp *http.Response
			var body []byte
			if tc.start != nil {
				resp, body = h.do(method, withQuery(tc.path, "uploadType", "resumable"), tc.start, nil)
			} else {
				resp, body = h.upload(method, tc.path, tc.ctype, tc.meta, tc.body)
			}
			if tc.status == 200 {
				wantStatus(t, resp, body, 200)
				return
			}
			wantError(t, resp, body, tc.status, tc.want)
		})
	}
}

func TestGenericStorage(t *testing.T) {
	h := newHarness(t, Options{})
	const path = "/upload/storage/v1/b/farm/o"
	resp, body := h.upload(http.MethodPost, path, "image/jpeg", "", []byte("jpeg"))
	e := wantError(t, resp, body, http.StatusBadRequest, "Required")
	if e.Error.Errors[0].Reason != "required" {
		t.Fatalf("reason = %q", e.Error.Errors[0].Reason)
	}
	resp, body = h.upload(http.MethodPost, withQuery(path, "name", "animals/llama.jpg"), "image/jpeg", "", []byte("jpeg"))
	wantStatus(t, resp, body, http.StatusOK)
	m := decode(t, body)
	if m["bucket"] != "farm" || m["name"] != "animals/llama.jpg" || !strings.HasPrefix(m["id"].(string), "farm/animals/llama.jpg/") ||
		m["kind"] != "storage#object" || m["crc32c"] == "" {
		t.Fatalf("answer = %s", body)
	}
	resp, body = h.upload(http.MethodPost, path, "image/jpeg", `{"name":"from-metadata.jpg"}`, []byte("jpeg"))
	wantStatus(t, resp, body, http.StatusOK)
	if m := decode(t, body); m["name"] != "from-metadata.jpg" {
		t.Fatalf("answer = %s", body)
	}
}

// TestCloudStorageIsAServiceOfItsOwn: Cloud Storage's objects.insert is
// served from its own file, as every destination is, and only at its own
// path and method; any other /upload/ path is stored as a generic object.
func TestCloudStorageIsAServiceOfItsOwn(t *testing.T) {
	h := newHarness(t, Options{})
	resp, body := h.upload(http.MethodPost, withQuery("/upload/storage/v1/b/farm/o", "name", "cow.jpg"), "image/jpeg", "", []byte("moo"))
	wantStatus(t, resp, body, http.StatusOK)
	resp, body = h.upload(http.MethodPost, withQuery("/upload/things/v1/items", "name", "cow.jpg"), "image/jpeg", "", []byte("moo"))
	wantStatus(t, resp, body, http.StatusOK)
	objs := h.srv.Objects()
	if len(objs) != 2 || objs[0].Kind != KindStorage || objs[0].Action != "storage.objects.insert" || objs[1].Kind != KindGeneric {
		t.Fatalf("objects %+v", objs)
	}
	if m := decode(t, body); m["bucket"] != nil || m["md5Hash"] != nil {
		t.Errorf("a generic object answers as a bucket's: %s", body)
	}
	for _, tc := range []struct{ method, path string }{
		{http.MethodPut, "/upload/storage/v1/b/farm/o"},
		{http.MethodPost, "/upload/storage/v1/b/farm"},
		{http.MethodPost, "/upload/storage/v1/b//o"},
	} {
		resp, body := h.upload(tc.method, withQuery(tc.path, "name", "cow.jpg"), "image/jpeg", "", []byte("moo"))
		wantError(t, resp, body, http.StatusNotFound, "")
	}
	resp, body = h.do(http.MethodGet, h.url("/storage/v1/b/farm/o/cow.jpg"), nil, nil)
	wantStatus(t, resp, body, http.StatusOK)
	if m := decode(t, body); m["name"] != "cow.jpg" || m["bucket"] != "farm" {
		t.Errorf("objects.get %s", body)
	}
	if len(h.srv.Objects()) != 2 {
		t.Error("a refused upload was stored")
	}
}

func TestSizeLimitOnBytes(t *testing.T) {
	img := pngBytes(t)
	over := append(append([]byte{}, img...), make([]byte, playGamesLimit+1-len(img))...)
	for _, tc := range []struct {
		name string
		body io.Reader
	}{
		{"Content-Length over the limit", bytes.NewReader(over)},
		{"chunked body over the limit", struct{ io.Reader }{bytes.NewReader(over)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{})
			req, err := http.NewRequest(http.MethodPost, h.url(withQuery(gamesPath, "uploadType", "media")), tc.body)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "image/png")
			resp, err := h.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			wantError(t, resp, body, http.StatusRequestEntityTooLarge, "15728640 bytes")
			if len(h.srv.Objects()) != 0 {
				t.Fatal("an upload over the limit was stored")
			}
		})
	}
	t.Run("chunk past the limit", func(t *testing.T) {
		h := newHarness(t, Options{})
		session := h.start(http.MethodPost, withQuery(gamesPath, "uploadType", "resumable"), hdr("X-Upload-Content-Type", "image/png"), "")
		resp, body := h.chunk(session, make([]byte, 16<<20), 0, -1)
		wantError(t, resp, body, http.StatusRequestEntityTooLarge, "15728640 bytes")
	})
}

// A multipart upload whose metadata names a contentType other than the media
// part's is refused as Google's Cloud Storage emulator refuses it; when they
// agree, the object has that type.
func TestMultipartContentTypeMustAgree(t *testing.T) {
	h := newHarness(t, Options{})
	const bucket = "/upload/storage/v1/b/test/o"
	resp, body := h.upload(http.MethodPost, bucket, "text/plain", `{"name":"a.csv","contentType":"text/csv"}`, []byte("a,b\n"))
	wantError(t, resp, body, http.StatusPreconditionFailed, "Content-Type validation failed")
	resp, body = h.upload(http.MethodPost, bucket, "text/csv", `{"name":"a.csv","contentType":"text/csv"}`, []byte("a,b\n"))
	wantStatus(t, resp, body, http.StatusOK)
	if m := decode(t, body); m["contentType"] != "text/csv" || m["name"] != "a.csv" {
		t.Errorf("object %v", m)
	}
}

// Cloud Storage takes the object's name from the name query parameter when
// the metadata names none.
func TestStorageNameFromQuery(t *testing.T) {
	h := newHarness(t, Options{})
	resp, body := h.uploadResumable(http.MethodPost, withQuery("/upload/storage/v1/b/test/o", "name", "big.iso"), "application/octet-stream", "", []byte("iso"))
	wantStatus(t, resp, body, http.StatusCreated)
	if m := decode(t, body); m["name"] != "big.iso" || m["bucket"] != "test" {
		t.Errorf("object %v", m)
	}
	resp, body = h.upload(http.MethodPost, "/upload/storage/v1/b/test/o", "application/octet-stream", `{"size":"3"}`, []byte("iso"))
	wantError(t, resp, body, http.StatusBadRequest, "Required")
}
