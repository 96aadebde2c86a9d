package dest

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

func TestKinds(t *testing.T) {
	ks := Kinds()
	var got []Kind
	for _, k := range ks {
		got = append(got, k.Kind)
		if k.Rank == 0 {
			t.Errorf("%s: no rank in the forms", k.Kind)
		}
		for _, f := range k.Fields {
			if f.Key == "" || f.Kind == "" {
				t.Errorf("%s: incomplete field %+v", k.Kind, f)
			}
			if (f.Kind == ChoiceField) != (len(f.Choices) > 0) {
				t.Errorf("%s.%s: kind %s with choices %v", k.Kind, f.Key, f.Kind, f.Choices)
			}
		}
	}
	// The sandbox comes first and any upload URL last; the kinds between
	// keep their ranks.
	want := []Kind{Sandbox, GmailInsert, GmailImport, GmailSend, GmailDraft, CM360, PlayGames}
	if len(got) < len(want)+1 || !slices.Equal(got[:len(want)], want) || got[len(got)-1] != Custom {
		t.Errorf("kinds = %v, want %v first and %s last", got, want, Custom)
	}

	limits := map[Kind]int64{GmailInsert: 150 << 20, GmailImport: 150 << 20, GmailSend: 35 << 20, GmailDraft: 35 << 20, CM360: 1 << 30, PlayGames: 15 << 20}
	for _, k := range ks {
		if want, ok := limits[k.Kind]; ok && k.MaxSize != want {
			t.Errorf("%s MaxSize = %d, want %d", k.Kind, k.MaxSize, want)
		}
	}
	if f := GmailSend.Family(); f != "gmail" || Drive.Family() != "drive" {
		t.Errorf("families %q, %q", f, Drive.Family())
	}

	// Callers get copies: changing one does not change what the next caller sees.
	info := PlayGames.Info()
	info.Fields[1].Choices[0] = "CHANGED"
	if PlayGames.Info().Fields[1].Choices[0] != "ACHIEVEMENT_ICON" {
		t.Error("Info shares its choices with callers")
	}
	if Kind("ftp").Known() || Kind("ftp").Info().Kind != "" {
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
	if got := (Destination{Kind: GmailSend}).Title(); got != "gmail-send" {
		t.Errorf("Title = %q", got)
	}
	if got := (Destination{Kind: GmailSend, Name: " Sales outbox "}).Title(); got != "Sales outbox" {
		t.Errorf("Title = %q", got)
	}
}
