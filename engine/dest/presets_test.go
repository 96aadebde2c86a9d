package dest

import (
	"encoding/json"
	"errors"
	"hoist/engine/fact"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestPresets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "Hoist")
	path := filepath.Join(dir, PresetsFile)

	p, err := OpenPresets(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.List()) != 0 {
		t.Fatalf("a new store lists %v", p.List())
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("opening wrote a file: %v", err)
	}

	archive := Destination{Name: " Inbox archive ", Kind: GmailImport, Account: "office@example.com",
		Params: map[string]string{"labels": "INBOX", "neverMarkSpam": "true", "deleted": " "}}
	banners := Destination{Name: "Banners", Kind: CM360, Account: "ads@example.com",
		Params: map[string]string{"profileId": "1", "advertiserId": "2"}}
	if err := p.Put(archive); err != nil {
		t.Fatal(err)
	}
	if err := p.Put(banners); err != nil {
		t.Fatal(err)
	}

	t.Run("file", func(t *testing.T) {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
			t.Errorf("mode = %v, want 0600", fi.Mode().Perm())
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Errorf("the folder holds %d entries, want only the file (no temporary files left)", len(entries))
		}
		var f struct {
			Version      int
			Destinations []Destination
		}
		data, _ := os.ReadFile(path)
		if err := json.Unmarshal(data, &f); err != nil || f.Version != 1 || len(f.Destinations) != 2 {
			t.Errorf("file = %s (%v)", data, err)
		}
	})

	t.Run("reopen", func(t *testing.T) {
		again, err := OpenPresets(path)
		if err != nil {
			t.Fatal(err)
		}
		want := []Destination{
			banners,
			{Name: "Inbox archive", Kind: GmailImport, Account: "office@example.com", Params: map[string]string{"labels": "INBOX", "neverMarkSpam": "true"}},
		}
		if got := again.List(); !reflect.DeepEqual(got, want) {
			t.Errorf("List =\n %+v\nwant\n %+v", got, want)
		}
		d, ok := again.Get("INBOX ARCHIVE")
		if !ok || d.Kind != GmailImport {
			t.Errorf("Get ignoring case = %+v, %v", d, ok)
		}
		d.Params["labels"] = "CHANGED"
		if d2, _ := again.Get("inbox archive"); d2.Params["labels"] != "INBOX" {
			t.Error("Get shares its settings with the caller")
		}
	})

	t.Run("update replaces by name", func(t *testing.T) {
		changed := banners
		changed.Name = "BANNERS"
		changed.Params = map[string]string{"profileId": "1", "advertiserId": "3"}
		if err := p.Put(changed); err != nil {
			t.Fatal(err)
		}
		if got := len(p.List()); got != 2 {
			t.Errorf("%d presets after an update, want 2", got)
		}
		if d, _ := p.Get("banners"); d.Name != "BANNERS" || d.Params["advertiserId"] != "3" {
			t.Errorf("updated = %+v", d)
		}
	})

	t.Run("atomic replace", func(t *testing.T) {
		before, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Put(Destination{Name: "Try", Kind: Sandbox}); err != nil {
			t.Fatal(err)
		}
		after, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		// A new file renamed over the old one, never the old one rewritten in place.
		if os.SameFile(before, after) {
			t.Error("the file was rewritten in place")
		}
	})

	t.Run("add refuses a taken name", func(t *testing.T) {
		err := p.Add(Destination{Name: "try", Kind: Sandbox})
		var fe FieldErrors
		if !errors.As(err, &fe) || fe.For("name") != fact.NameUsed || fe[0].Fact.Arg("name") != "try" {
			t.Errorf("Add = %v", err)
		}
		if err := p.Add(Destination{Name: "Second sandbox", Kind: Sandbox, Params: map[string]string{"url": "http://127.0.0.1:9090"}}); err != nil {
			t.Errorf("Add = %v", err)
		}
	})

	t.Run("rename", func(t *testing.T) {
		if err := p.Rename("second SANDBOX", "Local test"); err != nil {
			t.Fatal(err)
		}
		if _, ok := p.Get("Second sandbox"); ok {
			t.Error("the old name is still there")
		}
		if d, ok := p.Get("local test"); !ok || d.Params["url"] != "http://127.0.0.1:9090" {
			t.Errorf("renamed = %+v, %v", d, ok)
		}
		var fe FieldErrors
		if err := p.Rename("Local test", "Banners"); !errors.As(err, &fe) || fe.For("name") != fact.NameUsed || fe[0].Fact.Arg("name") != "Banners" {
			t.Errorf("Rename onto another = %v", err)
		}
		if err := p.Rename("Local test", "local TEST"); err != nil {
			t.Errorf("Rename changing case = %v", err)
		}
		if err := p.Rename("nobody", "x"); !errors.Is(err, ErrNoPreset) {
			t.Errorf("Rename of a missing one = %v", err)
		}
	})

	t.Run("refused", func(t *testing.T) {
		tests := []struct {
			d     Destination
			field string
			msg   fact.Code
		}{
			{Destination{Kind: Sandbox}, "name", fact.NameMissing},
			{Destination{Name: "Gmail-Send", Kind: GmailSend}, "name", fact.NameTaken},
			{Destination{Name: "Icons", Kind: PlayGames}, "resourceId", fact.Required},
		}
		for _, tt := range tests {
			var fe FieldErrors
			if err := p.Put(tt.d); !errors.As(err, &fe) || fe.For(tt.field) != tt.msg {
				t.Errorf("Put(%+v) = %v, want %q on %s", tt.d, err, tt.msg, tt.field)
			}
		}
	})

	t.Run("delete", func(t *testing.T) {
		if err := p.Delete("TRY"); err != nil {
			t.Fatal(err)
		}
		if _, ok := p.Get("try"); ok {
			t.Error("still there")
		}
		if err := p.Delete("try"); !errors.Is(err, ErrNoPreset) {
			t.Errorf("second Delete = %v", err)
		}
	})

	t.Run("two stores on one file", func(t *testing.T) {
		a, _ := OpenPresets(path)
		b, _ := OpenPresets(path)
		if err := a.Put(Destination{Name: "From the window", Kind: Sandbox}); err != nil {
			t.Fatal(err)
		}
		if err := b.Put(Destination{Name: "From the command line", Kind: Sandbox}); err != nil {
			t.Fatal(err)
		}
		c, _ := OpenPresets(path)
		for _, name := range []string{"From the window", "From the command line", "Banners"} {
			if _, ok := c.Get(name); !ok {
				t.Errorf("%s was lost", name)
			}
		}
	})
}

func TestPresetsDamaged(t *testing.T) {
	path := filepath.Join(t.TempDir(), PresetsFile)
	if err := os.WriteFile(path, []byte(`{"version":1,"destinations":[{"name":`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenPresets(path); !errors.Is(err, ErrDamaged) {
		t.Errorf("OpenPresets = %v, want ErrDamaged", err)
	}
	if data, _ := os.ReadFile(path); !strings.HasSuffix(string(data), `"name":`) {
		t.Error("the damaged file was changed")
	}
}

func TestDefaultPresetsPath(t *testing.T) {
	p := DefaultPresetsPath()
	if p == "" {
		t.Skip("no config folder here")
	}
	if filepath.Base(p) != "destinations.json" || filepath.Base(filepath.Dir(p)) != "Hoist" {
		t.Errorf("path = %s", p)
	}
}

func TestFromFlags(t *testing.T) {
	presets, err := OpenPresets(filepath.Join(t.TempDir(), PresetsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := presets.Put(Destination{Name: "Banners", Kind: CM360, Account: "ads@example.com",
		Params: map[string]string{"profileId": "1", "advertiserId": "2"}}); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name   string
		to     string
		params map[string]string
		want   Destination
	}{
		{"kind", "gmail-insert", map[string]string{"labels": "INBOX"},
			Destination{Kind: GmailInsert, Params: map[string]string{"labels": "INBOX"}}},
		{"kind in capitals, with fields", "GMAIL-SEND", map[string]string{"account": "me@example.com", "baseURL": "http://127.0.0.1:1"},
			Destination{Kind: GmailSend, Account: "me@example.com", BaseURL: "http://127.0.0.1:1"}},
		{"preset with an override", "banners", map[string]string{"advertiserId": "99", "assetType": "VIDEO"},
			Destination{Name: "Banners", Kind: CM360, Account: "ads@example.com", Params: map[string]string{"profileId": "1", "advertiserId": "99", "assetType": "VIDEO"}}},
		{"sandbox", "sandbox", nil, Destination{Kind: Sandbox}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := presets.FromFlags(tt.to, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
	if d, _ := presets.Get("Banners"); d.Params["advertiserId"] != "2" {
		t.Error("an override changed the saved destination")
	}

	bad := []struct {
		to     string
		params map[string]string
		msg    string
	}{
		{"gmial", nil, `"gmial" is neither a kind of destination nor a saved one. The kinds are: ` + KindNames() + `.`},
		{"", nil, "Say where the files go, e.g. --to gmail-insert. The kinds are: " + KindNames() + "."},
		{"cm360", map[string]string{"profileId": "x"}, "User profile ID must be a number, like 1234567. Advertiser ID is required."},
	}
	for _, tt := range bad {
		t.Run("bad "+tt.to, func(t *testing.T) {
			_, err := FromFlags(tt.to, tt.params)
			if !errors.Is(err, ErrInvalid) || SayEnglish(err) != tt.msg {
				t.Errorf("err = %v\nwant %s", err, tt.msg)
			}
		})
	}
}
