package ui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/words"
)

// speakWindow makes the window and the toolkit's own dialogs speak code for
// the test; English comes back after it.
func speakWindow(t *testing.T, code string) {
	t.Helper()
	t.Setenv("LANGUAGE", "en") // as the program's start settles it (ui/locale)
	if err := view.UseLanguage(words.New(code)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = view.UseLanguage(words.English()) })
}

// The file the state pictures show, named as its owner named it.
const (
	shownName = "گزارش سالانه.png"
	shownPath = "/home/user/تصویرها/گزارش سالانه.png"
	shownSize = 12_400_000
)

// shownStates are one file in each of the main states, as the engine would
// show them, with the summary of a queue holding only it. The numbers are
// fixed, so the pictures are the same from one run to the next.
func shownStates() []struct {
	Name    string
	View    engine.JobView
	Summary engine.Summary
} {
	base := engine.JobView{
		ID: "shown-1", Name: shownName, Path: shownPath, Size: shownSize, MIME: "image/png",
		Destination: string(dest.Sandbox), DestKind: string(dest.Sandbox), Server: dest.SandboxServer,
		ETA: -1, Version: 1,
	}
	uploading := base
	uploading.State, uploading.Committed, uploading.Sent = engine.Uploading, 4_200_000, 4_400_000
	uploading.Speed, uploading.ETA = 1_500_000, 6*time.Second
	uploading.Actions = []engine.Action{engine.Pause, engine.Cancel}
	uploading.Version = 2
	paused := base
	paused.Version = 3
	paused.State, paused.Committed = engine.Paused, 4_200_000
	paused.Actions = []engine.Action{engine.Resume, engine.Cancel}
	failed := base
	failed.Version = 4
	failed.State, failed.Committed = engine.Failed, 4_200_000
	failed.Fact = &fact.Fact{Code: fact.Dropped, Dest: string(dest.Sandbox)}
	failed.NextFact = &fact.Fact{Code: fact.PressRetryAgain}
	failed.Reason, failed.Next = "The connection dropped.", "Press Retry to try again."
	failed.Actions = []engine.Action{engine.Retry, engine.Remove}
	done := base
	done.Version = 5
	done.State, done.Committed = engine.Done, shownSize
	done.Result = &engine.Result{ID: "obj-7", Verified: "size"}
	done.Actions = []engine.Action{engine.Remove}
	return []struct {
		Name    string
		View    engine.JobView
		Summary engine.Summary
	}{
		{"uploading", uploading, engine.Summary{Files: 1, Active: 1, Bytes: shownSize, BytesDone: 4_200_000, Speed: 1_500_000, ETA: 6 * time.Second, Version: 1}},
		{"paused", paused, engine.Summary{Files: 1, Paused: 1, Bytes: shownSize, BytesDone: 4_200_000, ETA: -1, Version: 2}},
		{"failed", failed, engine.Summary{Files: 1, Failed: 1, Bytes: shownSize, BytesDone: 4_200_000, ETA: -1, Version: 3}},
		{"done", done, engine.Summary{Files: 1, Done: 1, Bytes: shownSize, BytesDone: shownSize, ETA: -1, Version: 4}},
	}
}

// drawnTexts are the texts drawn in o: every visible text object inside it.
func drawnTexts(o fyne.CanvasObject) []string {
	var out []string
	var visit func(fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if strings.TrimSpace(x.Text) != "" {
				out = append(out, x.Text)
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				visit(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				visit(c)
			}
		}
	}
	visit(o)
	return out
}

// windowTexts are the texts of the window, its dialogs and its title.
func windowTexts(w fyne.Window) []string {
	out := append([]string{w.Title()}, drawnTexts(w.Canvas().Content())...)
	for _, o := range w.Canvas().Overlays().List() {
		out = append(out, drawnTexts(o)...)
	}
	return out
}

var latinWord = regexp.MustCompile(`[A-Za-z]+`)

// windowNames are the Latin words a Persian window may show: the names of
// products and of keys on the keyboard. Everything else in Latin letters
// must come from a file's name or path, an id, an address or an e-mail.
var windowNames = []string{
	"Hoist", "Google", "Gmail", "Drive", "YouTube", "Campaign", "Manager", "Play", "Games",
	"Ctrl", "Shift", "Delete", "A", "O", "SHA",
	"eml", "msg", "mbox", "Outlook", // the email files Hoist takes, as their names end, and the program of one
}

// latinLeft are the Latin words in texts that are neither product names
// nor part of the given names (file names, paths, ids, addresses, e-mails).
func latinLeft(texts []string, names ...string) []string {
	allowed := map[string]bool{}
	for _, w := range windowNames {
		allowed[w] = true
	}
	for _, n := range names {
		for _, w := range latinWord.FindAllString(n, -1) {
			allowed[w] = true
			allowed[strings.ToUpper(w)] = true // "PNG picture" names the file's type
		}
	}
	var left []string
	for _, s := range texts {
		for _, w := range latinWord.FindAllString(s, -1) {
			if !allowed[w] {
				left = append(left, w+" (in "+s+")")
			}
		}
	}
	return left
}

func TestLatinLeftFindsEnglish(t *testing.T) {
	if left := latinLeft([]string{"Uploading گزارش.png", "Hoist"}, "گزارش.png"); len(left) != 1 || !strings.HasPrefix(left[0], "Uploading") {
		t.Errorf("latinLeft = %q, want only the English word", left)
	}
}

// TestRightToLeftWindowGolden draws the window mirrored in Persian, Hebrew
// and Arabic in its main states: empty, uploading, paused, failed, done, a
// destination's form and the question before quitting. In Persian, no Latin
// letters are drawn but in file names, ids, addresses and product names.
func TestRightToLeftWindowGolden(t *testing.T) {
	for _, code := range []string{"fa", "he", "ar"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
			check := func(state string, names ...string) {
				t.Helper()
				test.AssertImageMatches(t, "rtl_"+code+"_"+state+".png", h.d.win.Canvas().Capture())
				if code != "fa" {
					return
				}
				names = append(names, h.sb.Url, h.journal.Path())
				if left := latinLeft(windowTexts(h.d.win), names...); len(left) > 0 {
					t.Errorf("the Persian window %s shows Latin words: %q", state, left)
				}
			}
			check("empty")

			for _, s := range shownStates() {
				h.showFixed([]engine.JobView{s.View})
				check(s.Name, shownPath, "obj-7")
				if !strings.ContainsAny(h.d.foot.Summary.Text(), "۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩0123456789") {
					t.Errorf("%s: the summary %q has no number", s.Name, h.d.foot.Summary.Text())
				}
			}

			h.d.bar.ShowForm(dest.Destination{Kind: dest.CM360, Params: map[string]string{}}, true)
			// The asset types are the values Google's API takes, written as it writes them.
			check("form", append(dest.Kind(dest.CM360).Info().Fields[2].Choices, shownPath, "obj-7", "HTML5")...)
			for h.d.frame.CloseTopDialog() {
			}

			release, _ := stalled(t, h, "فیلم.dat")
			defer close(release)
			s := shownStates()[0] // the row as it stood, not as the moving upload draws it
			h.showFixed([]engine.JobView{s.View})
			h.d.exit.askQuit(false)
			check("quit", shownPath)
			for h.d.frame.CloseTopDialog() {
			}
		})
	}
}

// TestPersianNumbers: sizes, counts and times in the Persian window are
// written in Persian digits, and the form's number fields take them.
func TestPersianNumbers(t *testing.T) {
	speakWindow(t, "fa")
	s := shownStates()[0]
	if got, want := view.SummaryWords(s.Summary, 0), "۰ از ۱ فایل، ۴٫۲ مگابایت از ۱۲ مگابایت، حدود ۶ ثانیه مانده"; got != want {
		t.Errorf("summary = %q, want %q", got, want)
	}
	if got := view.ProgressWords(s.View); !strings.Contains(got, "۱٫۵ مگابایت در ثانیه") {
		t.Errorf("progress = %q, want the speed in Persian digits", got)
	}
	d := dest.Destination{Kind: dest.CM360, Params: map[string]string{"profileId": "۱۲", "advertiserId": "٣٤"}}
	if err := d.Validate(); err != nil {
		t.Errorf("Persian and Arabic-Indic digits are refused: %v", err)
	}
}

// TestFormTakesPersianDigits types a profile id in Persian digits into the
// Campaign Manager 360 form: it is accepted, and the form says nothing is wrong.
func TestFormTakesPersianDigits(t *testing.T) {
	speakWindow(t, "fa")
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.ShowForm(dest.Destination{Kind: dest.CM360, Params: map[string]string{}}, true)
	var entries []*widget.Entry
	walk(h.d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		switch e := o.(type) {
		case *widget.Entry:
			entries = append(entries, e)
		case *widgets.Entry:
			entries = append(entries, &e.Entry)
		}
	})
	if len(entries) < 3 {
		t.Fatalf("the form has %d entries for a name and ids", len(entries))
	}
	profile := entries[1] // after the name
	test.Type(profile, "۱۲")
	if err := profile.Validate(); err != nil {
		t.Errorf("a profile id in Persian digits is refused: %v", err)
	}
	test.Type(profile, "x")
	if err := profile.Validate(); err == nil {
		t.Error("a profile id with a letter is taken")
	} else if left := latinLeft([]string{err.Error()}); len(left) > 0 {
		t.Errorf("the form says what is wrong in English: %q", err)
	}
}

// TestLanguageChoiceAppliesAtOnce chooses Hebrew in Settings: the window is
// built again in Hebrew, mirrored, with the list as it was; the choice is
// saved with the other settings.
func TestLanguageChoiceAppliesAtOnce(t *testing.T) {
	speakWindow(t, "en")
	h := newHarness(t, harnessOptions{sandboxMode: true})
	s := shownStates()[1]
	h.showFixed([]engine.JobView{s.View})
	if h.d.foot.PauseAll.Text != "Pause all" {
		t.Fatalf("the window starts in %q", h.d.foot.PauseAll.Text)
	}
	next := h.d.settings.Current
	next.Language = "he"
	h.d.settings.ApplySettings(next)
	if !view.Rtl() || h.d.foot.PauseAll.Text != words.New("he").Say("ui.all.pause", nil) {
		t.Errorf("after choosing Hebrew the window says %q", h.d.foot.PauseAll.Text)
	}
	if got := h.d.app.Preferences().String(view.PrefLanguage); got != "he" {
		t.Errorf("the choice is saved as %q", got)
	}
	if len(h.d.list.Views()) != 1 || h.d.list.Views()[0].Name != shownName {
		t.Errorf("the list after the change holds %v", jobNames(h.d.list.Views()))
	}
	if view.LoadSettings(h.d.app.Preferences()).Language != "he" {
		t.Error("the language is not read back")
	}
	next.Language = words.SystemSetting
	h.d.settings.ApplySettings(next)
	if view.Rtl() {
		t.Error("back to the system's language (English here), the window still reads right to left")
	}
}

// TestPersianTypedIntoEntry types a Persian name, with a year in Persian
// digits, into an entry of a Persian window, as into a destination's name:
// it is drawn as it reads, from the right.
func TestPersianTypedIntoEntry(t *testing.T) {
	w := dialogWindow(t, "fa", fyne.NewSize(320, 60))
	e := widgets.NewEntry()
	w.SetContent(e)
	w.Canvas().Focus(e)
	typed := "بایگانی خبرنامه ۱۴۰۵"
	test.Type(e, typed)
	if e.Text != typed {
		t.Fatalf("the entry holds %q", e.Text)
	}
	test.AssertImageMatches(t, "entry_typed_fa.png", w.Canvas().Capture())
}
