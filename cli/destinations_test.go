package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// sendLab is an emulator on loopback and private folders for `hoist send`.
type sendLab struct {
	t       *testing.T
	srv     *emulator.Server
	url     string
	dir     string // files to send
	journal string
}

func newSendLab(t *testing.T, eo emulator.Options) *sendLab {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	srv, err := emulator.New(eo)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	dir := filepath.Join(home, "files")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return &sendLab{t: t, srv: srv, url: ts.URL, dir: dir, journal: filepath.Join(home, "uploads.db")}
}

// send runs `hoist send` with its own journal; --base-url is the caller's to give.
func (l *sendLab) send(args ...string) (code int, stdout, stderr string) {
	l.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	code = Send(ctx, append([]string{"--journal", l.journal}, args...), &out, &errOut)
	return code, out.String(), errOut.String()
}

func (l *sendLab) file(name string, data []byte) string {
	l.t.Helper()
	p := filepath.Join(l.dir, name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		l.t.Fatal(err)
	}
	return p
}

// sized makes the file at p n bytes long, the rest a sparse run of zeros.
func (l *sendLab) sized(name string, head []byte, n int64) string {
	l.t.Helper()
	p := l.file(name, head)
	if err := os.Truncate(p, n); err != nil {
		l.t.Fatal(err)
	}
	return p
}

func (l *sendLab) png(name string) string {
	l.t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 12, 12))
	img.Set(3, 4, color.RGBA{G: 180, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		l.t.Fatal(err)
	}
	return l.file(name, b.Bytes())
}

func (l *sendLab) email(name, subject string, size int) string {
	l.t.Helper()
	var b strings.Builder
	b.WriteString("From: Noa <noa@example.co.il>\r\nTo: office@example.org\r\nSubject: " + subject + "\r\n")
	b.WriteString("Date: Tue, 03 Mar 2026 09:15:00 +0200\r\n\r\n")
	for b.Len() < size {
		b.WriteString("Numbers for the quarter are in the shared folder.\r\n")
	}
	return l.file(name, []byte(b.String()))
}

// objectsBySHA maps the SHA-256 of each stored object to it.
func (l *sendLab) objectsBySHA() map[string]emulator.Object {
	out := map[string]emulator.Object{}
	for _, o := range l.srv.Objects() {
		out[o.SHA256] = o
	}
	return out
}

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// results reads the "result" objects of --json output, by file name.
func results(t *testing.T, stdout string) map[string]jobJSON {
	t.Helper()
	out := map[string]jobJSON{}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	for sc.Scan() {
		var j jobJSON
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			t.Fatalf("--json printed a line that is not JSON: %q: %v", sc.Text(), err)
		}
		if j.Event == "result" {
			out[j.Name] = j
		}
	}
	if len(out) == 0 {
		t.Fatalf("--json printed no result:\n%s", stdout)
	}
	return out
}

func goldenEmails(t *testing.T) (emails []string, notEmail string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "eml", "*.eml"))
	if err != nil || len(paths) < 8 {
		t.Fatalf("golden emails: %v %v", paths, err)
	}
	for _, p := range paths {
		if filepath.Base(p) == "not-an-email.eml" {
			notEmail = p
			continue
		}
		emails = append(emails, p)
	}
	return emails, notEmail
}

// TestSendGoldenEmailsToGmail is `hoist send --to gmail-insert mail/*.eml`
// against the emulator: each message is stored byte for byte and its id printed.
func TestSendGoldenEmailsToGmail(t *testing.T) {
	emails, _ := goldenEmails(t)
	t.Run("every email", func(t *testing.T) {
		l := newSendLab(t, emulator.Options{})
		code, stdout, stderr := l.send(append([]string{"--to", "gmail-insert", "--base-url", l.url}, emails...)...)
		if code != exitOK {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
		}
		stored := l.objectsBySHA()
		if len(stored) != len(emails) {
			t.Errorf("the emulator holds %d messages, want %d", len(stored), len(emails))
		}
		for _, p := range emails {
			obj, ok := stored[fileSHA(t, p)]
			if !ok {
				t.Errorf("%s did not arrive byte for byte", filepath.Base(p))
				continue
			}
			want := fmt.Sprintf("✓ %s: Saved in the mailbox. Id: %s. Not verified: the server gave no size or checksum to compare.\n", filepath.Base(p), obj.ID)
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
			if obj.Action != "gmail.users.messages.insert" || obj.ContentType != "message/rfc822" {
				t.Errorf("%s: stored by %s as %q", filepath.Base(p), obj.Action, obj.ContentType)
			}
		}
		if want := fmt.Sprintf("%d of %d files uploaded", len(emails), len(emails)); !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	})
	t.Run("testdata/eml/*.eml, a file that is not an email among them", func(t *testing.T) {
		l := newSendLab(t, emulator.Options{})
		all, err := filepath.Glob(filepath.Join("..", "testdata", "eml", "*.eml"))
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, _ := l.send(append([]string{"--to", "gmail-insert", "--base-url", l.url}, all...)...)
		if code != exitFailed {
			t.Errorf("exit %d, want %d", code, exitFailed)
		}
		stored := l.objectsBySHA()
		for _, p := range emails {
			obj, ok := stored[fileSHA(t, p)]
			if want := fmt.Sprintf("✓ %s: Saved in the mailbox. Id: %s. Not verified: the server gave no size or checksum to compare.\n", filepath.Base(p), obj.ID); !ok || !strings.Contains(stdout, want) {
				t.Errorf("stored %v; stdout lacks %q:\n%s", ok, want, stdout)
			}
		}
		want := "✗ not-an-email.eml: not-an-email.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
		if n := len(l.srv.Objects()); n != len(emails) {
			t.Errorf("the emulator holds %d messages, want the %d emails", n, len(emails))
		}
		if want := fmt.Sprintf("%d of %d files uploaded", len(emails), len(emails)+1); !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	})
}

// TestSendDoneWhen: the command lines the requirement names.
func TestSendDoneWhen(t *testing.T) {
	t.Run("a banner to Campaign Manager 360", func(t *testing.T) {
		l := newSendLab(t, emulator.Options{})
		banner := l.png("banner.png")
		code, stdout, stderr := l.send("--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", l.url, banner)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		objs := l.srv.Objects()
		if len(objs) != 1 || objs[0].Path != "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets" {
			t.Fatalf("stored %+v", objs)
		}
		want := fmt.Sprintf("✓ banner.png: Added to Campaign Manager 360. Name: banner.png. Id: %s.", objs[0].ID)
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	})
	t.Run("an icon to Play Games", func(t *testing.T) {
		l := newSendLab(t, emulator.Options{})
		icon := l.png("icon.png")
		code, stdout, stderr := l.send("--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, icon)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		objs := l.srv.Objects()
		if len(objs) != 1 || objs[0].Path != "/upload/games/v1configuration/images/r1/imageType/ACHIEVEMENT_ICON" || objs[0].SHA256 != fileSHA(t, icon) {
			t.Fatalf("stored %+v", objs)
		}
		if want := "✓ icon.png: The image is now the achievement's icon. Id: r1. Address: " + l.url + "/games/images/"; !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	})
	t.Run("a 20 MB PNG to Play Games", func(t *testing.T) {
		l := newSendLab(t, emulator.Options{})
		big := l.sized("icon.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), 20_000_000)
		code, stdout, _ := l.send("--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON", "--base-url", l.url, big)
		if code != exitFailed {
			t.Errorf("exit %d, want %d", code, exitFailed)
		}
		if want := "✗ icon.png: icon.png is 20 MB; Play Games images can be at most 15 MB.\n"; !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
		if n := len(l.srv.Requests()); n != 0 {
			t.Errorf("the emulator saw %d requests", n)
		}
	})
}

// TestSendRefusals: files a destination cannot take are refused with a
// sentence, before any byte, and the command fails.
func TestSendRefusals(t *testing.T) {
	_, notEmail := goldenEmails(t)
	for _, tc := range []struct {
		name string
		args []string
		file func(l *sendLab) string
		want string
	}{
		{"a text file to Play Games", []string{"--to", "playgames", "--resource", "r1", "--image-type", "LEADERBOARD_ICON"},
			func(l *sendLab) string { return l.file("notes.txt", []byte("not a picture\n")) },
			"✗ notes.txt: notes.txt is not an image; Play Games accepts only images."},
		{"text named .png to Play Games", []string{"--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON"},
			func(l *sendLab) string { return l.file("icon.png", []byte("not a picture\n")) },
			"✗ icon.png: icon.png is not an image; Play Games accepts only images."},
		{"notes named .eml to Gmail", []string{"--to", "gmail-import"},
			func(*sendLab) string { return notEmail },
			"✗ not-an-email.eml: not-an-email.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"a picture to Gmail", []string{"--to", "gmail-send"},
			func(l *sendLab) string { return l.png("photo.png") },
			"✗ photo.png: photo.png is not an email file; Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"40 MB as a draft", []string{"--to", "gmail-draft"},
			func(l *sendLab) string {
				return l.sized("long.eml", []byte("From: a@example.com\r\nTo: b@example.com\r\nSubject: Long\r\n\r\n"), 40_000_000)
			},
			"✗ long.eml: long.eml is 40 MB; Gmail drafts can be at most 35 MB."},
		{"a picture to a URL that takes PDFs", []string{"--accept", "application/pdf"},
			func(l *sendLab) string { return l.png("chart.png") },
			"✗ chart.png: chart.png is of type image/png; this destination accepts only application/pdf."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			args := append([]string{}, tc.args...)
			if len(args) == 0 || args[0] != "--to" {
				args = append(args, "--to", l.url+"/upload/storage/v1/b/reports/o?name=r.pdf")
			} else {
				args = append(args, "--base-url", l.url)
			}
			code, stdout, stderr := l.send(append(args, tc.file(l))...)
			if code != exitFailed {
				t.Errorf("exit %d, want %d\n%s", code, exitFailed, stderr)
			}
			if !strings.Contains(stdout, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, stdout)
			}
			if n := len(l.srv.Requests()); n != 0 {
				t.Errorf("the emulator saw %d requests", n)
			}
		})
	}
}

// TestSendMethods: --method and --chunk-size reach the wire for each kind.
func TestSendMethods(t *testing.T) {
	type kind struct {
		args []string
		file func(l *sendLab) string
		path string
		ct   string // the file's type on the wire
	}
	kinds := map[string]kind{
		"gmail-insert": {[]string{"--to", "gmail-insert"},
			func(l *sendLab) string { return l.email("big.eml", "Big", 700<<10) },
			"/upload/gmail/v1/users/me/messages", "message/rfc822"},
		"gmail-draft": {[]string{"--to", "gmail-draft"},
			func(l *sendLab) string { return l.email("draft.eml", "Draft", 700<<10) },
			"/upload/gmail/v1/users/me/drafts", "message/rfc822"},
		"cm360": {[]string{"--to", "cm360", "--profile", "1", "--advertiser", "2"},
			func(l *sendLab) string { return l.sized("banner.png", []byte("\x89PNG\r\n\x1a\n"), 700<<10) },
			"/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets", "image/png"},
		"playgames": {[]string{"--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON"},
			func(l *sendLab) string { return l.sized("icon.png", []byte("\x89PNG\r\n\x1a\n"), 700<<10) },
			"/upload/games/v1configuration/images/r1/imageType/ACHIEVEMENT_ICON", "image/png"},
	}
	for name, k := range kinds {
		for _, method := range []string{"media", "multipart", "resumable"} {
			if name == "cm360" && method == "media" {
				continue // an asset needs its metadata
			}
			t.Run(name+", "+method, func(t *testing.T) {
				l := newSendLab(t, emulator.Options{})
				file := k.file(l)
				args := append(append([]string{}, k.args...), "--base-url", l.url, "--method", method, "--chunk-size", "256KiB", "--json", file)
				code, stdout, stderr := l.send(args...)
				if code != exitOK {
					t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
				}
				r := results(t, stdout)[filepath.Base(file)]
				if r.Method != method || r.State != "done" {
					t.Errorf("--json says %s by %s", r.State, r.Method)
				}
				reqs := l.srv.Requests()
				if len(reqs) == 0 || reqs[0].Path != k.path || reqs[0].Query.Get("uploadType") != method {
					t.Fatalf("requests %+v", reqs)
				}
				switch method {
				case "media":
					if len(reqs) != 1 || reqs[0].ContentType != k.ct {
						t.Errorf("media requests %+v, want one of %s", reqs, k.ct)
					}
				case "resumable":
					fi, err := os.Stat(file)
					if err != nil {
						t.Fatal(err)
					}
					if len(reqs) != 4 || reqs[0].UploadContentType != k.ct || reqs[0].UploadContentLength != fmt.Sprint(fi.Size()) {
						t.Errorf("resumable requests %+v, want a start for %s and 3 chunks", reqs, k.ct)
					}
				}
				obj := l.objectsBySHA()[fileSHA(t, file)]
				if obj.UploadType != method || obj.ContentType != k.ct {
					t.Errorf("stored %q by %q, want %s by %s", obj.ContentType, obj.UploadType, k.ct, method)
				}
			})
		}
	}
}

// TestSendGmailSettings: each Gmail flag becomes the query parameter or
// metadata Google documents.
func TestSendGmailSettings(t *testing.T) {
	for _, tc := range []struct {
		name  string
		args  []string
		path  string
		query map[string]string
		meta  string
	}{
		{"insert", []string{"--to", "gmail-insert", "--labels", "INBOX,UNREAD", "--internal-date-source", "dateHeader", "--deleted", "true"},
			"/upload/gmail/v1/users/me/messages",
			map[string]string{"internalDateSource": "dateHeader", "deleted": "true"}, `{"labelIds":["INBOX","UNREAD"]}`},
		{"import", []string{"--to", "gmail-import", "--user", "office@example.org", "--never-mark-spam", "true", "--process-for-calendar", "true"},
			"/upload/gmail/v1/users/office@example.org/messages/import",
			map[string]string{"neverMarkSpam": "true", "processForCalendar": "true"}, `{}`},
		{"send", []string{"--to", "gmail-send"},
			"/upload/gmail/v1/users/me/messages/send", map[string]string{}, `{}`},
		{"send in a conversation", []string{"--to", "gmail-send", "--thread-id", "18c2f0a1b2c3d4e5"},
			"/upload/gmail/v1/users/me/messages/send", map[string]string{}, `{"threadId":"18c2f0a1b2c3d4e5"}`},
		{"draft", []string{"--to", "gmail-draft", "--labels", "IMPORTANT"},
			"/upload/gmail/v1/users/me/drafts", map[string]string{}, `{"message":{"labelIds":["IMPORTANT"]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			file := l.email("note.eml", "Note", 1<<10)
			code, stdout, stderr := l.send(append(tc.args, "--base-url", l.url, "--method", "multipart", "--json", file)...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			reqs := l.srv.Requests()
			if len(reqs) != 1 || reqs[0].Path != tc.path || reqs[0].Method != http.MethodPost {
				t.Fatalf("requests %+v, want one POST to %s", reqs, tc.path)
			}
			q := reqs[0].Query
			q.Del("uploadType")
			if len(q) != len(tc.query) {
				t.Errorf("query %v, want %v", q, tc.query)
			}
			for k, v := range tc.query {
				if q.Get(k) != v {
					t.Errorf("query %s=%q, want %q", k, q.Get(k), v)
				}
			}
			obj := l.srv.Objects()[0]
			var got bytes.Buffer
			if err := json.Compact(&got, obj.Metadata); err != nil || got.String() != tc.meta {
				t.Errorf("metadata %s, want %s", obj.Metadata, tc.meta)
			}
			r := results(t, stdout)["note.eml"].Result
			if r == nil || r.ID == "" || r.ThreadID == "" || len(r.Raw) == 0 {
				t.Fatalf("--json result %+v", r)
			}
			if tc.name == "draft" {
				if r.ID != obj.Draft {
					t.Errorf("--json id %q, want the draft %q", r.ID, obj.Draft)
				}
			} else if r.ID != obj.ID {
				t.Errorf("--json id %q, want the message %q", r.ID, obj.ID)
			}
		})
	}
}

// TestSendDraftUpdate: --draft-id replaces a draft with PUT; an unknown one
// is said in plain words.
func TestSendDraftUpdate(t *testing.T) {
	for _, method := range []string{"multipart", "resumable"} {
		t.Run(method, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			first := l.email("first.eml", "First", 1<<10)
			code, stdout, stderr := l.send("--to", "gmail-draft", "--base-url", l.url, "--json", first)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			draft := results(t, stdout)["first.eml"].Result.ID
			if !regexp.MustCompile(`^r[0-9]+$`).MatchString(draft) {
				t.Fatalf("draft id %q", draft)
			}
			l.srv.ClearRequests()
			second := l.email("second.eml", "Second", 300<<10)
			code, stdout, stderr = l.send("--to", "gmail-draft", "--draft-id", draft, "--base-url", l.url, "--method", method, "--chunk-size", "256KiB", second)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			if want := "✓ second.eml: Draft updated. Id: " + draft + "."; !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
			for _, rq := range l.srv.Requests() {
				if rq.Method != http.MethodPut || rq.Path != "/upload/gmail/v1/users/me/drafts/"+draft {
					t.Errorf("request %s %s, want PUT to the draft", rq.Method, rq.Path)
				}
			}
			objs := l.srv.Objects()
			if last := objs[len(objs)-1]; last.Draft != draft || last.SHA256 != fileSHA(t, second) || last.Action != "gmail.users.drafts.update" {
				t.Errorf("stored %+v", last)
			}

			code, stdout, _ = l.send("--to", "gmail-draft", "--draft-id", "r404", "--base-url", l.url, "--method", method, l.email("third.eml", "Third", 1<<10))
			if code != exitFailed {
				t.Errorf("unknown draft: exit %d", code)
			}
			if want := "✗ third.eml: The draft to update no longer exists."; !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q:\n%s", want, stdout)
			}
		})
	}
}

// TestSendFallbackToMultipart: when the session start is refused,
// Campaign Manager 360 and Play Games send in one request, and --json says so.
func TestSendFallbackToMultipart(t *testing.T) {
	for _, tc := range []struct {
		name   string
		refuse emulator.Kind
		args   []string
		to     string
	}{
		{"cm360", emulator.KindCampaignManager, []string{"--to", "cm360", "--profile", "1", "--advertiser", "2"}, "multipart"},
		{"playgames", emulator.KindPlayGames, []string{"--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON"}, "media"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{RefuseResumable: []emulator.Kind{tc.refuse}})
			file := l.png("banner.png")
			code, stdout, stderr := l.send(append(tc.args, "--base-url", l.url, "--method", "resumable", "--json", file)...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
			}
			r := results(t, stdout)["banner.png"]
			if !r.FellBack || r.Method != tc.to || r.State != "done" {
				t.Errorf("--json: fellBackToMultipart %v, method %q, state %s", r.FellBack, r.Method, r.State)
			}
			if !strings.Contains(stdout, `"fellBackToMultipart":true`) {
				t.Errorf("--json does not say fellBackToMultipart:\n%s", stdout)
			}
			reqs := l.srv.Requests()
			if len(reqs) != 2 || reqs[0].Status != http.StatusBadRequest || reqs[1].Query.Get("uploadType") != tc.to {
				t.Errorf("requests %+v", reqs)
			}
		})
	}
}

// TestSendJSONResults: what each destination answered, in --json.
func TestSendJSONResults(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	mail := l.email("hello.eml", "Hello", 1<<10)
	banner := l.png("Sale (50%) banner.png")
	icon := l.png("icon.png")

	code, stdout, stderr := l.send("--to", "gmail-import", "--base-url", l.url, "--json", mail)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := results(t, stdout)["hello.eml"]
	msg := l.srv.Objects()[0]
	if r.Result == nil || r.Result.ID != msg.ID || r.Result.ThreadID != msg.ID || r.Result.Summary != "Imported into the mailbox. Id: "+msg.ID+"." {
		t.Errorf("gmail result %+v, want message and thread %s", r.Result, msg.ID)
	}

	code, stdout, stderr = l.send("--to", "cm360", "--profile", "1", "--advertiser", "2", "--asset-type", "HTML_IMAGE", "--base-url", l.url, "--json", banner)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r = results(t, stdout)["Sale (50%) banner.png"]
	asset := l.srv.Objects()[1]
	if r.Result == nil || r.Result.ID != asset.ID || r.Result.Name != "Sale 50_ banner.png" || asset.Name != "Sale 50_ banner.png" {
		t.Errorf("cm360 result %+v, stored %q as %s", r.Result, asset.Name, asset.ID)
	}

	code, stdout, stderr = l.send("--to", "playgames", "--resource", "r1", "--image-type", "LEADERBOARD_ICON", "--base-url", l.url, "--json", icon)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r = results(t, stdout)["icon.png"]
	image := l.srv.Objects()[2]
	if r.Result == nil || r.Result.ID != "r1" || r.Result.URL != l.url+"/games/images/"+image.ID+".png" {
		t.Errorf("playgames result %+v", r.Result)
	}
	resp, err := http.Get(r.Result.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the image URL answers %d", resp.StatusCode)
	}
}

// TestSendGoogleErrorsInPlainWords: Google's error answers are sentences on the row.
func TestSendGoogleErrorsInPlainWords(t *testing.T) {
	cm360 := []string{"--to", "cm360", "--profile", "1", "--advertiser", "2"}
	for _, tc := range []struct {
		name  string
		args  []string
		fault emulator.Answer
		want  string
	}{
		{"insufficient permission", cm360,
			emulator.Answer{Status: http.StatusForbidden, Reason: "insufficientPermissions", Message: "User does not have permission."},
			// About the sign-in's permissions, not the advertiser: signing in again mends it.
			"✗ banner.png: Hoist needs more access to your Google account for this (dfatrafficking). Sign in again to give it."},
		{"quota exceeded", cm360,
			emulator.Answer{Status: http.StatusForbidden, Reason: "quotaExceeded", Message: "Quota exceeded."},
			"✗ banner.png: The server says this account has hit its upload limit for now. Wait a while before trying again."},
		{"too many requests", cm360,
			emulator.Answer{Status: http.StatusTooManyRequests, RetryAfter: "0"},
			"✗ banner.png: The server says this account has hit its upload limit for now. Wait a while before trying again. Hoist tried several times and gave up for now."},
		{"invalid argument", []string{"--to", "playgames", "--resource", "r1", "--image-type", "ACHIEVEMENT_ICON"},
			emulator.Answer{Status: http.StatusBadRequest, Reason: "invalidArgument", Message: "Image must be at least 512x512 pixels"},
			"✗ banner.png: The server refused the file (error 400). The server said: “Image must be at least 512x512 pixels” Sending it again as it is would be refused the same way"},
		{"too large", cm360,
			emulator.Answer{Status: http.StatusRequestEntityTooLarge, Message: "Payload too large"},
			"Sending it again cannot help: Campaign Manager 360 will not take a file this large. Remove it with hoist queue remove "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			l.srv.Inject(emulator.Fault{Times: -1, Action: tc.fault})
			code, stdout, _ := l.send(append(tc.args, "--base-url", l.url, l.png("banner.png"))...)
			if code != exitFailed {
				t.Errorf("exit %d, want %d", code, exitFailed)
			}
			if !strings.Contains(stdout, tc.want) {
				t.Errorf("stdout lacks %q:\n%s", tc.want, stdout)
			}
			if tc.name != "quota exceeded" && tc.name != "too many requests" && strings.Contains(stdout, `to try again`) {
				t.Errorf("the next step offers to send again what would be refused the same way:\n%s", stdout)
			}
		})
	}
}

// TestSendToSavedDestination: a preset is used by its name.
func TestSendToSavedDestination(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	presets, err := dest.OpenPresets(dest.DefaultPresetsPath())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(presets.Path(), os.Getenv("XDG_CONFIG_HOME")) {
		t.Fatalf("presets at %s, outside the test's config folder", presets.Path())
	}
	for _, d := range []dest.Destination{
		{Name: "Banners for ACME", Kind: dest.CM360, BaseURL: l.url, Params: map[string]string{"profileId": "1", "advertiserId": "2"}},
		{Name: "Office archive", Kind: dest.GmailImport, Params: map[string]string{"labels": "Label_7", "neverMarkSpam": "true"}},
	} {
		if err := presets.Put(d); err != nil {
			t.Fatal(err)
		}
	}

	banner := l.png("banner.png")
	code, stdout, stderr := l.send("--to", "Banners for ACME", banner)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	objs := l.srv.Objects()
	if len(objs) != 1 || objs[0].Path != "/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets" {
		t.Fatalf("stored %+v", objs)
	}
	if want := "✓ banner.png: Added to Campaign Manager 360. Name: banner.png. Id: " + objs[0].ID; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}

	t.Run("flags add to the saved settings", func(t *testing.T) {
		code, stdout, stderr := l.send("--to", "banners for acme", "--advertiser", "3", "--asset-type", "HTML", l.png("page.png"))
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		objs := l.srv.Objects()
		last := objs[len(objs)-1]
		if last.Path != "/upload/dfareporting/v5/userprofiles/1/creativeAssets/3/creativeAssets" || !strings.Contains(string(last.Metadata), `"type":"HTML"`) {
			t.Errorf("stored at %s with %s", last.Path, last.Metadata)
		}
		if saved, _ := presets.Get("Banners for ACME"); saved.Params["advertiserId"] != "2" {
			t.Errorf("the saved destination changed: %+v", saved)
		}
	})
	t.Run("a saved Gmail destination pointed at the emulator with --base-url", func(t *testing.T) {
		mail := l.email("archive.eml", "Archive", 1<<10)
		code, stdout, stderr := l.send("--to", "Office archive", "--base-url", l.url, "--method", "multipart", mail)
		if code != exitOK {
			t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
		}
		objs := l.srv.Objects()
		last := objs[len(objs)-1]
		if last.Action != "gmail.users.messages.import" || string(last.Metadata) != `{"labelIds":["Label_7"]}` {
			t.Errorf("stored by %s with %s", last.Action, last.Metadata)
		}
		reqs := l.srv.Requests()
		if q := reqs[len(reqs)-1].Query; q.Get("neverMarkSpam") != "true" {
			t.Errorf("query %v", q)
		}
	})
	t.Run("a name nobody saved", func(t *testing.T) {
		code, _, stderr := l.send("--to", "Banners for Initech", banner)
		if code != exitUsage || !strings.Contains(stderr, `"Banners for Initech" is neither a kind of destination nor a saved one.`) {
			t.Errorf("exit %d, stderr %q", code, stderr)
		}
	})
}

// TestSendToAnUploadURL: --to with an address, its metadata and limits.
func TestSendToAnUploadURL(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	pdf := l.file("report.pdf", append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("x"), 4<<10)...))
	code, stdout, stderr := l.send("--to", l.url+"/upload/storage/v1/b/reports/o?name=report.pdf",
		"--metadata", `{"name":"report.pdf","contentLanguage":"ar"}`, "--accept", "application/pdf", "--max-size", "1MiB", "--json", pdf)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	obj := l.srv.Objects()[0]
	if obj.ContentType != "application/pdf" || obj.Name != "report.pdf" || obj.SHA256 != fileSHA(t, pdf) || obj.UploadType != "multipart" {
		t.Errorf("stored %+v", obj)
	}
	r := results(t, stdout)["report.pdf"].Result
	if r == nil || r.Name != "report.pdf" || r.ID != "reports/report.pdf/"+mustGeneration(t, obj.Response) {
		t.Errorf("--json result %+v", r)
	}
	var answer map[string]any
	if err := json.Unmarshal(r.Raw, &answer); err != nil || answer["contentLanguage"] != "ar" {
		t.Errorf("--json response %s", r.Raw)
	}
}

func mustGeneration(t *testing.T, body []byte) string {
	t.Helper()
	var a struct {
		Generation string `json:"generation"`
	}
	if err := json.Unmarshal(body, &a); err != nil || a.Generation == "" {
		t.Fatalf("answer %s", body)
	}
	return a.Generation
}

// TestSendToSavedDestinationWithDamagedPresets: when the saved destinations
// cannot be read, a name that is not a kind says so, rather than that no
// such destination was ever saved.
func TestSendToSavedDestinationWithDamagedPresets(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	path := dest.DefaultPresetsPath()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"version": 1, "destinations": [{"name": "Banners for ACME", "kind": "cm360"`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := l.send("--to", "Banners for ACME", l.png("banner.png"))
	if code == exitOK {
		t.Fatalf("exit %d", code)
	}
	if strings.Contains(stderr, "is neither a kind of destination nor a saved one") || !strings.Contains(stderr, "damaged") {
		t.Errorf("stderr does not say the saved destinations are damaged:\n%s", stderr)
	}
	if n := len(l.srv.Requests()); n != 0 {
		t.Errorf("the emulator saw %d requests", n)
	}
}

// TestSendIncompleteDestination: missing or wrong settings are said in
// plain words before anything is queued.
func TestSendIncompleteDestination(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"cm360 without its ids", []string{"--to", "cm360"}, "User profile ID is required. Advertiser ID is required."},
		{"cm360 with a name for a number", []string{"--to", "cm360", "--profile", "acme", "--advertiser", "2"}, "User profile ID must be a number, like 1234567."},
		{"playgames with an unknown image type", []string{"--to", "playgames", "--resource", "r1", "--image-type", "BANNER"},
			"Image type must be one of ACHIEVEMENT_ICON, LEADERBOARD_ICON."},
		{"a Gmail setting on the wrong kind", []string{"--to", "gmail-send", "--never-mark-spam", "true"},
			`"neverMarkSpam" is not a setting of Gmail — send emails.`},
		{"a date source Gmail does not know", []string{"--to", "gmail-insert", "--internal-date-source", "yesterday"},
			"Date Gmail shows must be one of receivedTime, dateHeader."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newSendLab(t, emulator.Options{})
			code, stdout, stderr := l.send(append(tc.args, "--base-url", l.url, l.png("file.png"))...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, exitUsage, tc.want)
			}
			if stdout != "" || len(l.srv.Requests()) != 0 {
				t.Errorf("stdout %q, %d requests", stdout, len(l.srv.Requests()))
			}
		})
	}
}

// TestSendSaysWhenItFellBack: the human output, like the window, says that
// the file went in one piece because the destination refused resumable.
func TestSendSaysWhenItFellBack(t *testing.T) {
	l := newSendLab(t, emulator.Options{RefuseResumable: []emulator.Kind{emulator.KindCampaignManager}})
	code, stdout, stderr := l.send("--to", "cm360", "--profile", "1", "--advertiser", "2", "--base-url", l.url, "--method", "resumable", l.png("banner.png"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var final string
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "✓ banner.png: ") {
			final = line
		}
	}
	if !strings.Contains(final, "Added to Campaign Manager 360. Name: banner.png. Id: ") || !strings.Contains(final, "in one piece") {
		t.Errorf("the result line does not say the file went in one piece: %q\n%s", final, stdout)
	}
}

// TestSendGoogleURLThroughBaseURL: a Google upload URL pointed at a test
// server keeps its path and query, and the server gets no sign-in.
func TestSendGoogleURLThroughBaseURL(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	pdf := l.file("brief.pdf", append([]byte("%PDF-1.4\n"), bytes.Repeat([]byte("y"), 300<<10)...))
	code, stdout, stderr := l.send("--to", "https://storage.googleapis.com/upload/storage/v1/b/acme-briefs/o?name=brief.pdf",
		"--scope", "devstorage.read_write", "--base-url", l.url, "--method", "resumable", "--chunk-size", "256KiB", pdf)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	reqs := l.srv.Requests()
	if len(reqs) != 3 || reqs[0].Path != "/upload/storage/v1/b/acme-briefs/o" || reqs[0].Query.Get("name") != "brief.pdf" || reqs[0].UploadContentType != "application/pdf" {
		t.Fatalf("requests %+v", reqs)
	}
	for _, r := range reqs {
		if r.Authorization {
			t.Errorf("a sign-in went to the test server: %+v", r)
		}
	}
	obj := l.srv.Objects()[0]
	if obj.SHA256 != fileSHA(t, pdf) || obj.Action != "storage.objects.insert" {
		t.Errorf("stored %+v", obj)
	}
	if want := "✓ brief.pdf: Uploaded to this destination. Name: brief.pdf. Id: acme-briefs/brief.pdf/"; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	if want := "Verified: the server's CRC32C matches the file."; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
}

// TestSendSaysVerified: a done file whose server gave its checksum says it
// matched, in --json too.
func TestSendSaysVerified(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	file := l.sized("notes.bin", []byte("notes"), 300<<10)
	code, stdout, stderr := l.send("--to", l.url+"/upload/sandbox/v1/files?name=notes.bin", "--json", file)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := results(t, stdout)["notes.bin"]
	if r.State != "done" || r.Result == nil || r.Result.Verified != "crc32c" {
		t.Errorf("--json says %s, result %+v", r.State, r.Result)
	}
}
