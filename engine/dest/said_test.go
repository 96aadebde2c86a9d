package dest_test

import (
	"errors"
	"reflect"
	"testing"

	"hoist/engine/dest"
	"hoist/words"
)

// TestValidate: each setting that is wrong is one problem, said as a fact
// beside the setting; here in English, as the form and the flags say it.
func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		d    dest.Destination
		want map[string]string // field → message; nil means valid
	}{
		{"sandbox as is", dest.Destination{Kind: dest.Sandbox}, nil},
		{"gmail defaults", dest.Destination{Kind: dest.GmailInsert}, nil},
		{"no kind", dest.Destination{}, map[string]string{"kind": "Choose where the files go."}},
		{"unknown kind", dest.Destination{Kind: "ftp"}, map[string]string{"kind": `"ftp" is not a kind of destination Hoist knows.`}},
		{"cm360 without ids", dest.Destination{Kind: dest.CM360}, map[string]string{
			"profileId":    "User profile ID is required.",
			"advertiserId": "Advertiser ID is required.",
		}},
		{"cm360 with words for numbers", dest.Destination{Kind: dest.CM360, Params: map[string]string{
			"profileId": "12ab", "advertiserId": "-4", "assetType": "IMAGE", "apiVersion": "4",
		}}, map[string]string{
			"profileId":    "User profile ID must be a number, like 1234567.",
			"advertiserId": "Advertiser ID must be a number, like 1234567.",
			"assetType":    "Asset type must be one of HTML_IMAGE, VIDEO, HTML, AUDIO.",
			"apiVersion":   "API version must look like v4.",
		}},
		{"play games bad type", dest.Destination{Kind: dest.PlayGames, Params: map[string]string{"resourceId": "a/b", "imageType": "BANNER"}}, map[string]string{
			"resourceId": "Achievement or leaderboard ID cannot contain spaces or any of / ? # % \\.",
			"imageType":  "Image type must be one of ACHIEVEMENT_ICON, LEADERBOARD_ICON.",
		}},
		{"play games missing", dest.Destination{Kind: dest.PlayGames}, map[string]string{
			"resourceId": "Achievement or leaderboard ID is required.",
			"imageType":  "Image type is required.",
		}},
		{"gmail typo and bad flag", dest.Destination{Kind: dest.GmailImport, Params: map[string]string{"lables": "INBOX", "neverMarkSpam": "maybe", "internalDateSource": "now"}}, map[string]string{
			"lables":             `"lables" is not a setting of Gmail — import emails.`,
			"neverMarkSpam":      "Never mark as spam must be true or false.",
			"internalDateSource": "Date Gmail shows must be one of receivedTime, dateHeader.",
		}},
		{"draft setting on insert", dest.Destination{Kind: dest.GmailInsert, Params: map[string]string{"draftId": "r1"}}, map[string]string{
			"draftId": `"draftId" is not a setting of Gmail — put emails into a mailbox.`,
		}},
		{"custom without url", dest.Destination{Kind: dest.Custom}, map[string]string{"url": "Upload URL is required."}},
		{"custom ftp url", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "ftp://example.com/x"}}, map[string]string{
			"url": "Upload URL must be a web address starting with https:// (or http:// for a server on this computer or network).",
		}},
		{"custom google url without /upload and scope", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "https://storage.googleapis.com/storage/v1/b/x/o"}}, map[string]string{
			"url":   "A Google upload URL has /upload/ at the start of its path, like https://storage.googleapis.com/upload/storage/v1/b/BUCKET/o.",
			"scope": "Enter the permission (scope) this Google API needs, like https://www.googleapis.com/auth/devstorage.read_write.",
		}},
		{"custom other host needs no scope", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "https://uploads.example.com/in"}}, nil},
		{"custom bad metadata, size, types, method", dest.Destination{Kind: dest.Custom, Params: map[string]string{
			"url": "http://127.0.0.1:9/u", "metadata": `{"name": "x",}`, "maxSize": "big", "accept": "image/*, pictures", "httpMethod": "DELETE",
		}}, map[string]string{
			"metadata":   "Metadata (JSON) is not valid JSON (the problem is near character 14).",
			"maxSize":    "Largest file must be a size like 8MiB, 16MB or 1048576.",
			"accept":     `Accepted types must be media types like image/* or application/pdf, separated by commas; "pictures" is not one.`,
			"httpMethod": "HTTP method must be one of POST, PUT, PATCH.",
		}},
		{"ports out of range", dest.Destination{Kind: dest.Custom, BaseURL: "http://127.0.0.1:0", Params: map[string]string{"url": "http://127.0.0.1:99999/upload/x"}}, map[string]string{
			"url":     "Upload URL has the port 99999; a port is a number from 1 to 65535.",
			"baseURL": "Server address has the port 0; a port is a number from 1 to 65535.",
		}},
		{"custom metadata names a type that is not one", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "http://127.0.0.1:9/u", "metadata": `{"contentType": "pictures"}`}}, map[string]string{
			"metadata": `Metadata (JSON) names the type "pictures", which is not a media type like image/png.`,
		}},
		{"custom metadata not an object", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "http://127.0.0.1:9/u", "metadata": `["a"]`}}, map[string]string{
			"metadata": `Metadata (JSON) must be a JSON object, like {"name": "photo.png"}.`,
		}},
		{"bad server address", dest.Destination{Kind: dest.GmailSend, BaseURL: "localhost:8080"}, map[string]string{
			"baseURL": "Server address must be a web address starting with https:// or http://, like http://127.0.0.1:8080.",
		}},
		{"sandbox address with a query", dest.Destination{Kind: dest.Sandbox, Params: map[string]string{"url": "http://127.0.0.1:8080/?x=1"}}, map[string]string{
			"url": "Sandbox address must not have anything after ? or #.",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.d.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate = %v", err)
				}
				return
			}
			var fe dest.FieldErrors
			if !errors.As(err, &fe) || !errors.Is(err, dest.ErrInvalid) {
				t.Fatalf("Validate = %v, want FieldErrors", err)
			}
			got := map[string]string{}
			for _, f := range fe {
				got[f.Field] = words.English().Fact(f.Fact)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("field errors:\n got  %q\n want %q", got, tt.want)
			}
		})
	}
}

func init() {
	dest.SayEnglish = func(err error) string {
		s, _ := words.English().Error(err)
		return s
	}
}
