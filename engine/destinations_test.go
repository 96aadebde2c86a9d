package engine_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/crc32c"
	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/upload"
)

// instant is a backoff that never waits, so retries take no time.
type instant struct{}

func (instant) Wait(int) time.Duration { return 0 }

const (
	kib   = 1 << 10
	chunk = 256 * kib
)

// lab is an emulator on loopback with a queue pointed at it.
type lab struct {
	t   *testing.T
	srv *emulator.Server
	url string
	q   *engine.Queue
}

// newLab starts an emulator and opens a queue that sends with method
// (resumable in chunks of 256 KiB) and never waits between retries.
func newLab(t *testing.T, eo emulator.Options, method upload.Method, threshold int64) *lab {
	t.Helper()
	srv, err := emulator.New(eo)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	q, err := engine.Open(context.Background(), engine.Options{
		Method:    method,
		ChunkSize: chunk,
		Threshold: threshold,
		Backoff:   instant{},
		Parallel:  4,
	})
	if err != nil {
		t.Fatalf("engine.Open: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &lab{t: t, srv: srv, url: ts.URL, q: q}
}

// send queues paths for d, waits until nothing moves and returns their rows.
func (l *lab) send(d dest.Destination, paths ...string) []engine.JobView {
	l.t.Helper()
	res := l.q.Add(paths, d)
	if len(res.Problems) > 0 {
		l.t.Fatalf("Add: problems %v", res.Problems)
	}
	if len(res.IDs) != len(paths) {
		l.t.Fatalf("Add made %d jobs of %d paths", len(res.IDs), len(paths))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.q.Wait(ctx); err != nil {
		l.t.Fatalf("Wait: %v", err)
	}
	views := make([]engine.JobView, len(res.IDs))
	for i, id := range res.IDs {
		v, ok := l.q.Job(id)
		if !ok {
			l.t.Fatalf("job %s is gone", id)
		}
		views[i] = v
	}
	return views
}

// one sends one file and returns its row.
func (l *lab) one(d dest.Destination, path string) engine.JobView {
	l.t.Helper()
	return l.send(d, path)[0]
}

// done fails unless the row finished with the server's answer.
func done(t *testing.T, v engine.JobView) *engine.Result {
	t.Helper()
	if v.State != engine.Done || v.Result == nil {
		t.Fatalf("%s: state %s, reason %q, next %q; want done", v.Name, v.State, reasonOf(v), nextOf(v))
	}
	return v.Result
}

// object is the emulator's one stored object.
func (l *lab) object() emulator.Object {
	l.t.Helper()
	objs := l.srv.Objects()
	if len(objs) != 1 {
		l.t.Fatalf("the emulator holds %d objects, want 1", len(objs))
	}
	return objs[0]
}

// --- files ---

func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// grow makes the file at p size bytes long without writing them (a sparse tail of zeros).
func grow(t *testing.T, p string, size int64) {
	t.Helper()
	if err := os.Truncate(p, size); err != nil {
		t.Fatal(err)
	}
}

func pngData(t *testing.T) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	for i := range 16 {
		img.Set(i, i, color.RGBA{R: 200, G: 30, B: 90, A: 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngFile writes a PNG of at least size bytes: a real image, then padding.
func pngFile(t *testing.T, dir, name string, size int64) string {
	t.Helper()
	p := writeFile(t, dir, name, pngData(t))
	if size > 0 {
		grow(t, p, size)
	}
	return p
}

// emailText is an email of about size bytes, with the recipients Gmail's send needs.
func emailText(subject string, size int) []byte {
	var b bytes.Buffer
	b.WriteString("From: Layla Haddad <layla@example.com>\r\nTo: Omar <omar@example.org>\r\n")
	b.WriteString("Subject: " + subject + "\r\nDate: Tue, 03 Mar 2026 09:15:00 +0200\r\n")
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\n")
	line := "The campaign report is attached to the shared drive, as agreed.\r\n"
	for b.Len() < size {
		b.WriteString(line)
	}
	return b.Bytes()
}

func sha(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func size(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func goldenDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "eml"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// --- what the emulator saw ---

// wire is the request a destination must make for one file.
type wire struct {
	httpMethod  string            // POST or PUT
	path        string            // URL path
	query       map[string]string // query parameters besides uploadType
	contentType string            // the file's media type on the wire
	metadata    string            // the JSON metadata; "" for none
}

// checkWire compares every request the emulator saw, and the object it
// stored, with what method m must send.
func checkWire(t *testing.T, l *lab, m upload.Method, w wire, file string) emulator.Object {
	t.Helper()
	reqs := l.srv.Requests()
	if len(reqs) == 0 {
		t.Fatal("the emulator saw no request")
	}
	first := reqs[0]
	if first.Method != w.httpMethod || first.Path != w.path {
		t.Errorf("request %s %s, want %s %s", first.Method, first.Path, w.httpMethod, w.path)
	}
	wantQuery := url.Values{"uploadType": {string(m)}}
	for k, v := range w.query {
		wantQuery.Set(k, v)
	}
	if !equalQuery(first.Query, wantQuery) {
		t.Errorf("query %v, want %v", first.Query, wantQuery)
	}
	if first.Authorization {
		t.Error("a sign-in was sent to a server that is not Google's")
	}
	n := size(t, file)
	switch m {
	case upload.Media:
		if len(reqs) != 1 || first.Stage != emulator.StageUpload || first.ContentType != w.contentType || first.ContentLength != n {
			t.Errorf("media upload: %d requests, first %s with Content-Type %q length %d; want 1 upload of %q, %d bytes",
				len(reqs), first.Stage, first.ContentType, first.ContentLength, w.contentType, n)
		}
	case upload.Multipart:
		if len(reqs) != 1 || first.Stage != emulator.StageUpload || !strings.HasPrefix(first.ContentType, "multipart/related; boundary=") {
			t.Errorf("multipart upload: %d requests, first %s with Content-Type %q", len(reqs), first.Stage, first.ContentType)
		}
	case upload.Resumable:
		if first.Stage != emulator.StageStart || first.UploadContentType != w.contentType || first.UploadContentLength != strconv.FormatInt(n, 10) {
			t.Errorf("session start: %s, X-Upload-Content-Type %q, X-Upload-Content-Length %q; want %q and %d",
				first.Stage, first.UploadContentType, first.UploadContentLength, w.contentType, n)
		}
		if w.metadata != "" && first.ContentType != "application/json; charset=UTF-8" {
			t.Errorf("session start Content-Type %q, want JSON", first.ContentType)
		}
		chunks := reqs[1:]
		if want := int((n + chunk - 1) / chunk); len(chunks) != want {
			t.Errorf("%d requests after the start, want %d chunks", len(chunks), want)
		}
		for _, c := range chunks {
			if c.Stage != emulator.StageChunk || c.Method != http.MethodPut || c.Path != w.path || c.Session != first.Session || c.ContentType != w.contentType {
				t.Errorf("chunk %+v: want PUT %s to session %s with Content-Type %q", c, w.path, first.Session, w.contentType)
			}
		}
	}
	obj := l.object()
	if obj.UploadType != string(m) || obj.ContentType != w.contentType || obj.Size != n || obj.SHA256 != sha(t, file) {
		t.Errorf("stored %s upload of %q, %d bytes, sha %s; want %s of %q, %d bytes, sha %s",
			obj.UploadType, obj.ContentType, obj.Size, obj.SHA256, m, w.contentType, n, sha(t, file))
	}
	wantMeta := w.metadata
	if m == upload.Media {
		wantMeta = "" // media carries no metadata
	} else if m == upload.Multipart && wantMeta == "" {
		wantMeta = "{}" // the protocol's metadata part is not optional
	}
	if got := compact(obj.Metadata); got != compact([]byte(wantMeta)) {
		t.Errorf("metadata %s, want %s", got, wantMeta)
	}
	return obj
}

func equalQuery(a, b url.Values) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

func compact(b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return ""
	}
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return "invalid JSON: " + string(b)
	}
	return out.String()
}

// methods are the upload types a test goes through; "auto" is Auto with the
// default threshold (one request for these small files), "auto, large" Auto
// with a threshold under the file's size (resumable).
var methods = []struct {
	name      string
	method    upload.Method
	threshold int64
}{
	{"media", upload.Media, 0},
	{"multipart", upload.Multipart, 0},
	{"resumable", upload.Resumable, 0},
	{"auto", upload.Auto, 0},
	{"auto, large", upload.Auto, 64 * kib},
}

// used is the method Auto picks for a file of about 600 KiB.
func used(m upload.Method, threshold int64, metadata string) upload.Method {
	switch {
	case m != upload.Auto:
		return m
	case threshold > 0:
		return upload.Resumable
	case metadata == "":
		return upload.Media
	}
	return upload.Multipart
}

// --- Gmail ---

func TestGmailDestinationsEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "quarterly.eml", emailText("Quarterly numbers", 600*kib))
	kinds := []struct {
		kind   dest.Kind
		params map[string]string
		w      wire
		made   fact.Code
	}{
		{dest.GmailInsert, nil, wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/messages"}, fact.Code("result.gmailInsert")},
		{dest.GmailImport, nil, wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/messages/import"}, fact.Code("result.gmailImport")},
		{dest.GmailSend, nil, wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/messages/send"}, fact.Code("result.gmailSend")},
		{dest.GmailDraft, nil, wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/drafts", metadata: `{"message":{}}`}, fact.Code("result.gmailDraft")},
	}
	for _, k := range kinds {
		for _, m := range methods {
			t.Run(string(k.kind)+", "+m.name, func(t *testing.T) {
				l := newLab(t, emulator.Options{}, m.method, m.threshold)
				v := l.one(dest.Destination{Kind: k.kind, BaseURL: l.url, Params: k.params}, file)
				r := done(t, v)
				want := used(m.method, m.threshold, k.w.metadata)
				if v.Method != want || v.FellBack {
					t.Errorf("row says method %s (fell back %v), want %s", v.Method, v.FellBack, want)
				}
				w := k.w
				w.contentType = "message/rfc822"
				obj := checkWire(t, l, want, w, file)
				var resp struct {
					ID       string `json:"id"`
					ThreadID string `json:"threadId"`
					Message  struct {
						ID       string `json:"id"`
						ThreadID string `json:"threadId"`
					} `json:"message"`
				}
				if err := json.Unmarshal(obj.Response, &resp); err != nil {
					t.Fatal(err)
				}
				wantID, wantThread := resp.ID, resp.ThreadID
				if k.kind == dest.GmailDraft {
					wantID, wantThread = obj.Draft, resp.Message.ThreadID
				}
				if r.ID == "" || r.ID != wantID || r.ThreadID == "" || r.ThreadID != wantThread {
					t.Errorf("result id %q thread %q, want %q and %q (answer %s)", r.ID, r.ThreadID, wantID, wantThread, obj.Response)
				}
				if !resultSays(r, k.made, "id", r.ID) {
					t.Errorf("result %q (fact %+v) does not say %s with the id", summaryOf(r), r.Fact(), k.made)
				}
				if v.Email == nil || v.Email.Subject != "Quarterly numbers" || v.MIME != "message/rfc822" {
					t.Errorf("row shows email %+v of type %q", v.Email, v.MIME)
				}
				if !bytes.Equal(r.Raw, obj.Response) {
					t.Errorf("raw answer %s, emulator answered %s", r.Raw, obj.Response)
				}
			})
		}
	}
}

func TestGmailParameters(t *testing.T) {
	dir := t.TempDir()
	file := writeFile(t, dir, "invite.eml", emailText("Planning meeting", 600*kib))
	for _, tc := range []struct {
		name   string
		kind   dest.Kind
		params map[string]string
		w      wire
	}{
		{
			name: "insert with labels, date header and deleted",
			kind: dest.GmailInsert,
			params: map[string]string{
				"labels": "INBOX, UNREAD,Label_12", "internalDateSource": "dateheader", "deleted": "true",
			},
			w: wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/messages",
				query:    map[string]string{"internalDateSource": "dateHeader", "deleted": "true"},
				metadata: `{"labelIds":["INBOX","UNREAD","Label_12"]}`},
		},
		{
			name:   "insert into another mailbox in a conversation",
			kind:   dest.GmailInsert,
			params: map[string]string{"user": "office@example.org", "threadId": "18c2f0a9d1b2c3d4", "deleted": "false"},
			w: wire{httpMethod: "POST", path: "/upload/gmail/v1/users/office@example.org/messages",
				metadata: `{"threadId":"18c2f0a9d1b2c3d4"}`},
		},
		{
			name: "import never marked as spam, invitations to Calendar",
			kind: dest.GmailImport,
			params: map[string]string{
				"neverMarkSpam": "true", "processForCalendar": "true", "internalDateSource": "receivedTime", "labels": "IMPORTANT",
			},
			w: wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/messages/import",
				query:    map[string]string{"neverMarkSpam": "true", "processForCalendar": "true", "internalDateSource": "receivedTime"},
				metadata: `{"labelIds":["IMPORTANT"]}`},
		},
		{
			name:   "draft with labels in its message",
			kind:   dest.GmailDraft,
			params: map[string]string{"labels": "STARRED"},
			w: wire{httpMethod: "POST", path: "/upload/gmail/v1/users/me/drafts",
				metadata: `{"message":{"labelIds":["STARRED"]}}`},
		},
	} {
		for _, m := range []upload.Method{upload.Multipart, upload.Resumable} {
			t.Run(tc.name+", "+string(m), func(t *testing.T) {
				l := newLab(t, emulator.Options{}, m, 0)
				done(t, l.one(dest.Destination{Kind: tc.kind, BaseURL: l.url, Params: tc.params}, file))
				w := tc.w
				w.contentType = "message/rfc822"
				checkWire(t, l, m, w, file)
			})
		}
	}
}

func TestGmailDraftUpdate(t *testing.T) {
	dir := t.TempDir()
	first := writeFile(t, dir, "first draft.eml", emailText("First words", 2*kib))
	second := writeFile(t, dir, "second draft.eml", emailText("Better words", 600*kib))
	for _, m := range []upload.Method{upload.Media, upload.Multipart, upload.Resumable} {
		t.Run(string(m), func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m, 0)
			created := done(t, l.one(dest.Destination{Kind: dest.GmailDraft, BaseURL: l.url}, first))
			if !strings.HasPrefix(created.ID, "r") {
				t.Fatalf("draft id %q", created.ID)
			}
			l.srv.ClearRequests()
			d := dest.Destination{Kind: dest.GmailDraft, BaseURL: l.url, Params: map[string]string{"draftId": created.ID}}
			v := l.one(d, second)
			r := done(t, v)
			if r.ID != created.ID || !resultSays(r, fact.Code("result.gmailDraftUpdated"), "id", created.ID) {
				t.Errorf("update answered draft %q, %q; want draft %s updated", r.ID, summaryOf(r), created.ID)
			}
			reqs := l.srv.Requests()
			path := "/upload/gmail/v1/users/me/drafts/" + created.ID
			for _, rq := range reqs {
				if rq.Method != http.MethodPut || rq.Path != path {
					t.Errorf("request %s %s (%s), want PUT %s", rq.Method, rq.Path, rq.Stage, path)
				}
			}
			objs := l.srv.Objects()
			last := objs[len(objs)-1]
			if last.Draft != created.ID || last.Action != "gmail.users.drafts.update" || last.SHA256 != sha(t, second) {
				t.Errorf("stored %s of draft %q, sha %s", last.Action, last.Draft, last.SHA256)
			}
		})
	}
	t.Run("a draft that does not exist", func(t *testing.T) {
		for _, m := range []upload.Method{upload.Multipart, upload.Resumable} {
			l := newLab(t, emulator.Options{}, m, 0)
			d := dest.Destination{Kind: dest.GmailDraft, BaseURL: l.url, Params: map[string]string{"draftId": "r999"}}
			v := l.one(d, second)
			if v.State != engine.Failed || reasonOf(v) != "The draft to update no longer exists." {
				t.Errorf("%s: state %s, reason %q", m, v.State, reasonOf(v))
			}
			if n := len(l.srv.Objects()); n != 0 {
				t.Errorf("%s: the emulator stored %d objects", m, n)
			}
		}
	})
}

// TestGoldenEmails sends every golden email (Arabic, Persian and Hebrew
// names and headers, old charsets, an mbox separator line) to Gmail and
// checks that the very bytes arrived.
func TestGoldenEmails(t *testing.T) {
	dir := goldenDir(t)
	paths, err := filepath.Glob(filepath.Join(dir, "*.eml"))
	if err != nil || len(paths) < 8 {
		t.Fatalf("golden emails: %v %v", paths, err)
	}
	subjects := map[string]string{
		"plain-ascii.eml":         "Quarterly numbers",
		"تقرير_الحملة_2026.eml":   "تقرير الحملة النهائي لعام 2026",
		"گزارش نهایی.eml":         "گزارش نهایی پروژه",
		"דוח שנתי.eml":            "דוח שנתי 2025",
		"arabic-windows-1256.eml": "فاتورة شهر مارس",
		"mbox-raw-utf8.eml":       "סיכום פגישה",
	}
	for _, kind := range []dest.Kind{dest.GmailInsert, dest.GmailImport} {
		for _, m := range []upload.Method{upload.Media, upload.Resumable} {
			t.Run(string(kind)+", "+string(m), func(t *testing.T) {
				l := newLab(t, emulator.Options{}, m, 0)
				views := l.send(dest.Destination{Kind: kind, BaseURL: l.url}, paths...)
				stored := map[string]emulator.Object{}
				for _, o := range l.srv.Objects() {
					stored[o.ID] = o
				}
				for i, v := range views {
					name := filepath.Base(paths[i])
					if name == "not-an-email.eml" {
						want := "not-an-email.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."
						if v.State != engine.Refused || !strings.HasPrefix(reasonOf(v), want) {
							t.Errorf("%s: state %s, reason %q; want refused: %q", name, v.State, reasonOf(v), want)
						}
						continue
					}
					if v.State != engine.Done || v.Result == nil {
						t.Errorf("%s: state %s, reason %q", name, v.State, reasonOf(v))
						continue
					}
					obj, ok := stored[v.Result.ID]
					if !ok {
						t.Errorf("%s: the emulator has no message %q", name, v.Result.ID)
						continue
					}
					if obj.SHA256 != sha(t, paths[i]) || obj.ContentType != "message/rfc822" {
						t.Errorf("%s: stored %q with sha %s, want the file's bytes as message/rfc822", name, obj.ContentType, obj.SHA256)
					}
					if want, ok := subjects[name]; ok && (v.Email == nil || v.Email.Subject != want) {
						t.Errorf("%s: row shows %+v, want subject %q", name, v.Email, want)
					}
				}
				if n := len(stored); n != len(paths)-1 {
					t.Errorf("the emulator stored %d messages, want %d", n, len(paths)-1)
				}
			})
		}
	}
}

// --- Campaign Manager 360 ---

func TestCampaignManagerEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := pngFile(t, dir, "Spring Sale (v2) «final».png", 600*kib)
	const meta = `{"assetIdentifier":{"name":"Spring Sale v2 final.png","type":"HTML_IMAGE"}}`
	for _, m := range methods {
		if m.method == upload.Media {
			continue // an asset cannot go without its metadata
		}
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			d := dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
			v := l.one(d, file)
			r := done(t, v)
			want := used(m.method, m.threshold, meta)
			if v.Method != want || v.FellBack {
				t.Errorf("row says method %s (fell back %v), want %s", v.Method, v.FellBack, want)
			}
			obj := checkWire(t, l, want, wire{httpMethod: "POST",
				path: "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets", contentType: "image/png", metadata: meta}, file)
			if r.ID != obj.ID || r.Name != "Spring Sale v2 final.png" {
				t.Errorf("result asset %q named %q, want %q named %q", r.ID, r.Name, obj.ID, "Spring Sale v2 final.png")
			}
			if !resultSays(r, fact.Code("result.cm360"), "id", obj.ID, "title", "Spring Sale v2 final.png") {
				t.Errorf("result %q (fact %+v), want added as asset %s", summaryOf(r), r.Fact(), obj.ID)
			}
		})
	}
}

func TestCampaignManagerAssets(t *testing.T) {
	dir := t.TempDir()
	mp4 := append([]byte{0, 0, 0, 0x18}, []byte("ftypmp42\x00\x00\x00\x00mp42isom")...)
	for _, tc := range []struct {
		name, file string
		data       []byte
		params     map[string]string
		asset      string // cleaned name
		typ        string
		ct         string
	}{
		{"an image is HTML_IMAGE", "Tom & Jerry's banner.png", pngData(t), nil, "Tom _ Jerrys banner.png", "HTML_IMAGE", "image/png"},
		{"a video is VIDEO", "intro clip.mp4", append(mp4, make([]byte, 4*kib)...), nil, "intro clip.mp4", "VIDEO", "video/mp4"},
		{"an HTML page is HTML", "landing.html", []byte("<!DOCTYPE html><html><body><h1>Sale</h1></body></html>"), nil, "landing.html", "HTML", "text/html"},
		{"audio is AUDIO", "jingle.mp3", append([]byte("ID3\x04\x00\x00\x00\x00\x00\x00"), make([]byte, 2*kib)...), nil, "jingle.mp3", "AUDIO", "audio/mpeg"},
		{"an Arabic name keeps its letters", "بانر الربيع!.png", pngData(t), nil, "بانر الربيع.png", "HTML_IMAGE", "image/png"},
		// macOS writes names decomposed: "e" then a combining acute accent.
		{"a decomposed accent is composed", "cafe\u0301 menu.png", pngData(t), nil, "caf\u00e9 menu.png", "HTML_IMAGE", "image/png"},
		{"Arabic vowel marks are dropped", "عَرْضٌ خَاصّ.png", pngData(t), nil, "عرض خاص.png", "HTML_IMAGE", "image/png"},
		{"the asset type set wins", "poster.png", pngData(t), map[string]string{"assetType": "html"}, "poster.png", "HTML", "image/png"},
		{"API version v5", "v5.png", pngData(t), map[string]string{"apiVersion": "v5"}, "v5.png", "HTML_IMAGE", "image/png"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, upload.Auto, 0)
			path := writeFile(t, dir, tc.file, tc.data)
			params := map[string]string{"profileId": "1", "advertiserId": "2"}
			for k, v := range tc.params {
				params[k] = v
			}
			r := done(t, l.one(dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: params}, path))
			version := "v5"
			if tc.params["apiVersion"] != "" {
				version = tc.params["apiVersion"]
			}
			meta := fmt.Sprintf(`{"assetIdentifier":{"name":%q,"type":%q}}`, tc.asset, tc.typ)
			checkWire(t, l, upload.Multipart, wire{httpMethod: "POST",
				path: "/upload/dfareporting/" + version + "/userprofiles/1/creativeAssets/2/creativeAssets", contentType: tc.ct, metadata: meta}, path)
			if r.Name != tc.asset {
				t.Errorf("result name %q, want %q", r.Name, tc.asset)
			}
		})
	}
}

// --- Play Games ---

func TestPlayGamesEveryMethod(t *testing.T) {
	dir := t.TempDir()
	file := pngFile(t, dir, "trophy.png", 600*kib)
	for _, imageType := range []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"} {
		for _, m := range methods {
			t.Run(imageType+", "+m.name, func(t *testing.T) {
				l := newLab(t, emulator.Options{}, m.method, m.threshold)
				d := dest.Destination{Kind: dest.PlayGames, BaseURL: l.url, Params: map[string]string{"resourceId": "r1", "imageType": imageType}}
				v := l.one(d, file)
				r := done(t, v)
				want := used(m.method, m.threshold, "")
				if v.Method != want || v.FellBack {
					t.Errorf("row says method %s (fell back %v), want %s", v.Method, v.FellBack, want)
				}
				obj := checkWire(t, l, want, wire{httpMethod: "POST",
					path: "/upload/games/v1configuration/images/r1/imageType/" + imageType, contentType: "image/png"}, file)
				if wantURL := l.url + "/games/images/" + obj.ID + ".png"; r.URL != wantURL || r.ID != "r1" {
					t.Errorf("result %q at %q, want r1 at %q", r.ID, r.URL, wantURL)
				}
				what := map[string]fact.Code{"ACHIEVEMENT_ICON": fact.Code("result.achievementIcon"), "LEADERBOARD_ICON": fact.Code("result.leaderboardIcon")}[imageType]
				if !resultSays(r, what, "id", "r1", "url", r.URL) {
					t.Errorf("result %q (fact %+v), want %s of r1 at %s", summaryOf(r), r.Fact(), what, r.URL)
				}
			})
		}
	}
}

// --- the fallback from resumable ---

// TestFallbackWhenResumableIsRefused: Campaign Manager 360 and Play Games
// declare only simple and multipart uploads; when the session start is
// refused, the file goes in one request and the row says so.
func TestFallbackWhenResumableIsRefused(t *testing.T) {
	dir := t.TempDir()
	banner := pngFile(t, dir, "banner.png", 600*kib)
	for _, tc := range []struct {
		name   string
		refuse emulator.Kind
		d      dest.Destination
		to     upload.Method
		path   string
	}{
		{"cm360", emulator.KindCampaignManager,
			dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}},
			upload.Multipart, "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets"},
		{"playgames", emulator.KindPlayGames,
			dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "r1", "imageType": "LEADERBOARD_ICON"}},
			upload.Media, "/upload/games/v1configuration/images/r1/imageType/LEADERBOARD_ICON"},
	} {
		for _, m := range []struct {
			name      string
			method    upload.Method
			threshold int64
		}{{"resumable", upload.Resumable, 0}, {"auto, large", upload.Auto, 64 * kib}} {
			t.Run(tc.name+", "+m.name, func(t *testing.T) {
				l := newLab(t, emulator.Options{RefuseResumable: []emulator.Kind{tc.refuse}}, m.method, m.threshold)
				d := tc.d
				d.BaseURL = l.url
				v := l.one(d, banner)
				done(t, v)
				if !v.FellBack || v.Method != tc.to {
					t.Errorf("row: fell back %v, method %s; want fell back to %s", v.FellBack, v.Method, tc.to)
				}
				reqs := l.srv.Requests()
				if len(reqs) != 2 || reqs[0].Stage != emulator.StageStart || reqs[0].Status != http.StatusBadRequest ||
					reqs[1].Stage != emulator.StageUpload || reqs[1].Query.Get("uploadType") != string(tc.to) || reqs[1].Path != tc.path {
					t.Errorf("requests %+v: want a refused start, then one %s upload to %s", reqs, tc.to, tc.path)
				}
				if obj := l.object(); obj.SHA256 != sha(t, banner) {
					t.Errorf("stored sha %s", obj.SHA256)
				}
			})
		}
	}
	t.Run("Gmail does not fall back", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Resumable, 0)
		l.srv.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageStart}, Times: -1,
			Action: emulator.Answer{Status: http.StatusBadRequest, Message: "Resumable uploads are not supported."}})
		file := writeFile(t, dir, "note.eml", emailText("Note", kib))
		v := l.one(dest.Destination{Kind: dest.GmailInsert, BaseURL: l.url}, file)
		if v.State != engine.Failed || v.FellBack || reasonOf(v) != "The server refused the file (error 400)." ||
			v.Details != "Resumable uploads are not supported." || v.DetailsFrom != dest.OtherServer {
			t.Errorf("state %s, fell back %v, reason %q, details %s: %q", v.State, v.FellBack, reasonOf(v), v.DetailsFrom, v.Details)
		}
	})
}

// --- any upload URL ---

func TestCustomUploadURL(t *testing.T) {
	dir := t.TempDir()
	pdf := writeFile(t, dir, "report 2026.pdf", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("0123456789abcdef"), 40*kib)...))
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			d := dest.Destination{Kind: dest.Custom, Name: "Reports bucket", Params: map[string]string{
				"url":      l.url + "/upload/storage/v1/b/reports/o?name=report-2026.pdf&ifGenerationMatch=0",
				"metadata": `{"name": "report-2026.pdf", "metadata": {"team": "sales"}}`,
				"accept":   "application/pdf",
				"maxSize":  "5MiB",
			}}
			v := l.one(d, pdf)
			if m.method == upload.Media {
				// A simple upload carries the file alone: the metadata would be lost.
				want := "report 2026.pdf cannot go as a simple upload (media): Reports bucket needs details sent with the file, such as labels or a name, and a simple upload carries the file alone. Choose multipart, resumable or auto."
				if v.State != engine.Refused || reasonOf(v) != want || len(l.srv.Requests()) != 0 {
					t.Errorf("state %s, reason %q, %d requests; want refused before any byte: %q", v.State, reasonOf(v), len(l.srv.Requests()), want)
				}
				return
			}
			r := done(t, v)
			meta := `{"name":"report-2026.pdf","metadata":{"team":"sales"}}`
			want := used(m.method, m.threshold, meta)
			if want == upload.Multipart {
				// Cloud Storage is told the file's checksum, and refuses other bytes.
				meta = strings.TrimSuffix(meta, "}") + `,"crc32c":"` + crc32cOf(t, pdf) + `"}`
			}
			obj := checkWire(t, l, want, wire{httpMethod: "POST", path: "/upload/storage/v1/b/reports/o",
				query: map[string]string{"name": "report-2026.pdf", "ifGenerationMatch": "0"}, contentType: "application/pdf", metadata: meta}, pdf)
			if r.Name != "report-2026.pdf" || r.ID == "" || !strings.HasPrefix(r.URL, l.url+"/sandbox/objects/"+obj.ID) {
				t.Errorf("result %+v", r)
			}
		})
	}
	t.Run("PUT on another server through the base address", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Resumable, 0)
		d := dest.Destination{Kind: dest.Custom, BaseURL: l.url, Params: map[string]string{
			"url": "https://example.net/upload/files/v1/report?name=r", "httpMethod": "put",
		}}
		done(t, l.one(d, pdf))
		checkWire(t, l, upload.Resumable, wire{httpMethod: "PUT", path: "/upload/files/v1/report",
			query: map[string]string{"name": "r"}, contentType: "application/pdf"}, pdf)
	})
}

// --- refusals before any byte ---

func TestRefusalsBeforeAnyByte(t *testing.T) {
	dir := t.TempDir()
	gmail := func(k dest.Kind) dest.Destination { return dest.Destination{Kind: k} }
	cm360 := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	games := dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "r1", "imageType": "ACHIEVEMENT_ICON"}}
	bigEmail := func(name string, n int64) string {
		p := writeFile(t, dir, name, emailText("Big", 2*kib))
		grow(t, p, n)
		return p
	}
	for _, tc := range []struct {
		name   string
		d      dest.Destination
		file   string
		reason string
	}{
		{"a 20 MB PNG to Play Games", games, pngFile(t, dir, "icon.png", 20_000_000),
			"icon.png is 20 MB; Play Games images can be at most 15 MB."},
		{"a TIFF of 22 MB to Play Games", games, writeSized(t, dir, "photo.tiff", []byte("II*\x00\x08\x00\x00\x00"), 22_000_000),
			"photo.tiff is 22 MB; Play Games images can be at most 15 MB."},
		{"a text file to Play Games", games, writeFile(t, dir, "notes.txt", []byte("not a picture\n")),
			"notes.txt is not an image; Play Games accepts only images."},
		{"an empty image to Play Games", games, writeFile(t, dir, "empty.png", nil),
			"empty.png is empty (0 bytes); Play Games cannot take an empty image."},
		{"a picture to Gmail", gmail(dest.GmailInsert), pngFile(t, dir, "holiday.png", 0),
			"holiday.png is not an email file; Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"notes named .eml to Gmail", gmail(dest.GmailImport), filepath.Join(goldenDir(t), "not-an-email.eml"),
			"not-an-email.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"an empty .eml to Gmail", gmail(dest.GmailInsert), writeFile(t, dir, "blank.eml", nil),
			"blank.eml is empty (0 bytes); Gmail cannot take an empty email."},
		{"160 MB to Gmail's mailbox", gmail(dest.GmailInsert), bigEmail("archive.eml", 160_000_000),
			"archive.eml is 160 MB; Gmail can take emails of at most 150 MB."},
		{"40 MB to send", gmail(dest.GmailSend), bigEmail("big send.eml", 40_000_000),
			"big send.eml is 40 MB; Gmail can send emails of at most 35 MB."},
		{"40 MB as a draft", gmail(dest.GmailDraft), bigEmail("big draft.eml", 40_000_000),
			"big draft.eml is 40 MB; Gmail drafts can be at most 35 MB."},
		{"1.2 GB to Campaign Manager 360", cm360, writeSized(t, dir, "film.mp4", []byte("\x00\x00\x00\x18ftypmp42"), 1_200_000_000),
			"film.mp4 is 1.2 GB; Campaign Manager 360 assets can be at most 1 GB."},
		{"an empty asset", cm360, writeFile(t, dir, "nothing.png", nil),
			"nothing.png is empty (0 bytes); Campaign Manager 360 cannot take an empty file."},
		{"a picture to a URL taking PDFs", dest.Destination{Kind: dest.Custom, Name: "Reports", Params: map[string]string{
			"url": "http://127.0.0.1:9/upload/x", "accept": "application/pdf"}}, pngFile(t, dir, "chart.png", 0),
			"chart.png is of type image/png; Reports accepts only application/pdf."},
		{"a file over a URL's limit", dest.Destination{Kind: dest.Custom, Params: map[string]string{
			"url": "http://127.0.0.1:9/upload/x", "maxSize": "1MB"}}, writeSized(t, dir, "data.bin", []byte{1, 2, 3}, 1_500_000),
			"data.bin is 1.5 MB; this destination takes files of at most 1 MB."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, upload.Auto, 0)
			d := tc.d
			if d.Kind != dest.Custom {
				d.BaseURL = l.url
			}
			v := l.one(d, tc.file)
			if v.State != engine.Refused || reasonOf(v) != tc.reason {
				t.Errorf("state %s, reason %q; want refused: %q", v.State, reasonOf(v), tc.reason)
			}
			if n := len(l.srv.Requests()); n != 0 {
				t.Errorf("the emulator saw %d requests for a refused file", n)
			}
		})
	}
}

func writeSized(t *testing.T, dir, name string, head []byte, n int64) string {
	t.Helper()
	p := writeFile(t, dir, name, head)
	grow(t, p, n)
	return p
}

// TestNotAnEmailToAnyFileDestination: a file named .eml that is not an email
// is only Gmail's problem; a destination that takes any file takes it.
func TestNotAnEmailToAnyFileDestination(t *testing.T) {
	file := filepath.Join(goldenDir(t), "not-an-email.eml")
	l := newLab(t, emulator.Options{}, upload.Auto, 0)
	d := dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2", "assetType": "HTML"}}
	v := l.one(d, file)
	done(t, v)
	if obj := l.object(); obj.SHA256 != sha(t, file) || v.Size != size(t, file) {
		t.Errorf("stored sha %s, row size %d", obj.SHA256, v.Size)
	}
}

// --- Google's errors in plain words ---

func TestGoogleErrorsInPlainWords(t *testing.T) {
	dir := t.TempDir()
	banner := pngFile(t, dir, "banner.png", 0)
	mail := writeFile(t, dir, "hello.eml", emailText("Hello", kib))
	cm360 := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	games := dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "r1", "imageType": "ACHIEVEMENT_ICON"}}
	insert := dest.Destination{Kind: dest.GmailInsert}
	const limit = "The server says this account has hit its upload limit for now. Wait a while before trying again."
	for _, tc := range []struct {
		name     string
		d        dest.Destination
		file     string
		fault    emulator.Answer
		times    int
		state    engine.State
		reason   string
		requests int
	}{
		{"429 until the retries run out", cm360, banner,
			emulator.Answer{Status: http.StatusTooManyRequests}, -1,
			engine.Failed, limit + " Hoist tried several times and gave up for now.", 1 + upload.DefaultMaxOtherRetries},
		{"429 once, then the upload goes through", games, banner,
			emulator.Answer{Status: http.StatusTooManyRequests, RetryAfter: "0"}, 1,
			engine.Done, "", 2},
		{"403 quota exceeded", insert, mail,
			emulator.Answer{Status: http.StatusForbidden, Reason: "quotaExceeded", Message: "Quota exceeded for quota metric 'Queries'."}, -1,
			engine.Failed, limit, 1},
		// Google asks for backoff on a 403 rate limit: it lifts within seconds.
		{"403 rate limit exceeded once, then the upload goes through", cm360, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "rateLimitExceeded", Message: "Rate Limit Exceeded"}, 1,
			engine.Done, "", 2},
		{"403 user rate limit until the retries run out", games, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "userRateLimitExceeded", Message: "User Rate Limit Exceeded"}, -1,
			engine.Failed, limit + " Hoist tried several times and gave up for now.", 1 + upload.DefaultMaxRetries},
		// insufficientPermissions is about the sign-in's permissions (scopes), not the place.
		{"403 insufficient permission: the sign-in's", cm360, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "insufficientPermissions", Message: "Request had insufficient authentication scopes."}, -1,
			engine.Attention, "Hoist needs more access to your Google account for this (dfatrafficking). Sign in again to give it.", 1},
		{"403 permission for the advertiser", cm360, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden", Message: "The user does not have the necessary permissions."}, -1,
			engine.Failed, "This account cannot upload to advertiser 2.", 1},
		{"403 permission for the game", games, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden"}, -1,
			engine.Failed, "This account cannot change the images of that game.", 1},
		{"403 permission for the mailbox", insert, mail,
			emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden"}, -1,
			engine.Failed, "This account cannot add emails to that mailbox.", 1},
		{"400 invalid argument with Google's message", games, banner,
			emulator.Answer{Status: http.StatusBadRequest, Reason: "invalidArgument", Message: "Image dimensions must be 512x512"}, -1,
			engine.Failed, "The server refused the file (error 400).", 1},
		{"404 for a Play Games image: Google removed the method", games, banner,
			emulator.Answer{Status: http.StatusNotFound, Reason: "notFound", Message: "Method not found."}, -1,
			engine.Failed, "Google no longer accepts Play Games images through its API; set the icon in Play Console.", 1},
		{"403 of a switched-off API version", cm360, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "forbidden", Message: "3140 : Version v5 of the API is no longer supported."}, -1,
			engine.Failed, "Campaign Manager 360 no longer supports API v5. Set the destination's API version to the current one (under Advanced; --api-version on the command line), or update Hoist, and send the file again.", 1},
		{"403 for another reason: Google's words, not the account's access", cm360, banner,
			emulator.Answer{Status: http.StatusForbidden, Reason: "domainPolicy", Message: "The domain administrators have disabled this service."}, -1,
			engine.Failed, "The server refused the upload (error 403).", 1},
		{"404 for an advertiser", cm360, banner,
			emulator.Answer{Status: http.StatusNotFound, Reason: "notFound", Message: "Not Found"}, -1,
			engine.Failed, "Campaign Manager 360 could not find user profile 1 or advertiser 2.", 1},
		{"503 until the retries run out", insert, mail,
			emulator.Answer{Status: http.StatusServiceUnavailable}, -1,
			engine.Failed, "The server had a problem on its side (error 503). Try again later. Hoist tried several times and gave up for now.", 1 + upload.DefaultMaxRetries},
	} {
		t.Run(tc.name, func(t *testing.T) {
			method := upload.Auto
			if tc.fault.Status >= 500 {
				// A session's start is asked again; a one-request upload's
				// whole body meeting a 5xx is in doubt instead (below).
				method = upload.Resumable
			}
			l := newLab(t, emulator.Options{}, method, 0)
			inj := l.srv.Inject(emulator.Fault{Times: tc.times, Action: tc.fault})
			d := tc.d
			d.BaseURL = l.url
			v := l.one(d, tc.file)
			if v.State != tc.state || reasonOf(v) != tc.reason {
				t.Errorf("state %s, reason %q; want %s, %q", v.State, reasonOf(v), tc.state, tc.reason)
			}
			// The server's own words come with the sentence, never instead of it.
			if (tc.state == engine.Failed || tc.state == engine.Attention) && tc.fault.Message != "" && (v.Details != tc.fault.Message || v.DetailsFrom != dest.OtherServer) {
				t.Errorf("details %s: %q; want the server's %q", v.DetailsFrom, v.Details, tc.fault.Message)
			}
			if n := len(l.srv.Requests()); n != tc.requests || inj.Count() > tc.requests {
				t.Errorf("%d requests (%d refused), want %d", n, inj.Count(), tc.requests)
			}
		})
	}
	t.Run("503 after the whole email went out: in doubt, not sent again", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Auto, 0)
		l.srv.Inject(emulator.Fault{Times: -1, Action: emulator.Answer{Status: http.StatusServiceUnavailable}})
		d := insert
		d.BaseURL = l.url
		v := l.one(d, mail)
		if v.State != engine.Attention || !strings.Contains(reasonOf(v), "answered only that it had a problem on its side (error 503), so it may or may not have arrived") {
			t.Errorf("state %s, reason %q", v.State, reasonOf(v))
		}
		if n := len(l.srv.Requests()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("the emulator's own refusal of an unknown label", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Auto, 0)
		d := dest.Destination{Kind: dest.GmailInsert, BaseURL: l.url, Params: map[string]string{"labels": "Receipts"}}
		v := l.one(d, mail)
		if want := "The server refused the file (error 400)."; v.State != engine.Failed || reasonOf(v) != want || v.Details != "Invalid label: Receipts" {
			t.Errorf("state %s, reason %q, details %q; want %q", v.State, reasonOf(v), v.Details, want)
		}
	})
	t.Run("sending an email without recipients", func(t *testing.T) {
		l := newLab(t, emulator.Options{}, upload.Auto, 0)
		p := writeFile(t, dir, "no-recipients.eml", []byte("From: a@example.com\r\nSubject: Hi\r\n\r\nHello.\r\n"))
		v := l.one(dest.Destination{Kind: dest.GmailSend, BaseURL: l.url}, p)
		if want := "The server refused the file (error 400)."; v.State != engine.Failed || reasonOf(v) != want || v.Details != "Recipient address required" {
			t.Errorf("state %s, reason %q, details %q; want %q", v.State, reasonOf(v), v.Details, want)
		}
	})
}

// TestResultsAndFallbackOutliveARestart: what the server answered, and that
// resumable was refused, are kept in the journal and shown again after Hoist
// opens it anew.
func TestResultsAndFallbackOutliveARestart(t *testing.T) {
	srv, err := emulator.New(emulator.Options{RefuseResumable: []emulator.Kind{emulator.KindCampaignManager}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	defer srv.Close()
	dir := t.TempDir()
	banner := pngFile(t, dir, "banner.png", 0)
	icon := pngFile(t, dir, "icon.png", 0)
	mail := writeFile(t, dir, "hello.eml", emailText("Hello", kib))
	path := filepath.Join(dir, "uploads.db")

	open := func() (*journal.Journal, *engine.Queue) {
		return openJournaled(t, path, engine.Options{Method: upload.Resumable, Backoff: instant{}})
	}
	shut := func(j *journal.Journal, q *engine.Queue) { shutJournaled(t, j, q) }

	j, q := open()
	l := &lab{t: t, srv: srv, url: ts.URL, q: q}
	before := map[string]engine.JobView{}
	for _, tc := range []struct {
		d    dest.Destination
		file string
	}{
		{dest.Destination{Kind: dest.CM360, BaseURL: ts.URL, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}, banner},
		{dest.Destination{Kind: dest.PlayGames, BaseURL: ts.URL, Params: map[string]string{"resourceId": "r1", "imageType": "ACHIEVEMENT_ICON"}}, icon},
		{dest.Destination{Kind: dest.GmailInsert, BaseURL: ts.URL}, mail},
	} {
		v := l.one(tc.d, tc.file)
		done(t, v)
		before[v.Name] = v
	}
	if v := before["banner.png"]; !v.FellBack || v.Method != upload.Multipart {
		t.Fatalf("banner: fell back %v, method %s", v.FellBack, v.Method)
	}
	shut(j, q)

	j, q = open()
	defer shut(j, q)
	after := q.Jobs()
	if len(after) != len(before) {
		t.Fatalf("%d jobs after reopening, want %d", len(after), len(before))
	}
	for _, v := range after {
		b := before[v.Name]
		if v.State != engine.Done || v.FellBack != b.FellBack || v.Method != b.Method || v.Result == nil {
			t.Errorf("%s after reopening: %s, fell back %v, method %s, result %v; before: fell back %v, method %s",
				v.Name, v.State, v.FellBack, v.Method, v.Result, b.FellBack, b.Method)
			continue
		}
		r, w := *v.Result, *b.Result
		if r.ID != w.ID || r.ThreadID != w.ThreadID || r.Name != w.Name || r.URL != w.URL || summaryOf(&r) != summaryOf(&w) {
			t.Errorf("%s: result after reopening %+v, before %+v", v.Name, r, w)
		}
	}
}

// TestSameFileToTwoDestinationsOfOneKind: one banner for two advertisers is
// two uploads, not a duplicate.
func TestSameFileToTwoDestinationsOfOneKind(t *testing.T) {
	l := newLab(t, emulator.Options{}, upload.Auto, 0)
	release := make(chan struct{})
	l.srv.Inject(emulator.Fault{Times: 1, Action: emulator.Stall{Until: release}})
	banner := pngFile(t, t.TempDir(), "banner.png", 0)
	first := l.q.Add([]string{banner}, dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2"}})
	second := l.q.Add([]string{banner}, dest.Destination{Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "3"}})
	close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := l.q.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if len(first.IDs) != 1 || len(second.IDs) != 1 || len(second.Problems) != 0 {
		t.Fatalf("first %+v, second %+v: want a job each", first, second)
	}
	paths := map[string]bool{}
	for _, o := range l.srv.Objects() {
		paths[o.Path] = true
	}
	for _, adv := range []string{"2", "3"} {
		if p := "/upload/dfareporting/v5/userprofiles/1/creativeAssets/" + adv + "/creativeAssets"; !paths[p] {
			t.Errorf("nothing arrived for advertiser %s", adv)
		}
	}
}

// --- the sandbox ---

func TestSandboxDestination(t *testing.T) {
	dir := t.TempDir()
	file := pngFile(t, dir, "صورة الغلاف.png", 600*kib)
	for _, m := range methods {
		t.Run(m.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, m.method, m.threshold)
			const meta = `{"name":"صورة الغلاف.png"}`
			v := l.one(dest.Destination{Kind: dest.Sandbox, BaseURL: l.url}, file)
			r := done(t, v)
			// The job's mark finds the upload when its answer is lost.
			obj := checkWire(t, l, used(m.method, m.threshold, meta), wire{httpMethod: "POST", path: dest.SandboxPath,
				query: map[string]string{"name": "صورة الغلاف.png", "hoistJob": string(v.ID)}, contentType: "image/png", metadata: meta}, file)
			// The name also travels in the address, so a simple upload keeps it.
			if r.Name != "صورة الغلاف.png" || r.ID != obj.ID || !resultSays(r, fact.Uploaded, "id", obj.ID, "title", "صورة الغلاف.png") ||
				r.URL != l.url+"/sandbox/objects/"+obj.ID {
				t.Errorf("result %+v (fact %+v), want uploaded as %s", r, r.Fact(), obj.ID)
			}
			if want := fmt.Sprintf("Uploaded to the sandbox. Name: صورة الغلاف.png. Id: %s.", obj.ID); summaryOf(r) != want {
				t.Errorf("said %q, want %q", summaryOf(r), want)
			}
		})
	}
	t.Run("the queue's sandbox when the destination names none", func(t *testing.T) {
		srv, err := emulator.New(emulator.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		defer ts.Close()
		defer srv.Close()
		q, err := engine.Open(context.Background(), engine.Options{SandboxURL: ts.URL, Backoff: instant{}})
		if err != nil {
			t.Fatal(err)
		}
		l := &lab{t: t, srv: srv, url: ts.URL, q: q}
		done(t, l.one(dest.Destination{Kind: dest.Sandbox}, file))
		if obj := l.object(); obj.SHA256 != sha(t, file) {
			t.Errorf("stored sha %s", obj.SHA256)
		}
		if err := q.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
}

// TestLimitsAtTheByte: a file of exactly the limit goes, one byte more is
// refused, and Hoist and the emulator agree on where the line is.
func TestLimitsAtTheByte(t *testing.T) {
	dir := t.TempDir()
	games := dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "r1", "imageType": "ACHIEVEMENT_ICON"}}
	for _, tc := range []struct {
		name   string
		size   int64
		reason string
	}{
		{"exactly 15 MiB", dest.PlayGamesMaxSize, ""},
		{"one byte more", dest.PlayGamesMaxSize + 1, "big.png is 16 MB; Play Games images can be at most 15 MB."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t, emulator.Options{}, upload.Media, 0)
			d := games
			d.BaseURL = l.url
			file := pngFile(t, dir, "big.png", tc.size)
			v := l.one(d, file)
			if tc.reason == "" {
				done(t, v)
				if obj := l.object(); obj.Size != tc.size {
					t.Errorf("stored %d bytes", obj.Size)
				}
				return
			}
			if v.State != engine.Refused || reasonOf(v) != tc.reason {
				t.Errorf("state %s, reason %q; want refused: %q", v.State, reasonOf(v), tc.reason)
			}
		})
	}
}

// TestMediaKeepsNothingBack: a simple upload (media) carries the file alone,
// so where the destination has details to send with it (labels, an asset
// name), the file is refused before any byte rather than sent without them.
func TestMediaKeepsNothingBack(t *testing.T) {
	dir := t.TempDir()
	mail := writeFile(t, dir, "note.eml", emailText("Note", kib))
	banner := pngFile(t, dir, "banner.png", 10*kib)
	for _, tc := range []struct {
		d       dest.Destination
		file    string
		refused bool
	}{
		{dest.Destination{Kind: dest.GmailInsert, Params: map[string]string{"labels": "INBOX"}}, mail, true},
		{dest.Destination{Kind: dest.GmailInsert}, mail, false},
		{dest.Destination{Kind: dest.GmailDraft}, mail, false}, // an empty draft says nothing more than the email
		{dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}, banner, true},
		{dest.Destination{Kind: dest.Sandbox}, banner, false}, // its name travels in the address too
	} {
		t.Run(string(tc.d.Kind), func(t *testing.T) {
			l := newLab(t, emulator.Options{}, upload.Media, 0)
			d := tc.d
			d.BaseURL = l.url
			v := l.one(d, tc.file)
			if !tc.refused {
				done(t, v)
				return
			}
			if v.State != engine.Refused || !strings.Contains(reasonOf(v), "cannot go as a simple upload (media)") || len(l.srv.Requests()) != 0 {
				t.Errorf("state %s, reason %q, %d requests; want refused before any byte", v.State, reasonOf(v), len(l.srv.Requests()))
			}
			// Retry checks the file again, by the same rules.
			if err := l.q.Do(v.ID, engine.Retry); err != nil {
				t.Fatal(err)
			}
			if err := l.q.Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			if again, _ := l.q.Job(v.ID); again.State != engine.Refused || len(l.srv.Requests()) != 0 {
				t.Errorf("after Retry: state %s, %d requests; want still refused, nothing sent", again.State, len(l.srv.Requests()))
			}
		})
	}
}

// crc32cOf is a file's CRC32C as Cloud Storage writes it: base64 of its big-endian bytes.
func crc32cOf(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var sum [4]byte
	binary.BigEndian.PutUint32(sum[:], crc32c.Checksum(b))
	return base64.StdEncoding.EncodeToString(sum[:])
}
