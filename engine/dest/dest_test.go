package dest

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestKinds(t *testing.T) {
	ks := Kinds()
	var got []Kind
	for _, k := range ks {
		got = append(got, k.Kind)
		if k.Label == "" || k.Accepts == "" {
			t.Errorf("%s: label %q, accepts %q", k.Kind, k.Label, k.Accepts)
		}
		for _, f := range k.Fields {
			if f.Key == "" || f.Label == "" || f.Help == "" || f.Kind == "" {
				t.Errorf("%s: incomplete field %+v", k.Kind, f)
			}
			if (f.Kind == ChoiceField) != (len(f.Choices) > 0) {
				t.Errorf("%s.%s: kind %s with choices %v", k.Kind, f.Key, f.Kind, f.Choices)
			}
			if f.Words != nil && len(f.Words) != len(f.Choices) {
				t.Errorf("%s.%s: %d choices in words for %d choices", k.Kind, f.Key, len(f.Words), len(f.Choices))
			}
			for _, c := range f.Choices {
				if w := f.ChoiceWords(c); f.ChoiceValue(w) != c || (f.Words != nil && w == c) {
					t.Errorf("%s.%s: choice %q shows as %q, which leads back to %q", k.Kind, f.Key, c, w, f.ChoiceValue(w))
				}
			}
		}
	}
	// The sandbox comes first and any upload URL last; the kinds between
	// keep the registry's order.
	want := []Kind{Sandbox, GmailInsert, GmailImport, GmailSend, GmailDraft, CM360, PlayGames}
	if len(got) < len(want)+1 || !slices.Equal(got[:len(want)], want) || got[len(got)-1] != Custom {
		t.Errorf("kinds = %v, want %v first and %s last", got, want, Custom)
	}

	labels := map[Kind]string{
		GmailInsert: "Gmail — put emails into a mailbox",
		GmailImport: "Gmail — import emails",
		GmailSend:   "Gmail — send emails",
		GmailDraft:  "Gmail — save as drafts",
		CM360:       "Campaign Manager 360 — creative assets",
		PlayGames:   "Play Games — achievement and leaderboard icons",
		Custom:      "Any Google upload URL",
		Sandbox:     "Sandbox (try Hoist without Google)",
	}
	limits := map[Kind]int64{GmailInsert: 150 << 20, GmailImport: 150 << 20, GmailSend: 35 << 20, GmailDraft: 35 << 20, CM360: 1 << 30, PlayGames: 15 << 20}
	seen := map[string]bool{}
	for _, k := range ks {
		if want, ok := labels[k.Kind]; (ok && k.Label != want) || k.Label == "" || seen[k.Label] {
			t.Errorf("%s label = %q", k.Kind, k.Label)
		}
		seen[k.Label] = true
		if want, ok := limits[k.Kind]; ok && k.MaxSize != want {
			t.Errorf("%s MaxSize = %d, want %d", k.Kind, k.MaxSize, want)
		}
	}
	if a := GmailSend.Info().Accepts; a != "email files (.eml)" {
		t.Errorf("gmail accepts %q", a)
	}

	// Callers get copies: changing one does not change what the next caller sees.
	info := PlayGames.Info()
	info.Fields[1].Choices[0] = "CHANGED"
	if PlayGames.Info().Fields[1].Choices[0] != "ACHIEVEMENT_ICON" {
		t.Error("Info shares its choices with callers")
	}
	if Kind("ftp").Known() || Kind("ftp").Info().Label != "" {
		t.Error("an unknown kind is known")
	}
}

func TestDestinationJSON(t *testing.T) {
	d := Destination{Name: "Inbox archive", Kind: GmailImport, Account: "office@example.com",
		BaseURL: "http://127.0.0.1:8080", Params: map[string]string{"labels": "INBOX"}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"name":"Inbox archive","kind":"gmail-import","account":"office@example.com","baseURL":"http://127.0.0.1:8080","params":{"labels":"INBOX"}}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant %s", b, want)
	}
	var back Destination
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, d) {
		t.Errorf("round trip = %+v, %v", back, err)
	}
	if b, _ := json.Marshal(Destination{Kind: Sandbox}); string(b) != `{"kind":"sandbox"}` {
		t.Errorf("minimal JSON = %s", b)
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		d    Destination
		want map[string]string // field → message; nil means valid
	}{
		{"sandbox as is", Destination{Kind: Sandbox}, nil},
		{"gmail defaults", Destination{Kind: GmailInsert}, nil},
		{"no kind", Destination{}, map[string]string{"kind": "Choose where the files go."}},
		{"unknown kind", Destination{Kind: "ftp"}, map[string]string{"kind": `"ftp" is not a kind of destination Hoist knows.`}},
		{"cm360 without ids", Destination{Kind: CM360}, map[string]string{
			"profileId":    "User profile ID is required.",
			"advertiserId": "Advertiser ID is required.",
		}},
		{"cm360 with words for numbers", Destination{Kind: CM360, Params: map[string]string{
			"profileId": "12ab", "advertiserId": "-4", "assetType": "IMAGE", "apiVersion": "4",
		}}, map[string]string{
			"profileId":    "User profile ID must be a number, like 1234567.",
			"advertiserId": "Advertiser ID must be a number, like 1234567.",
			"assetType":    "Asset type must be one of HTML_IMAGE, VIDEO, HTML, AUDIO.",
			"apiVersion":   "API version must look like v4.",
		}},
		{"play games bad type", Destination{Kind: PlayGames, Params: map[string]string{"resourceId": "a/b", "imageType": "BANNER"}}, map[string]string{
			"resourceId": "Achievement or leaderboard ID cannot contain spaces or any of / ? # % \\.",
			"imageType":  "Image type must be one of ACHIEVEMENT_ICON, LEADERBOARD_ICON.",
		}},
		{"play games missing", Destination{Kind: PlayGames}, map[string]string{
			"resourceId": "Achievement or leaderboard ID is required.",
			"imageType":  "Image type is required.",
		}},
		{"gmail typo and bad flag", Destination{Kind: GmailImport, Params: map[string]string{"lables": "INBOX", "neverMarkSpam": "maybe", "internalDateSource": "now"}}, map[string]string{
			"lables":             `"lables" is not a setting of Gmail — import emails.`,
			"neverMarkSpam":      "Never mark as spam must be true or false.",
			"internalDateSource": "Date Gmail shows must be one of receivedTime, dateHeader.",
		}},
		{"draft setting on insert", Destination{Kind: GmailInsert, Params: map[string]string{"draftId": "r1"}}, map[string]string{
			"draftId": `"draftId" is not a setting of Gmail — put emails into a mailbox.`,
		}},
		{"custom without url", Destination{Kind: Custom}, map[string]string{"url": "Upload URL is required."}},
		{"custom ftp url", Destination{Kind: Custom, Params: map[string]string{"url": "ftp://example.com/x"}}, map[string]string{
			"url": "Upload URL must be a web address starting with https:// (or http:// for a server on this computer or network).",
		}},
		{"custom google url without /upload and scope", Destination{Kind: Custom, Params: map[string]string{"url": "https://storage.googleapis.com/storage/v1/b/x/o"}}, map[string]string{
			"url":   "A Google upload URL has /upload/ at the start of its path, like https://storage.googleapis.com/upload/storage/v1/b/BUCKET/o.",
			"scope": "Enter the permission (scope) this Google API needs, like https://www.googleapis.com/auth/devstorage.read_write.",
		}},
		{"custom other host needs no scope", Destination{Kind: Custom, Params: map[string]string{"url": "https://uploads.example.com/in"}}, nil},
		{"custom bad metadata, size, types, method", Destination{Kind: Custom, Params: map[string]string{
			"url": "http://127.0.0.1:9/u", "metadata": `{"name": "x",}`, "maxSize": "big", "accept": "image/*, pictures", "httpMethod": "DELETE",
		}}, map[string]string{
			"metadata":   "Metadata (JSON) is not valid JSON (the problem is near character 14).",
			"maxSize":    "Largest file must be a size like 8MiB, 16MB or 1048576.",
			"accept":     `Accepted types must be media types like image/* or application/pdf, separated by commas; "pictures" is not one.`,
			"httpMethod": "HTTP method must be one of POST, PUT, PATCH.",
		}},
		{"ports out of range", Destination{Kind: Custom, BaseURL: "http://127.0.0.1:0", Params: map[string]string{"url": "http://127.0.0.1:99999/upload/x"}}, map[string]string{
			"url":     "Upload URL has the port 99999; a port is a number from 1 to 65535.",
			"baseURL": "Server address has the port 0; a port is a number from 1 to 65535.",
		}},
		{"custom metadata names a type that is not one", Destination{Kind: Custom, Params: map[string]string{"url": "http://127.0.0.1:9/u", "metadata": `{"contentType": "pictures"}`}}, map[string]string{
			"metadata": `Metadata (JSON) names the type "pictures", which is not a media type like image/png.`,
		}},
		{"custom metadata not an object", Destination{Kind: Custom, Params: map[string]string{"url": "http://127.0.0.1:9/u", "metadata": `["a"]`}}, map[string]string{
			"metadata": `Metadata (JSON) must be a JSON object, like {"name": "photo.png"}.`,
		}},
		{"bad server address", Destination{Kind: GmailSend, BaseURL: "localhost:8080"}, map[string]string{
			"baseURL": "Server address must be a web address starting with https:// or http://, like http://127.0.0.1:8080.",
		}},
		{"sandbox address with a query", Destination{Kind: Sandbox, Params: map[string]string{"url": "http://127.0.0.1:8080/?x=1"}}, map[string]string{
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
			var fe FieldErrors
			if !errors.As(err, &fe) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("Validate = %v, want FieldErrors", err)
			}
			got := map[string]string{}
			for _, f := range fe {
				got[f.Field] = f.Message
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("field errors:\n got  %q\n want %q", got, tt.want)
			}
		})
	}
}

func TestScopesAndAuth(t *testing.T) {
	tests := []struct {
		d      Destination
		scopes []string
		auth   bool
	}{
		{Destination{Kind: Sandbox}, nil, false},
		{Destination{Kind: GmailInsert}, []string{"https://www.googleapis.com/auth/gmail.insert"}, true},
		{Destination{Kind: GmailImport}, []string{"https://www.googleapis.com/auth/gmail.insert"}, true},
		{Destination{Kind: GmailSend}, []string{"https://www.googleapis.com/auth/gmail.send"}, true},
		{Destination{Kind: GmailDraft}, []string{"https://www.googleapis.com/auth/gmail.compose"}, true},
		{Destination{Kind: CM360}, []string{"https://www.googleapis.com/auth/dfatrafficking"}, true},
		{Destination{Kind: PlayGames}, []string{"https://www.googleapis.com/auth/androidpublisher"}, true},
		// Pointed at a test server: the sign-in never goes there.
		{Destination{Kind: GmailInsert, BaseURL: "http://127.0.0.1:8080"}, []string{"https://www.googleapis.com/auth/gmail.insert"}, false},
		{Destination{Kind: Custom, Params: map[string]string{
			"url": "https://storage.googleapis.com/upload/storage/v1/b/x/o", "scope": "devstorage.read_write, https://www.googleapis.com/auth/cloud-platform openid",
		}}, []string{"https://www.googleapis.com/auth/devstorage.read_write", "https://www.googleapis.com/auth/cloud-platform", "openid"}, true},
		{Destination{Kind: Custom, Params: map[string]string{"url": "https://uploads.example.com/in", "scope": "drive.file"}},
			[]string{"https://www.googleapis.com/auth/drive.file"}, false},
		{Destination{Kind: Custom, Params: map[string]string{"url": "https://evilgoogleapis.com/upload/x", "scope": "drive.file"}},
			[]string{"https://www.googleapis.com/auth/drive.file"}, false},
		{Destination{Kind: "ftp"}, nil, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.d.Kind)+" "+tt.d.BaseURL+tt.d.Params["url"], func(t *testing.T) {
			if got := tt.d.Scopes(); !slices.Equal(got, tt.scopes) {
				t.Errorf("Scopes = %q, want %q", got, tt.scopes)
			}
			if got := tt.d.NeedsAuth(); got != tt.auth {
				t.Errorf("NeedsAuth = %v, want %v", got, tt.auth)
			}
		})
	}
}

func TestTitle(t *testing.T) {
	if got := (Destination{Kind: GmailSend}).Title(); got != "Gmail — send emails" {
		t.Errorf("Title = %q", got)
	}
	if got := (Destination{Kind: GmailSend, Name: " Sales outbox "}).Title(); got != "Sales outbox" {
		t.Errorf("Title = %q", got)
	}
}
