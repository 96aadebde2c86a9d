package dest

import (
	"errors"
	"testing"

	"hoist/words"
)

func TestParseResult(t *testing.T) {
	cm := Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	tests := []struct {
		name string
		d    Destination
		body string
		want Result
		says string // its fact, in English
	}{
		{"gmail insert", Destination{Kind: GmailInsert},
			`{"id": "18c2f1a9b3d4e5f6", "threadId": "18c2f1a9b3d4e5f0", "labelIds": ["INBOX", "UNREAD"]}`,
			Result{ID: "18c2f1a9b3d4e5f6", ThreadID: "18c2f1a9b3d4e5f0"}, "Saved in the mailbox. Id: 18c2f1a9b3d4e5f6."},
		{"gmail import", Destination{Kind: GmailImport},
			`{"id":"18c2aa","threadId":"18c2aa","labelIds":["INBOX"]}`,
			Result{ID: "18c2aa", ThreadID: "18c2aa"}, "Imported into the mailbox. Id: 18c2aa."},
		{"gmail send", Destination{Kind: GmailSend},
			`{"id":"18c2bb","threadId":"18c2b0","labelIds":["SENT"]}`,
			Result{ID: "18c2bb", ThreadID: "18c2b0"}, "Sent. Id: 18c2bb."},
		{"gmail answer without id", Destination{Kind: GmailSend}, `{"labelIds":["SENT"]}`,
			Result{}, "Sent."},
		{"draft created", Destination{Kind: GmailDraft},
			`{"id":"r-7914389472418377040","message":{"id":"18c2cc","threadId":"18c2c0","labelIds":["DRAFT"]}}`,
			Result{ID: "r-7914389472418377040", ThreadID: "18c2c0"}, "Saved as a draft. Id: r-7914389472418377040."},
		{"draft updated", Destination{Kind: GmailDraft, Params: map[string]string{"draftId": "r-1"}},
			`{"id":"r-1","message":{"id":"18c2dd","threadId":"18c2d0"}}`,
			Result{ID: "r-1", ThreadID: "18c2d0"}, "Draft updated. Id: r-1."},
		{"cm360 asset", cm,
			`{"kind":"dfareporting#creativeAssetMetadata","id":"987654321","assetIdentifier":{"name":"Summer sale v2.png","type":"HTML_IMAGE"},"detectedFeatures":[],"warnedValidationRules":[]}`,
			Result{ID: "987654321", Name: "Summer sale v2.png"}, "Added to Campaign Manager 360. Name: Summer sale v2.png. Id: 987654321."},
		{"cm360 asset with a numeric id and warnings", cm,
			`{"id":987654322,"assetIdentifier":{"name":"b.zip","type":"HTML"},"warnedValidationRules":["CLICK_TAG_MISSING","ADMOB_REFERENCED"]}`,
			Result{ID: "987654322", Name: "b.zip"}, "Added to Campaign Manager 360. Name: b.zip. Id: 987654322. Google noted: CLICK_TAG_MISSING, ADMOB_REFERENCED."},
		{"play games", Destination{Kind: PlayGames, Params: map[string]string{"resourceId": "CgkI1", "imageType": "ACHIEVEMENT_ICON"}},
			`{"kind":"gamesConfiguration#imageConfiguration","imageType":"ACHIEVEMENT_ICON","resourceId":"CgkI1","url":"https://lh3.googleusercontent.com/abc=s512"}`,
			Result{ID: "CgkI1", URL: "https://lh3.googleusercontent.com/abc=s512"}, "The image is now the achievement's icon. Id: CgkI1. Address: https://lh3.googleusercontent.com/abc=s512"},
		{"cloud storage object", Destination{Kind: Custom},
			`{"kind":"storage#object","id":"my-bucket/a.png/1709","selfLink":"https://www.googleapis.com/storage/v1/b/my-bucket/o/a.png","mediaLink":"https://storage.googleapis.com/download/storage/v1/b/my-bucket/o/a.png?generation=1709&alt=media","name":"a.png","bucket":"my-bucket","size":"1000"}`,
			Result{ID: "my-bucket/a.png/1709", Name: "a.png", URL: "https://storage.googleapis.com/download/storage/v1/b/my-bucket/o/a.png?generation=1709&alt=media"}, "Uploaded to this destination. Name: a.png. Id: my-bucket/a.png/1709."},
		{"drive file", Destination{Kind: Custom}, `{"kind":"drive#file","id":"1AbCdEf","name":"report.pdf","mimeType":"application/pdf"}`,
			Result{ID: "1AbCdEf", Name: "report.pdf"}, "Uploaded to this destination. Name: report.pdf. Id: 1AbCdEf."},
		{"youtube video", Destination{Kind: Custom}, `{"kind":"youtube#video","id":"dQw4w9WgXcQ","snippet":{"title":"Launch"}}`,
			Result{ID: "dQw4w9WgXcQ", Name: "Launch"}, "Uploaded to this destination. Name: Launch. Id: dQw4w9WgXcQ."},
		{"sandbox", Destination{Kind: Sandbox}, `{"id":"7","name":"گزارش نهایی.eml","selfLink":"http://127.0.0.1:8080/sandbox/v1/files/7"}`,
			Result{ID: "7", Name: "گزارش نهایی.eml", URL: "http://127.0.0.1:8080/sandbox/v1/files/7"}, "Uploaded to the sandbox. Name: گزارش نهایی.eml. Id: 7."},
		{"name that is the id", Destination{Kind: Custom}, `{"id":"f99ee501","name":"f99ee501"}`,
			Result{ID: "f99ee501", Name: "f99ee501"}, "Uploaded to this destination. Id: f99ee501."},
		{"custom empty answer", Destination{Kind: Custom}, "  ", Result{}, "Uploaded to this destination."},
		{"custom answer with nothing known", Destination{Kind: Custom}, `{"ok":true}`, Result{}, "Uploaded to this destination."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseResult(tt.d, []byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != tt.want.ID || got.ThreadID != tt.want.ThreadID || got.Name != tt.want.Name || got.URL != tt.want.URL {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			f := got.Fact
			f.Dest = string(tt.d.Kind)
			if s := words.English().Fact(f); s != tt.says {
				t.Errorf("says %q\nwant %q", s, tt.says)
			}
			if len(tt.body) > 2 && string(got.Raw) != tt.body {
				t.Errorf("Raw = %s", got.Raw)
			}
		})
	}
}

func TestParseResultBadAnswers(t *testing.T) {
	tests := []struct {
		name string
		d    Destination
		body string
		want string
	}{
		{"html page", Destination{Kind: GmailInsert}, "<html><body>Bad gateway</body></html>", "it is not valid JSON (the problem is near character 1)"},
		{"cut short", Destination{Kind: CM360}, `{"id":"1","assetIdentifier":{"name"`, "it is cut short (the JSON does not end)"},
		{"empty from google", Destination{Kind: PlayGames}, "", "it is empty"},
		{"wrong shape", Destination{Kind: GmailSend}, `["not", "a", "message"]`, "it is not the kind of answer this destination gives"},
		{"wrong field type", Destination{Kind: GmailSend}, `{"id": {"nested": true}}`, "it is not the kind of answer this destination gives"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseResult(tt.d, []byte(tt.body))
			if !errors.Is(err, ErrBadAnswer) {
				t.Fatalf("err = %v, want ErrBadAnswer", err)
			}
			if err.Error() != tt.want {
				t.Errorf("message = %q, want %q", err.Error(), tt.want)
			}
		})
	}
}
