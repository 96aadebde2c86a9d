package ui

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/test"

	"hoist/engine/fact"
	"hoist/ui/look"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

func toolkitFile(t *testing.T, name string) map[string]json.RawMessage {
	t.Helper()
	data, err := view.ToolkitWords.ReadFile("toolkit/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s.json: %v", name, err)
	}
	return m
}

// TestToolkitWordsComplete: every word the toolkit has in English is there
// in Arabic, Persian and Hebrew.
func TestToolkitWordsComplete(t *testing.T) {
	want := slices.Sorted(maps.Keys(toolkitFile(t, "en")))
	for _, code := range []string{"ar", "fa", "he"} {
		if got := slices.Sorted(maps.Keys(toolkitFile(t, code))); !slices.Equal(got, want) {
			t.Errorf("%s.json has keys %q, want %q", code, got, want)
		}
	}
	// The toolkit's own English file lists the words it looks up.
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "fyne.io/fyne/v2").Output()
	if err != nil {
		t.Skipf("the toolkit's module is not at hand: %v", err)
	}
	data, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "lang", "translations", "base.en.json"))
	if err != nil {
		t.Skipf("the toolkit's English words are not at hand: %v", err)
	}
	var base map[string]json.RawMessage
	if err := json.Unmarshal(data, &base); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(base)); !slices.Equal(got, want) {
		t.Errorf("the toolkit's words are %q; Hoist translates %q", got, want)
	}
}

func TestToolkitSpeaksTheChosenLanguage(t *testing.T) {
	t.Setenv("LANGUAGE", "en") // as the program's start settles it (ui/locale)
	test.NewTempApp(t)
	t.Cleanup(func() {
		if err := view.UseLanguage(words.English()); err != nil {
			t.Error(err)
		}
	})
	for _, tc := range []struct{ code, Cancel, Name, yes string }{
		{"fa", "لغو", "نام", "بله"},
		{"ar", "إلغاء", "الاسم", "نعم"},
		{"he", "ביטול", "שם", "כן"},
		{"en", "Cancel", "Name", "Yes"},
	} {
		if err := view.UseLanguage(words.New(tc.code)); err != nil {
			t.Fatal(err)
		}
		if got := lang.L("Cancel"); got != tc.Cancel {
			t.Errorf("%s: Cancel = %q, want %q", tc.code, got, tc.Cancel)
		}
		if got := lang.X("file.name", "Name"); got != tc.Name {
			t.Errorf("%s: file.name = %q, want %q", tc.code, got, tc.Name)
		}
		if got := lang.L("Yes"); got != tc.yes {
			t.Errorf("%s: Yes = %q, want %q", tc.code, got, tc.yes)
		}
		if view.Speaking().Code() != tc.code || view.Rtl() != words.IsRTL(tc.code) {
			t.Errorf("%s: the window speaks %s (rtl %v)", tc.code, view.Speaking().Code(), view.Rtl())
		}
	}
}

// TestConfirmDialogInPersian draws the toolkit's own question with its
// buttons in Persian.
func TestConfirmDialogInPersian(t *testing.T) {
	w := dialogWindow(t, "fa", fyne.NewSize(360, 200))
	d := dialog.NewConfirm("Hoist", "", func(bool) {}, w)
	d.Show()
	test.AssertImageMatches(t, "toolkit_confirm_fa.png", w.Canvas().Capture())
}

// dialogWindow is a light-themed window speaking code, the toolkit's words
// included, for a dialog to be drawn in; English comes back after the test.
func dialogWindow(t *testing.T, code string, size fyne.Size) fyne.Window {
	t.Helper()
	t.Setenv("LANGUAGE", "en") // as the program's start settles it (ui/locale)
	a := test.NewTempApp(t)
	a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
	if err := view.UseLanguage(words.New(code)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = view.UseLanguage(words.English()) })
	w := test.NewTempWindow(t, widgets.NewLabel(""))
	w.Resize(size)
	return w
}

// TestSentenceDialogGolden: a dialog's sentence naming a file reads right
// in a Hebrew window, its buttons in Hebrew.
func TestSentenceDialogGolden(t *testing.T) {
	w := dialogWindow(t, "he", fyne.NewSize(460, 260))
	text := words.New("he").Fact(fact.Fact{Code: fact.FileChanged, File: "דוח שנתי 2026.eml"})
	widgets.NewSentenceQuestion("Hoist", text, func(bool) {}, w).Show()
	test.AssertImageMatches(t, "dialog_sentence_he.png", w.Canvas().Capture())
	var shown []string
	walk(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if b, ok := asButton(o); ok {
			shown = append(shown, b.Text)
		}
	})
	if !slices.Contains(shown, "כן") || !slices.Contains(shown, "לא") {
		t.Errorf("the dialog's buttons are %q", shown)
	}
}
