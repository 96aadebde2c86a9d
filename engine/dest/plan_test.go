package dest

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"hoist/engine/media"
	"hoist/engine/upload"
)

func email(name string, size int64) media.Info {
	return media.Info{
		Path: "/home/user/" + name, Name: name, Size: size, MIME: "message/rfc822",
		Email: &media.Email{From: "a@example.com", Subject: "hi", Date: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)},
	}
}

func file(name, mime string, size int64) media.Info {
	return media.Info{Path: "/home/user/" + name, Name: name, Size: size, MIME: mime}
}

func TestPlan(t *testing.T) {
	const (
		insertScope = "https://www.googleapis.com/auth/gmail.insert"
		cmScope     = "https://www.googleapis.com/auth/dfatrafficking"
	)
	tests := []struct {
		name     string
		d        Destination
		info     media.Info
		url      string
		method   string
		metadata string
		ctype    string
		fallback bool
		max      int64
		scopes   []string
	}{
		{
			name: "sandbox with its address in settings",
			d:    Destination{Kind: Sandbox, Params: map[string]string{"url": "http://127.0.0.1:8080/"}},
			info: file("تقرير_الحملة_2026.png", "image/png", 10<<30),
			url:  "http://127.0.0.1:8080/upload/sandbox/v1/files?name=%D8%AA%D9%82%D8%B1%D9%8A%D8%B1_%D8%A7%D9%84%D8%AD%D9%85%D9%84%D8%A9_2026.png", method: "POST",
			metadata: `{"name":"تقرير_الحملة_2026.png"}`, ctype: "image/png",
		},
		{
			name: "sandbox given by the caller, empty file",
			d:    Destination{Kind: Sandbox, BaseURL: "http://127.0.0.1:39999"},
			info: file("Tom & Jerry.txt", "", 0),
			url:  "http://127.0.0.1:39999/upload/sandbox/v1/files?name=Tom+%26+Jerry.txt", method: "POST",
			metadata: `{"name":"Tom & Jerry.txt"}`, ctype: "application/octet-stream",
		},
		{
			name: "gmail insert, defaults",
			d:    Destination{Kind: GmailInsert},
			info: email("report.eml", 2048),
			url:  "https://gmail.googleapis.com/upload/gmail/v1/users/me/messages", method: "POST",
			ctype: "message/rfc822", max: 150 << 20, scopes: []string{insertScope},
		},
		{
			name: "gmail insert, every setting",
			d: Destination{Kind: GmailInsert, Params: map[string]string{
				"user": "boss@example.com", "labels": " INBOX, UNREAD ,,Label_12 ", "threadId": "18c2f1a9b3d4e5f6",
				"internalDateSource": "dateheader", "deleted": "true",
			}},
			info: email("report.eml", 2048),
			url:  "https://gmail.googleapis.com/upload/gmail/v1/users/boss@example.com/messages?deleted=true&internalDateSource=dateHeader", method: "POST",
			metadata: `{"labelIds":["INBOX","UNREAD","Label_12"],"threadId":"18c2f1a9b3d4e5f6"}`,
			ctype:    "message/rfc822", max: 150 << 20, scopes: []string{insertScope},
		},
		{
			name: "gmail import",
			d: Destination{Kind: GmailImport, Params: map[string]string{
				"neverMarkSpam": "true", "processForCalendar": "1", "deleted": "false", "labels": "IMPORTANT",
			}},
			info: email("invite.eml", 2048),
			url:  "https://gmail.googleapis.com/upload/gmail/v1/users/me/messages/import?neverMarkSpam=true&processForCalendar=true", method: "POST",
			metadata: `{"labelIds":["IMPORTANT"]}`,
			ctype:    "message/rfc822", max: 150 << 20, scopes: []string{insertScope},
		},
		{
			name: "gmail send in a thread",
			d:    Destination{Kind: GmailSend, Params: map[string]string{"threadId": "abc123"}},
			info: email("reply.eml", 100),
			url:  "https://gmail.googleapis.com/upload/gmail/v1/users/me/messages/send", method: "POST",
			metadata: `{"threadId":"abc123"}`,
			ctype:    "message/rfc822", max: 35 << 20, scopes: []string{"https://www.googleapis.com/auth/gmail.send"},
		},
		{
			name: "gmail new draft",
			d:    Destination{Kind: GmailDraft},
			info: email("draft.eml", 100),
			url:  "https://gmail.googleapis.com/upload/gmail/v1/users/me/drafts", method: "POST",
			metadata: `{"message":{}}`,
			ctype:    "message/rfc822", max: 35 << 20, scopes: []string{"https://www.googleapis.com/auth/gmail.compose"},
		},
		{
			name: "gmail draft update with labels, on a test server",
			d: Destination{Kind: GmailDraft, BaseURL: "http://127.0.0.1:5000/", Params: map[string]string{
				"draftId": "r-5577", "labels": "STARRED", "threadId": "t1",
			}},
			info: email("draft.eml", 100),
			url:  "http://127.0.0.1:5000/upload/gmail/v1/users/me/drafts/r-5577", method: "PUT",
			metadata: `{"message":{"labelIds":["STARRED"],"threadId":"t1"}}`,
			ctype:    "message/rfc822", max: 35 << 20, scopes: []string{"https://www.googleapis.com/auth/gmail.compose"},
		},
		{
			name: "cm360 image",
			d:    Destination{Kind: CM360, Params: map[string]string{"profileId": "1234567", "advertiserId": "7654321"}},
			info: file("Summer sale (v2)!.png", "image/png", 50_000),
			url:  "https://dfareporting.googleapis.com/upload/dfareporting/v5/userprofiles/1234567/creativeAssets/7654321/creativeAssets", method: "POST",
			metadata: `{"assetIdentifier":{"name":"Summer sale v2.png","type":"HTML_IMAGE"}}`,
			ctype:    "image/png", fallback: true, max: 1 << 30, scopes: []string{cmScope},
		},
		{
			name: "cm360 video, v5, sandbox host",
			d: Destination{Kind: CM360, BaseURL: "http://127.0.0.1:7000", Params: map[string]string{
				"profileId": "1", "advertiserId": "2", "apiVersion": "v5",
			}},
			info: file("spot 30s.mp4", "video/mp4", 5_000_000),
			url:  "http://127.0.0.1:7000/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets", method: "POST",
			metadata: `{"assetIdentifier":{"name":"spot 30s.mp4","type":"VIDEO"}}`,
			ctype:    "video/mp4", fallback: true, max: 1 << 30, scopes: []string{cmScope},
		},
		{
			name: "cm360 html5 zip",
			d:    Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}},
			info: file("banner.zip", "application/zip", 80_000),
			url:  "https://dfareporting.googleapis.com/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets", method: "POST",
			metadata: `{"assetIdentifier":{"name":"banner.zip","type":"HTML"}}`,
			ctype:    "application/zip", fallback: true, max: 1 << 30, scopes: []string{cmScope},
		},
		{
			name: "cm360 audio, type chosen by the user",
			d:    Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2", "assetType": "audio"}},
			info: file("jingle.bin", "application/octet-stream", 1000),
			url:  "https://dfareporting.googleapis.com/upload/dfareporting/v5/userprofiles/1/creativeAssets/2/creativeAssets", method: "POST",
			metadata: `{"assetIdentifier":{"name":"jingle.bin","type":"AUDIO"}}`,
			ctype:    "application/octet-stream", fallback: true, max: 1 << 30, scopes: []string{cmScope},
		},
		{
			name: "play games icon",
			d:    Destination{Kind: PlayGames, Params: map[string]string{"resourceId": "CgkI9tXr_ZgSEAIQAQ", "imageType": "LEADERBOARD_ICON"}},
			info: file("icon.png", "image/png", 40_000),
			url:  "https://www.googleapis.com/upload/games/v1configuration/images/CgkI9tXr_ZgSEAIQAQ/imageType/LEADERBOARD_ICON", method: "POST",
			ctype: "image/png", fallback: true, max: 15 << 20, scopes: []string{"https://www.googleapis.com/auth/androidpublisher"},
		},
		{
			name: "custom cloud storage",
			d: Destination{Kind: Custom, Name: "Bucket", Params: map[string]string{
				"url":      "https://storage.googleapis.com/upload/storage/v1/b/my-bucket/o?name=photos%2Fa.png",
				"metadata": "{\n  \"cacheControl\": \"no-cache\"\n}",
				"scope":    "devstorage.read_write",
				"maxSize":  "5GiB",
				"accept":   "image/*",
			}},
			info: file("a.png", "image/png", 1000),
			url:  "https://storage.googleapis.com/upload/storage/v1/b/my-bucket/o?name=photos%2Fa.png", method: "POST",
			metadata: `{"cacheControl":"no-cache"}`,
			ctype:    "image/png", max: 5 << 30, scopes: []string{"https://www.googleapis.com/auth/devstorage.read_write"},
		},
		{
			name: "custom PUT to a local server",
			d:    Destination{Kind: Custom, Params: map[string]string{"url": "http://localhost:9000/upload/things/42", "httpMethod": "put"}},
			info: file("empty.dat", "application/octet-stream", 0),
			url:  "http://localhost:9000/upload/things/42", method: "PUT",
			ctype: "application/octet-stream",
		},
		{
			name: "custom PATCH of a Drive file",
			d: Destination{Kind: Custom, Params: map[string]string{
				"url": "https://www.googleapis.com/upload/drive/v3/files/FILE1", "httpMethod": "patch",
				"scope": "https://www.googleapis.com/auth/drive.file",
			}},
			info: file("report.pdf", "application/pdf", 10),
			url:  "https://www.googleapis.com/upload/drive/v3/files/FILE1", method: "PATCH",
			ctype: "application/pdf", scopes: []string{"https://www.googleapis.com/auth/drive.file"},
		},
		{
			name: "custom metadata names the type: it wins over sniffing",
			d: Destination{Kind: Custom, Params: map[string]string{
				"url": "http://127.0.0.1:9/upload/storage/v1/b/b/o", "accept": "text/csv",
				"metadata": `{"name": "data.csv", "contentType": "Text/CSV; charset=utf-8"}`,
			}},
			info: file("data.csv", "text/plain", 10),
			url:  "http://127.0.0.1:9/upload/storage/v1/b/b/o", method: "POST",
			metadata: `{"name":"data.csv","contentType":"Text/CSV; charset=utf-8"}`,
			ctype:    "text/csv",
		},
		{
			// A Google Docs type asks Drive to convert the file; the bytes keep their own type.
			name: "custom metadata names a Drive conversion",
			d: Destination{Kind: Custom, Params: map[string]string{
				"url": "http://127.0.0.1:9/upload/drive/v3/files", "metadata": `{"mimeType": "application/vnd.google-apps.spreadsheet"}`,
			}},
			info: file("budget.csv", "text/csv", 10),
			url:  "http://127.0.0.1:9/upload/drive/v3/files", method: "POST",
			metadata: `{"mimeType":"application/vnd.google-apps.spreadsheet"}`,
			ctype:    "text/csv",
		},
		{
			name: "custom metadata names a Drive mimeType",
			d: Destination{Kind: Custom, Params: map[string]string{
				"url": "http://127.0.0.1:9/upload/drive/v3/files", "metadata": `{"mimeType": "text/markdown"}`,
			}},
			info: file("notes.txt", "text/plain", 10),
			url:  "http://127.0.0.1:9/upload/drive/v3/files", method: "POST",
			metadata: `{"mimeType":"text/markdown"}`,
			ctype:    "text/markdown",
		},
		{
			name: "custom moved to a test server",
			d: Destination{Kind: Custom, BaseURL: "http://127.0.0.1:4000/prefix/", Params: map[string]string{
				"url": "https://www.googleapis.com/upload/drive/v3/files?supportsAllDrives=true", "scope": "https://www.googleapis.com/auth/drive.file",
			}},
			info: file("a.pdf", "application/pdf", 10),
			url:  "http://127.0.0.1:4000/prefix/upload/drive/v3/files?supportsAllDrives=true", method: "POST",
			ctype: "application/pdf", scopes: []string{"https://www.googleapis.com/auth/drive.file"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.d.Plan(tt.info)
			if err != nil {
				t.Fatal(err)
			}
			if p.Target.URL != tt.url {
				t.Errorf("URL = %s\n want %s", p.Target.URL, tt.url)
			}
			if p.Target.HTTPMethod != tt.method {
				t.Errorf("HTTPMethod = %q, want %q", p.Target.HTTPMethod, tt.method)
			}
			if string(p.Target.Metadata) != tt.metadata {
				t.Errorf("Metadata = %s, want %s", p.Target.Metadata, tt.metadata)
			}
			if tt.metadata == "" && p.Target.Metadata != nil {
				t.Errorf("Metadata = %q, want nil", p.Target.Metadata)
			}
			if p.Target.ContentType != tt.ctype {
				t.Errorf("ContentType = %q, want %q", p.Target.ContentType, tt.ctype)
			}
			if p.Target.FallbackToMultipart != tt.fallback {
				t.Errorf("FallbackToMultipart = %v", p.Target.FallbackToMultipart)
			}
			if p.Method != upload.Auto {
				t.Errorf("Method = %q", p.Method)
			}
			if p.MaxSize != tt.max {
				t.Errorf("MaxSize = %d, want %d", p.MaxSize, tt.max)
			}
			if len(p.Scopes) != len(tt.scopes) || (len(tt.scopes) > 0 && p.Scopes[0] != tt.scopes[0]) {
				t.Errorf("Scopes = %q, want %q", p.Scopes, tt.scopes)
			}
		})
	}
}

func TestPlanSandboxNotRunning(t *testing.T) {
	_, err := Destination{Kind: Sandbox}.Plan(file("a.png", "image/png", 1))
	if !errors.Is(err, ErrNoSandbox) {
		t.Fatalf("err = %v, want ErrNoSandbox", err)
	}
}

func TestPlanInvalidSettings(t *testing.T) {
	_, err := Destination{Kind: CM360}.Plan(file("a.png", "image/png", 1))
	var fe FieldErrors
	if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) || fe.For("profileId") == "" {
		t.Fatalf("err = %v, want field errors for the missing ids", err)
	}
}

func TestPlanRefusals(t *testing.T) {
	cm := Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	games := Destination{Kind: PlayGames, Params: map[string]string{"resourceId": "r1", "imageType": "ACHIEVEMENT_ICON"}}
	bucket := Destination{Kind: Custom, Name: "My bucket", Params: map[string]string{
		"url": "https://storage.googleapis.com/upload/storage/v1/b/b/o", "scope": "devstorage.read_write",
		"accept": "image/*, video/*", "maxSize": "16MB",
	}}
	notEmail := file("report.eml", "text/plain", 300)
	notParsed := file("odd.eml", "message/rfc822", 300)

	tests := []struct {
		name    string
		d       Destination
		info    media.Info
		rule    Rule
		message string
	}{
		{"text to gmail", Destination{Kind: GmailInsert}, file("notes.txt", "text/plain", 120), RuleType,
			"notes.txt is not an email file; Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"image to gmail drafts", Destination{Kind: GmailDraft}, file("logo.png", "image/png", 120), RuleType,
			"logo.png is not an email file; Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"an .eml that is not an email", Destination{Kind: GmailImport}, notEmail, RuleEmail,
			"report.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"an email type without headers", Destination{Kind: GmailSend}, notParsed, RuleEmail,
			"odd.eml does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."},
		{"empty email", Destination{Kind: GmailInsert}, email("empty.eml", 0), RuleEmpty,
			"empty.eml is empty (0 bytes); Gmail cannot take an empty email."},
		{"too big to send", Destination{Kind: GmailSend}, email("big.eml", 40_000_000), RuleSize,
			"big.eml is 40 MB; Gmail can send emails of at most 35 MB."},
		{"just over the send limit", Destination{Kind: GmailSend}, email("big.eml", 35<<20+1), RuleSize,
			"big.eml is 37 MB; Gmail can send emails of at most 35 MB."},
		{"too big for a draft", Destination{Kind: GmailDraft}, email("big.eml", 36_800_000), RuleSize,
			"big.eml is 37 MB; Gmail drafts can be at most 35 MB."},
		{"too big to insert", Destination{Kind: GmailInsert}, email("archive.eml", 160_000_000), RuleSize,
			"archive.eml is 160 MB; Gmail can take emails of at most 150 MB."},
		{"tiff too big for play games", games, file("photo.tiff", "image/tiff", 22_000_000), RuleSize,
			"photo.tiff is 22 MB; Play Games images can be at most 15 MB."},
		{"pdf to play games", games, file("manual.pdf", "application/pdf", 1000), RuleType,
			"manual.pdf is not an image; Play Games accepts only images."},
		{"empty icon", games, file("icon.png", "image/png", 0), RuleEmpty,
			"icon.png is empty (0 bytes); Play Games cannot take an empty image."},
		{"huge video for cm360", cm, file("movie.mp4", "video/mp4", 1_200_000_000), RuleSize,
			"movie.mp4 is 1.2 GB; Campaign Manager 360 assets can be at most 1 GB."},
		{"empty asset", cm, file("banner.png", "image/png", 0), RuleEmpty,
			"banner.png is empty (0 bytes); Campaign Manager 360 cannot take an empty file."},
		{"custom type list", bucket, file("data.csv", "text/csv", 10), RuleType,
			"data.csv is of type text/csv; My bucket accepts only image/*, video/*."},
		{"custom metadata names a type the list lacks", Destination{Kind: Custom, Name: "My bucket", Params: map[string]string{
			"url": "http://127.0.0.1:9/upload/x", "accept": "image/*", "metadata": `{"contentType": "application/pdf"}`,
		}}, file("scan.png", "image/png", 10), RuleType,
			"scan.png is of type application/pdf; My bucket accepts only image/*."},
		{"custom unknown type", bucket, file("blob", "", 10), RuleType,
			"blob is of a type Hoist cannot tell; My bucket accepts only image/*, video/*."},
		{"custom limit that formats alike", bucket, file("x.png", "image/png", 16_000_001), RuleSize,
			"x.png is 16,000,001 bytes; My bucket takes files of at most 16,000,000 bytes."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.d.Plan(tt.info)
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("err = %v, want a refusal", err)
			}
			if r.Rule != tt.rule {
				t.Errorf("Rule = %q, want %q", r.Rule, tt.rule)
			}
			if got := SayEnglish(err); got != tt.message {
				t.Errorf("message = %q\n         want %q", got, tt.message)
			}
			if errors.Is(err, media.ErrEmpty) != (tt.rule == RuleEmpty) {
				t.Errorf("errors.Is(err, media.ErrEmpty) = %v", errors.Is(err, media.ErrEmpty))
			}
		})
	}

	accepted := []struct {
		name string
		d    Destination
		info media.Info
	}{
		{"exactly the insert limit", Destination{Kind: GmailInsert}, email("a.eml", 150<<20)},
		{"exactly the play games limit", games, file("a.png", "image/png", 15<<20)},
		{"svg icon", games, file("a.svg", "image/svg+xml", 100)},
		{"anything to cm360", cm, file("a.pdf", "application/pdf", 1<<30)},
		{"custom within its limit", bucket, file("a.mp4", "video/mp4", 16_000_000)},
		{"empty file to the sandbox", Destination{Kind: Sandbox, BaseURL: "http://127.0.0.1:1"}, file("e", "", 0)},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.d.Plan(tt.info); err != nil {
				t.Errorf("refused: %v", err)
			}
		})
	}
}

// TestPlanGoldenEmails inspects the golden files and plans them for Gmail.
func TestPlanGoldenEmails(t *testing.T) {
	files, _, problems := media.Expand([]string{"../../testdata/eml"})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var emails int
	for _, f := range files {
		if filepath.Ext(f) != ".eml" {
			continue
		}
		emails++
		t.Run(filepath.Base(f), func(t *testing.T) {
			info, inspectErr := media.Inspect(f)
			_, err := Destination{Kind: GmailInsert}.Plan(info)
			if errors.Is(inspectErr, media.ErrNotEmail) {
				want := info.Name + " does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml, .msg, .mbox)."
				if err == nil || SayEnglish(err) != want {
					t.Errorf("Plan = %v, want %q", err, want)
				}
				return
			}
			if inspectErr != nil || err != nil {
				t.Errorf("Inspect: %v; Plan: %v", inspectErr, err)
			}
		})
	}
	if emails < 8 {
		t.Errorf("found %d golden emails", emails)
	}
}

func TestAssetName(t *testing.T) {
	tests := map[string]string{
		"banner_300x250.png":    "banner_300x250.png",
		"Summer sale (v2)!.png": "Summer sale v2.png",
		"a/b\\c:d*e?.jpg":       "a_b_c_d_e.jpg",
		"تقرير_الحملة_2026.png": "تقرير_الحملة_2026.png",
		"   spaced   out  .gif": "spaced out.gif",
		"!!!.png":               "asset.png",
		".png":                  "png",
		"":                      "asset",
		"«»":                    "asset",
		"tab\there.mp4":         "tab here.mp4",
		"cafe\u0301 menu.png":   "caf\u00e9 menu.png",
		"عَرْضٌ خَاصّ.png":      "عرض خاص.png",
		"דּוּחַ.jpg":            "דוח.jpg",
	}
	for in, want := range tests {
		t.Run(in, func(t *testing.T) {
			if got := AssetName(in); got != want {
				t.Errorf("AssetName(%q) = %q, want %q", in, got, want)
			}
		})
	}
}

func TestMetadataMatters(t *testing.T) {
	for in, want := range map[string]bool{
		``:                              false,
		`{}`:                            false,
		`{"message":{}}`:                false,
		`{"labelIds":[],"threadId":""}`: false,
		`{"labelIds":["INBOX"]}`:        true,
		`{"message":{"threadId":"t1"}}`: true,
		`{"name":"a.png"}`:              true,
		`{"public":false}`:              true,
		`not json`:                      true,
	} {
		var b []byte
		if in != "" {
			b = []byte(in)
		}
		if got := MetadataMatters(b); got != want {
			t.Errorf("MetadataMatters(%s) = %v, want %v", in, got, want)
		}
	}
}
