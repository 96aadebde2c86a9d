package dest_test

import (
	"errors"
	"testing"

	"hoist/engine/dest"
	"hoist/words"
)

func TestParseResult(t *testing.T) {
	cm := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	tests := []struct {
		name string
		d    dest.Destination
		body string
		want dest.Result
		says string // its fact, in English
	}{
		{"gmail insert", dest.Destination{Kind: dest.GmailInsert},
			`{"id": "18c2f1a9b3d4e5f6", "threadId": "18c2f1a9b3d4e5f0", "labelIds": ["INBOX", "UNREAD"]}`,
			dest.Result{ID: "18c2f1a9b3d4e5f6", ThreadID: "18c2f1a9b3d4e5f0"}, "Saved in the mailbox. Id: 18c2f1a9b3d4e5f6."},
		{"gmail import", dest.Destination{Kind: dest.GmailImport},
			`{"id":"18c2aa","threadId":"18c2aa","labelIds":["INBOX"]}`,
			dest.Result{ID: "18c2aa", ThreadID: "18c2aa"}, "Imported into the mailbox. Id: 18c2aa."},
		{"gmail send", dest.Destination{Kind: dest.GmailSend},
			`{"id":"18c2bb","threadId":"18c2b0","labelIds":["SENT"]}`,
			dest.Result{ID: "18c2bb", ThreadID: "18c2b0"}, "Sent. Id: 18c2bb."},
		{"gmail answer without id", dest.Destination{Kind: dest.GmailSend}, `{"labelIds":["SENT"]}`,
			dest.Result{}, "Sent."},
		{"draft created", dest.Destination{Kind: dest.GmailDraft},
			`{"id":"r-7914389472418377040","message":{"id":"18c2cc","threadId":"18c2c0","labelIds":["DRAFT"]}}`,
			dest.Result{ID: "r-7914389472418377040", ThreadID: "18c2c0"}, "Saved as a draft. Id: r-7914389472418377040."},
		{"draft updated", dest.Destination{Kind: dest.GmailDraft, Params: map[string]string{"draftId": "r-1"}},
			`{"id":"r-1","message":{"id":"18c2dd","threadId":"18c2d0"}}`,
			dest.Result{ID: "r-1", ThreadID: "18c2d0"}, "Draft updated. Id: r-1."},
		{"cm360 asset", cm,
			`{"kind":"dfareporting#creativeAssetMetadata","id":"987654321","assetIdentifier":{"name":"Summer sale v2.png","type":"HTML_IMAGE"},"detectedFeatures":[],"warnedValidationRules":[]}`,
			dest.Result{ID: "987654321", Name: "Summer sale v2.png"}, "Added to Campaign Manager 360. Name: Summer sale v2.png. Id: 987654321."},
		{"cm360 asset with a numeric id and warnings", cm,
			`{"id":987654322,"assetIdentifier":{"name":"b.zip","type":"HTML"},"warnedValidationRules":["CLICK_TAG_MISSING","ADMOB_REFERENCED"]}`,
			dest.Result{ID: "987654322", Name: "b.zip"}, "Added to Campaign Manager 360. Name: b.zip. Id: 987654322. Google noted: CLICK_TAG_MISSING, ADMOB_REFERENCED."},
		{"play games", dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "CgkI1", "imageType": "ACHIEVEMENT_ICON"}},
			`{"kind":"gamesConfiguration#imageConfiguration","imageType":"ACHIEVEMENT_ICON","resourceId":"CgkI1","url":"https://lh3.googleusercontent.com/abc=s512"}`,
			dest.Result{ID: "CgkI1", URL: "https://lh3.googleusercontent.com/abc=s512"}, "The image is now the achievement's icon. Id: CgkI1. Address: https://lh3.googleusercontent.com/abc=s512"},
		{"cloud storage object", dest.Destination{Kind: dest.Custom},
			`{"kind":"storage#object","id":"my-bucket/a.png/1709","selfLink":"https://www.googleapis.com/storage/v1/b/my-bucket/o/a.png","mediaLink":"https://storage.googleapis.com/download/storage/v1/b/my-bucket/o/a.png?generation=1709&alt=media","name":"a.png","bucket":"my-bucket","size":"1000"}`,
			dest.Result{ID: "my-bucket/a.png/1709", Name: "a.png", URL: "https://storage.googleapis.com/download/storage/v1/b/my-bucket/o/a.png?generation=1709&alt=media"}, "Uploaded to this destination. Name: a.png. Id: my-bucket/a.png/1709."},
		{"drive file", dest.Destination{Kind: dest.Custom}, `{"kind":"drive#file","id":"1AbCdEf","name":"report.pdf","mimeType":"application/pdf"}`,
			dest.Result{ID: "1AbCdEf", Name: "report.pdf"}, "Uploaded to this destination. Name: report.pdf. Id: 1AbCdEf."},
		{"youtube video", dest.Destination{Kind: dest.Custom}, `{"kind":"youtube#video","id":"dQw4w9WgXcQ","snippet":{"title":"Launch"}}`,
			dest.Result{ID: "dQw4w9WgXcQ", Name: "Launch"}, "Uploaded to this destination. Name: Launch. Id: dQw4w9WgXcQ."},
		{"sandbox", dest.Destination{Kind: dest.Sandbox}, `{"id":"7","name":"گزارش نهایی.eml","selfLink":"http://127.0.0.1:8080/sandbox/v1/files/7"}`,
			dest.Result{ID: "7", Name: "گزارش نهایی.eml", URL: "http://127.0.0.1:8080/sandbox/v1/files/7"}, "Uploaded to the sandbox. Name: گزارش نهایی.eml. Id: 7."},
		{"name that is the id", dest.Destination{Kind: dest.Custom}, `{"id":"f99ee501","name":"f99ee501"}`,
			dest.Result{ID: "f99ee501", Name: "f99ee501"}, "Uploaded to this destination. Id: f99ee501."},
		{"custom empty answer", dest.Destination{Kind: dest.Custom}, "  ", dest.Result{}, "Uploaded to this destination."},
		{"custom answer with nothing known", dest.Destination{Kind: dest.Custom}, `{"ok":true}`, dest.Result{}, "Uploaded to this destination."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := dest.ParseResult(tt.d, []byte(tt.body))
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
		d    dest.Destination
		body string
		want string
	}{
		{"html page", dest.Destination{Kind: dest.GmailInsert}, "<html><body>Bad gateway</body></html>", "it is not valid JSON (the problem is near character 1)"},
		{"cut short", dest.Destination{Kind: dest.CM360}, `{"id":"1","assetIdentifier":{"name"`, "it is cut short (the JSON does not end)"},
		{"empty from google", dest.Destination{Kind: dest.PlayGames}, "", "it is empty"},
		{"wrong shape", dest.Destination{Kind: dest.GmailSend}, `["not", "a", "message"]`, "it is not the kind of answer this destination gives"},
		{"wrong field type", dest.Destination{Kind: dest.GmailSend}, `{"id": {"nested": true}}`, "it is not the kind of answer this destination gives"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := dest.ParseResult(tt.d, []byte(tt.body))
			if !errors.Is(err, dest.ErrBadAnswer) {
				t.Fatalf("err = %v, want dest.ErrBadAnswer", err)
			}
			if err.Error() != tt.want {
				t.Errorf("message = %q, want %q", err.Error(), tt.want)
			}
		})
	}
}
