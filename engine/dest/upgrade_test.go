package dest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/fact"
	"hoist/engine/upload"
)

func TestUpgraded(t *testing.T) {
	tests := []struct {
		d     Destination
		moved bool
		want  string
	}{
		{Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2", "apiVersion": "v4"}}, true, "v5"},
		{Destination{Kind: CM360, Params: map[string]string{"apiVersion": "v3beta1"}}, true, "v5"},
		{Destination{Kind: CM360, Params: map[string]string{"apiVersion": "v5"}}, false, "v5"},
		{Destination{Kind: CM360, Params: map[string]string{"apiVersion": "v6"}}, false, "v6"},
		{Destination{Kind: CM360}, false, "v5"}, // the default
		{Destination{Kind: Custom, Params: map[string]string{"apiVersion": "v4"}}, false, ""},
	}
	for _, tt := range tests {
		before := fmt.Sprint(tt.d.Params)
		got, moved := tt.d.Upgraded()
		if moved != tt.moved {
			t.Errorf("%v: moved = %v, want %v", tt.d.Params, moved, tt.moved)
		}
		if tt.d.Kind == CM360 && got.Param("apiVersion") != tt.want {
			t.Errorf("%v: version = %q, want %q", tt.d.Params, got.Param("apiVersion"), tt.want)
		}
		if fmt.Sprint(tt.d.Params) != before {
			t.Errorf("Upgraded changed the destination it was called on: %v", tt.d.Params)
		}
	}
}

// Saved destinations set to v4 move to v5 when the file is opened, the file
// keeps the change, and the notice comes only from the open that moved them.
func TestPresetsMoveToCurrentCM360Version(t *testing.T) {
	path := filepath.Join(t.TempDir(), PresetsFile)
	old := `{"version": 1, "destinations": [
	  {"name": "Banners", "kind": "cm360", "params": {"profileId": "1", "advertiserId": "2", "apiVersion": "v4"}},
	  {"name": "Videos", "kind": "cm360", "params": {"profileId": "1", "advertiserId": "3", "apiVersion": "v4"}},
	  {"name": "Mail", "kind": "gmail-insert"}]}`
	if err := os.WriteFile(path, []byte(old), 0o600); err != nil {
		t.Fatal(err)
	}
	p, err := OpenPresets(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Notice(); n == nil || n.Code != fact.UpgradedSaved || n.Count != 2 || n.Arg("current") != "v5" {
		t.Errorf("notice = %+v, want 2 saved destinations moved to v5", n)
	}
	for _, name := range []string{"Banners", "Videos"} {
		d, _ := p.Get(name)
		if d.Param("apiVersion") != "v5" {
			t.Errorf("%s: version %q, want v5", name, d.Param("apiVersion"))
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), `"v4"`) || !strings.Contains(string(data), `"v5"`) {
		t.Errorf("the file still says v4:\n%s", data)
	}
	again, err := OpenPresets(path)
	if err != nil {
		t.Fatal(err)
	}
	if again.Notice() != nil {
		t.Errorf("notice said twice: %+v", again.Notice())
	}
}

func TestGoogleWords(t *testing.T) {
	msg := "3140 : Version v4 of the Campaign Manager 360 API is no longer supported. See https://developers.google.com/x?upload_id=SECRET"
	err := fmt.Errorf("%w (3): %w", upload.ErrTooManyRetries, &upload.APIError{Status: 403, Reason: "forbidden", Message: msg})
	got := GoogleWords(err)
	if !strings.HasPrefix(got, "3140 : Version v4 of the Campaign Manager 360 API is no longer supported.") || strings.Contains(got, "SECRET") {
		t.Errorf("GoogleWords = %q", got)
	}
	if GoogleWords(upload.ErrStalled) != "" {
		t.Error("words where the server said nothing")
	}
	cm := Destination{Kind: CM360, Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	var api *upload.APIError
	if !errors.As(err, &api) || api.Class() != upload.ClassRetired || api.RetiredVersion() != "v4" || RefusalFact(cm, api) != "" {
		t.Errorf("%v: a retired version is not the account's access", err)
	}
	if cm.Server() != GoogleServer || (Destination{Kind: Sandbox}).Server() != SandboxServer || (Destination{Kind: CM360, BaseURL: "http://127.0.0.1:9"}).Server() != OtherServer {
		t.Errorf("servers %q, %q", cm.Server(), Destination{Kind: Sandbox}.Server())
	}
}
