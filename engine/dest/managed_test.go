package dest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeManaged(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ManagedFile), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestLoadManaged(t *testing.T) {
	dir := writeManaged(t, `{"version":1,"destinations":[
		{"name":"Banners for ACME","kind":"cm360","account":"admin@example.com","params":{"profileId":"1","advertiserId":"2"}},
		{"name":"Archive","kind":"gmail-insert","params":{"labels":"Label_1"}},
		{"name":"No advertiser","kind":"cm360","params":{"profileId":"1"}},
		{"kind":"gmail-send"},
		{"name":"Archive","kind":"gmail-import"},
		{"name":"Odd","kind":"gmail-insert","params":["x"]}
	]}`)
	list, problems := LoadManaged(dir)
	if len(list) != 2 || list[0].Name != "Archive" || list[1].Name != "Banners for ACME" {
		t.Fatalf("managed = %+v", list)
	}
	if list[1].Account != "" {
		t.Error("a managed destination keeps the administrator's account; everyone signs in as themselves")
	}
	want := []string{"No advertiser", "Destination 4", "same name", "Destination 6"}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v", problems)
	}
	for i, w := range want {
		msg := SayEnglish(problems[i])
		if !strings.Contains(msg, w) || !strings.Contains(msg, filepath.Join(dir, ManagedFile)) {
			t.Errorf("problem %d = %q, want it to name the file and %q", i, msg, w)
		}
	}
	if !strings.Contains(SayEnglish(problems[0]), "Advertiser") {
		t.Errorf("the missing field is not named: %q", problems[0])
	}
}

func TestLoadManagedBadFiles(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, nil, 0o644)
	unreadable := t.TempDir()
	os.Mkdir(filepath.Join(unreadable, ManagedFile), 0o755) // a folder where the file should be
	tests := []struct {
		name, dir, want string
	}{
		{"no folder", filepath.Join(t.TempDir(), "none"), ""},
		{"not a folder", notADir, ""},
		{"broken JSON", writeManaged(t, "{\n\"version\":1,\n\"destinations\":[{]}"), "line 3"},
		{"newer", writeManaged(t, `{"version":7,"destinations":[]}`), "newer Hoist"},
		{"unreadable", unreadable, "could not read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			list, problems := LoadManaged(tt.dir)
			if len(list) != 0 {
				t.Errorf("list = %v", list)
			}
			if tt.want == "" {
				if len(problems) != 0 && tt.name == "no folder" {
					t.Errorf("problems = %v", problems)
				}
				return
			}
			if len(problems) != 1 || !strings.Contains(SayEnglish(problems[0]), tt.want) || !strings.Contains(SayEnglish(problems[0]), ManagedFile) {
				t.Errorf("problems = %v, want one naming the file and %q", problems, tt.want)
			}
		})
	}
}

func TestLibraryKeepsManagedReadOnly(t *testing.T) {
	saved, err := OpenPresets(filepath.Join(t.TempDir(), PresetsFile))
	if err != nil {
		t.Fatal(err)
	}
	mine := Destination{Name: "Mine", Kind: GmailInsert}
	if err := saved.Put(mine); err != nil {
		t.Fatal(err)
	}
	managed, _ := LoadManaged(writeManaged(t, `{"version":1,"destinations":[{"name":"Shared box","kind":"gmail-insert","params":{"labels":"INBOX"}}]}`))
	lib := &Library{Saved: saved, Managed: managed}
	if got := lib.List(); len(got) != 2 || got[0].Name != "Shared box" || got[1].Name != "Mine" {
		t.Fatalf("List = %+v", got)
	}
	if !lib.IsManaged("shared BOX") || lib.IsManaged("Mine") {
		t.Error("IsManaged is wrong")
	}
	changed := managed[0]
	changed.Params = map[string]string{"labels": "SPAM"}
	for what, err := range map[string]error{
		"Put":    lib.Put(changed),
		"Delete": lib.Delete("Shared box"),
		"Add":    lib.Add(changed),
	} {
		if err == nil {
			t.Errorf("%s of a managed destination was allowed", what)
		}
	}
	if !errors.Is(lib.Put(changed), ErrManaged) || !strings.Contains(SayEnglish(lib.Delete("shared box")), "organisation") {
		t.Error("the refusal does not say the destination is the organisation's")
	}
	if d, ok := lib.Get("Shared box"); !ok || d.Params["labels"] != "INBOX" {
		t.Errorf("managed destination changed: %+v", d)
	}
	if d, err := lib.FromFlags("Shared box", map[string]string{"threadId": "t1"}); err != nil || d.Params["labels"] != "INBOX" || d.Params["threadId"] != "t1" {
		t.Errorf("FromFlags = %+v, %v", d, err)
	}
	if err := lib.Delete("Mine"); err != nil {
		t.Errorf("deleting a saved destination: %v", err)
	}
}

func TestShareRoundTrip(t *testing.T) {
	d := Destination{Name: "Banners", Kind: CM360, Account: "ada@example.com",
		Params: map[string]string{"profileId": "1", "advertiserId": "2", "assetType": "HTML_IMAGE"}}
	data, err := Export(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "ada@example.com") {
		t.Errorf("the exported file names the account: %s", data)
	}
	if !IsShared(data) {
		t.Error("IsShared is false for an exported file")
	}
	back, err := Import(data)
	if err != nil {
		t.Fatal(err)
	}
	d.Account = ""
	if !sameSettings(back, d) {
		t.Errorf("imported %+v, want %+v", back, d)
	}
	saved, _ := OpenPresets(filepath.Join(t.TempDir(), PresetsFile))
	lib := &Library{Saved: saved}
	if err := lib.Add(back); err != nil {
		t.Fatal(err)
	}
	if err := lib.Add(back); err == nil || !strings.Contains(SayEnglish(err), "already") {
		t.Errorf("a second import of the same name: %v", err)
	}

	for _, tt := range []struct{ name, body, want string }{
		{"newer", `{"format":"hoist-destination","version":3,"destination":{"name":"x","kind":"sandbox"}}`, "newer Hoist"},
		{"not ours", `{"installed":{"client_id":"x"}}`, SayEnglish(ErrNotShared)},
		{"incomplete", `{"format":"hoist-destination","version":1,"destination":{"name":"x","kind":"cm360"}}`, "not complete"},
		{"nameless", `{"format":"hoist-destination","version":1,"destination":{"kind":"sandbox"}}`, "name"},
	} {
		if _, err := Import([]byte(tt.body)); err == nil || !strings.Contains(SayEnglish(err), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
	if _, err := Export(Destination{Kind: GmailInsert}); err == nil {
		t.Error("a destination without a name was exported")
	}
}

func sameSettings(a, b Destination) bool {
	if a.Name != b.Name || a.Kind != b.Kind || a.Account != b.Account || len(a.Params) != len(b.Params) {
		return false
	}
	for k, v := range a.Params {
		if b.Params[k] != v {
			return false
		}
	}
	return true
}
