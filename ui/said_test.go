package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/ui/destination"
	"hoist/ui/view"
	"hoist/words"
)

// TestFieldProblemsInEveryLanguage: each kind of problem with a form field
// is said in its own sentence, in the window's language, with the field's
// label in that language, from the fact the destination's check found.
func TestFieldProblemsInEveryLanguage(t *testing.T) {
	cases := []struct {
		Name  string
		Host  dest.Destination
		field string
		code  fact.Code
	}{
		{"required", dest.Destination{Kind: dest.CM360, Params: map[string]string{"advertiserId": "1"}}, "profileId", fact.Required},
		{"not a number", dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "abc", "advertiserId": "1"}}, "profileId", fact.NotNumber},
		{"not a version", dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "1", "advertiserId": "1", "apiVersion": "five"}}, "apiVersion", fact.BadVersion},
		{"not a choice", dest.Destination{Kind: dest.YouTube, Params: map[string]string{"privacy": "friends"}}, "privacy", fact.NotChoice},
		{"title too long", dest.Destination{Kind: dest.YouTube, Params: map[string]string{"title": strings.Repeat("x", 101)}}, "title", fact.TooLong},
		{"not a web address", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "ftp://files.example.com/in"}}, "url", fact.BadURL},
		{"a bad port", dest.Destination{Kind: dest.Sandbox, Params: map[string]string{"url": "http://127.0.0.1:99999"}}, "url", fact.BadPort},
		{"not JSON", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "https://files.example.com/in", "metadata": "{name"}}, "metadata", fact.BadJSON},
		{"not a size", dest.Destination{Kind: dest.Custom, Params: map[string]string{"url": "https://files.example.com/in", "maxSize": "big"}}, "maxSize", fact.NotSize},
		{"folder and file", dest.Destination{Kind: dest.Drive, Params: map[string]string{"folder": "abc", "fileId": "def"}}, "fileId", fact.Code("field.folderOrFile")},
		{"no Drive link", dest.Destination{Kind: dest.Drive, Params: map[string]string{"folder": "https://example.com/x y"}}, "folder", fact.Code("field.driveFolder")},
	}
	english := map[string]string{}
	for _, code := range words.Codes {
		t.Run(code, func(t *testing.T) {
			Speak(t, code)
			seen := map[string]string{}
			for _, c := range cases {
				var fe dest.FieldErrors
				if err := c.Host.Validate(); err == nil || !asFieldErrors(err, &fe) {
					t.Fatalf("%s: %v is no field problem", c.Name, err)
				}
				e, ok := fe.FactFor(c.field)
				if !ok || e.Fact.Code != c.code {
					t.Fatalf("%s: %s's problem is %+v, want %s", c.Name, c.field, e, c.code)
				}
				got := view.FieldProblemWords(e)
				label := c.field
				for _, f := range c.Host.Kind.Info().Fields {
					if f.Key == c.field {
						label, _ = view.FieldWords(c.Host.Kind, f)
					}
				}
				if c.code != fact.BadURL && c.code != fact.Code("field.folderOrFile") && !strings.Contains(got, label) {
					t.Errorf("%s: %q does not name the field %q", c.Name, got, label)
				}
				if other, dup := seen[got]; dup {
					t.Errorf("%s and %s say the same: %q", c.Name, other, got)
				}
				seen[got] = c.Name
				if code == "en" {
					english[c.Name] = got
				} else if got == english[c.Name] || strings.Contains(got, " must ") || strings.Contains(got, " is ") {
					t.Errorf("%s in %s: %q is English", c.Name, code, got)
				}
			}
		})
	}
	Speak(t, "fa")
	e, _ := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "۱۲x", "advertiserId": "1"}}.Validate().(dest.FieldErrors).FactFor("profileId")
	label := view.Say("kind.cm360.field.profileId.label")
	if got, want := view.FieldProblemWords(e), "«\u2068"+label+"\u2069» باید عدد باشد، مانند ۱۲۳۴۵۶۷."; got != want {
		t.Errorf("Persian: %q, want %q", got, want)
	}
}

func asFieldErrors(err error, fe *dest.FieldErrors) bool {
	f, ok := err.(dest.FieldErrors)
	*fe = f
	return ok
}

// TestStartNoticesInEveryLanguage: what Hoist says once when it starts (the
// list of uploads set aside or mended, saved destinations moved to a
// current API version) is said in the window's language, with the numbers
// in its digits and the backup's place as it is.
func TestStartNoticesInEveryLanguage(t *testing.T) {
	backup := "/home/user/.local/share/hoist/uploads.db.bad-20260201"
	dropped := &journal.RecoveryError{Backup: backup, Dropped: 3, Cause: journal.ErrCorrupt}
	newer := &journal.RecoveryError{Backup: backup, Cause: journal.ErrNewerVersion}
	damaged := &journal.RecoveryError{Backup: backup, Cause: journal.ErrCorrupt}

	// Saved destinations on a retired version move when the file is opened.
	dir := t.TempDir()
	saved := `{"version": 1, "destinations": [
	  {"name": "Banners", "kind": "cm360", "params": {"profileId": "1", "advertiserId": "2", "apiVersion": "v4"}},
	  {"name": "Videos", "kind": "cm360", "params": {"profileId": "1", "advertiserId": "3", "apiVersion": "v4"}},
	  {"name": "Clips", "kind": "cm360", "params": {"profileId": "1", "advertiserId": "4", "apiVersion": "v4"}}]}`
	if err := os.WriteFile(filepath.Join(dir, dest.PresetsFile), []byte(saved), 0o600); err != nil {
		t.Fatal(err)
	}
	lib, problems, err := destination.OpenLibrary(dir, t.TempDir())
	if err != nil || len(problems) > 0 {
		t.Fatal(err, problems)
	}
	moved, ok := lib.(interface{ Notice() *fact.Fact })
	if !ok || moved.Notice() == nil {
		t.Fatal("the saved destinations that moved say nothing")
	}

	three := map[string]string{"en": "3", "fa": "۳", "ar": "٣", "he": "3"}
	for _, code := range words.Codes {
		Speak(t, code)
		for name, text := range map[string]string{
			"dropped": view.ErrorWords(dropped), "newer": view.ErrorWords(newer), "damaged": view.ErrorWords(damaged),
			"moved": view.Speaking().Fact(*moved.Notice()),
		} {
			if code != "en" && (strings.Contains(text, "list") || strings.Contains(text, "switched")) {
				t.Errorf("%s, %s: %q is English", code, name, text)
			}
			if name != "moved" && !strings.Contains(text, backup) {
				t.Errorf("%s, %s: %q does not say where the old list is", code, name, text)
			}
			if (name == "dropped" || name == "moved") && !strings.Contains(text, three[code]) {
				t.Errorf("%s, %s: %q does not count 3 as %s", code, name, text, three[code])
			}
		}
	}
}

// TestOrganisationProblemsInEveryLanguage: what is wrong with the
// destinations an organisation set up is said in the window's language,
// naming the file.
func TestOrganisationProblemsInEveryLanguage(t *testing.T) {
	broken, mixed := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(broken, dest.ManagedFile), []byte(`{"version": 1, "destinations": [`), 0o644); err != nil {
		t.Fatal(err)
	}
	list := `{"version": 1, "destinations": [
	  {"name": "Banners", "kind": "cm360"},
	  {"name": "Mail", "kind": "gmail-insert"}, {"name": "Mail", "kind": "gmail-insert"}, 7]}`
	if err := os.WriteFile(filepath.Join(mixed, dest.ManagedFile), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	_, notJSON := dest.LoadManaged(broken)
	_, three := dest.LoadManaged(mixed)
	problems := append(notJSON, three...)
	if len(problems) != 4 {
		t.Fatalf("%d problems: %v", len(problems), problems)
	}
	for _, code := range words.Codes {
		Speak(t, code)
		seen := map[string]bool{}
		for _, p := range problems {
			text := view.ErrorWords(p)
			if seen[text] {
				t.Errorf("%s: %q said twice", code, text)
			}
			seen[text] = true
			if !strings.Contains(text, dest.ManagedFile) {
				t.Errorf("%s: %q does not name the file", code, text)
			}
			if code != "en" && (strings.Contains(text, "organisation") || strings.Contains(text, "left out")) {
				t.Errorf("%s: %q is English", code, text)
			}
		}
	}
}

// TestJSONProblemsInEveryLanguage: what is wrong inside an organisation's
// file of destinations is said in the window's language too: the field
// whose value is of the wrong kind, and the line of a syntax error in the
// language's digits (these were English words in every language).
func TestJSONProblemsInEveryLanguage(t *testing.T) {
	typed, broken := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(typed, dest.ManagedFile), []byte(`{"version": 1, "destinations": [{"name": 5, "kind": "drive"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(broken, dest.ManagedFile), []byte("{\"version\": 1,\n \"destinations\": [\n  {\"name\": \"Mail\",, \"kind\": \"drive\"}]}"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, wrongKind := dest.LoadManaged(typed)
	_, syntax := dest.LoadManaged(broken)
	if len(wrongKind) != 1 || len(syntax) != 1 {
		t.Fatalf("problems %v and %v", wrongKind, syntax)
	}
	want := map[string][2]string{
		"en": {"should be text in quotes", "line 3:"},
		"fa": {"باید متنی میان", "خط ۳:"},
		"ar": {"نصًا بين", "السطر ٣:"},
		"he": {"טקסט בין מירכאות", "שורה 3:"},
	}
	for _, code := range words.Codes {
		Speak(t, code)
		kind, line := unmarked(view.ErrorWords(wrongKind[0])), unmarked(view.ErrorWords(syntax[0]))
		if !strings.Contains(kind, want[code][0]) || !strings.Contains(kind, "name") {
			t.Errorf("%s: %q does not say that name should be text, in its words", code, kind)
		}
		if code != "en" && strings.Contains(kind, "should be") {
			t.Errorf("%s: %q is English", code, kind)
		}
		if !strings.Contains(line, want[code][1]) {
			t.Errorf("%s: %q does not name line 3 as %q", code, line, want[code][1])
		}
	}
}

// TestAWaitToAskAgainSaysSo: a file waiting to ask its destination again
// whether an earlier send arrived says that it will ask, not that it will
// try (send) again.
func TestAWaitToAskAgainSaysSo(t *testing.T) {
	Speak(t, "en")
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	v := engine.JobView{Name: "plan.pdf", State: engine.Retrying, RetryAt: now.Add(40 * time.Second),
		NextFact: &fact.Fact{Code: fact.AskIn, Dest: "drive"}}
	got := view.StateWords(v, now)
	if !strings.Contains(got, "Hoist will ask Google Drive again in 40 seconds") || strings.Contains(got, "try again") {
		t.Errorf("the row says %q", got)
	}
}
