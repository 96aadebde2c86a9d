package dest

import (
	"errors"
	"hoist/engine/fact"
	"testing"

	"hoist/engine/media"
)

func TestDrivePlans(t *testing.T) {
	const q = "?fields=id%2Cname%2CmimeType%2Csize%2Cmd5Checksum%2CwebViewLink&supportsAllDrives=true"
	cases := []struct {
		name        string
		params      map[string]string
		method, url string
		metadata    string
	}{
		{"my drive", nil, "POST", "https://www.googleapis.com/upload/drive/v3/files" + q, `{"name":"Tom & Jerry.png"}`},
		{"folder link", map[string]string{"folder": "https://drive.google.com/drive/u/1/folders/1aB_c-D?usp=sharing"},
			"POST", "https://www.googleapis.com/upload/drive/v3/files" + q, `{"name":"Tom & Jerry.png","parents":["1aB_c-D"]}`},
		{"folder id", map[string]string{"folder": " 0AbCdEf "},
			"POST", "https://www.googleapis.com/upload/drive/v3/files" + q, `{"name":"Tom & Jerry.png","parents":["0AbCdEf"]}`},
		{"new version by link", map[string]string{"fileId": "https://drive.google.com/file/d/1XyZ/view?usp=drive_link"},
			"PATCH", "https://www.googleapis.com/upload/drive/v3/files/1XyZ" + q, ""},
		{"new version by open link", map[string]string{"fileId": "https://drive.google.com/open?id=1XyZ"},
			"PATCH", "https://www.googleapis.com/upload/drive/v3/files/1XyZ" + q, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Destination{Kind: Drive, Params: c.params}
			p, err := d.Plan(media.Info{Name: "Tom & Jerry.png", Size: 10, MIME: "image/png"})
			if err != nil {
				t.Fatal(err)
			}
			if p.Target.HTTPMethod != c.method || p.Target.URL != c.url || string(p.Target.Metadata) != c.metadata || p.Target.ContentType != "image/png" {
				t.Errorf("plan %s %s %s (%s), want %s %s %s", p.Target.HTTPMethod, p.Target.URL, p.Target.Metadata, p.Target.ContentType, c.method, c.url, c.metadata)
			}
			if len(p.Scopes) != 1 || p.Scopes[0] != "https://www.googleapis.com/auth/drive.file" || p.MaxSize != 5<<40 || !d.NeedsAuth() {
				t.Errorf("scopes %v, limit %d, needs sign-in %v", p.Scopes, p.MaxSize, d.NeedsAuth())
			}
		})
	}
}

func TestDriveSettingsRefused(t *testing.T) {
	cases := map[string]map[string]string{
		"folder": {"folder": "https://example.com/some/place"},
		"fileId": {"fileId": "not an id"},
	}
	for field, params := range cases {
		var fe FieldErrors
		err := Destination{Kind: Drive, Params: params}.Validate()
		if !errors.As(err, &fe) || fe.For(field) == "" {
			t.Errorf("%v: %v, want a sentence about %s", params, err, field)
		}
	}
	err := Destination{Kind: Drive, Params: map[string]string{"folder": "1a", "fileId": "1b"}}.Validate()
	if err == nil {
		t.Error("a folder and a file to replace at once were taken")
	}
	big := media.Info{Name: "disk.img", Size: 5<<40 + 1, MIME: "application/octet-stream"}
	var r *Refusal
	if _, err := (Destination{Kind: Drive}).Plan(big); !errors.As(err, &r) || r.Rule != RuleSize || r.Fact().Code != fact.TooLarge || r.Limit() != 5<<40 || r.Fact().Dest != "drive" {
		t.Errorf("a file over 5 TiB: %v", err)
	}
}
