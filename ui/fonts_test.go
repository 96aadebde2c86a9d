package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/assets"
	"hoist/ui/look"
	"hoist/ui/widgets"
)

// TestEachStyleIsOneFont: for every text style the theme's font is the
// toolkit's own font for that style, which holds Hoist's, so the toolkit
// parses one font per style where it parsed two (the theme's and its own
// fallback), and what it draws is Hoist's font, which covers Latin, Arabic
// and Hebrew.
func TestEachStyleIsOneFont(t *testing.T) {
	th := look.NewTheme(look.ThemeSystem)
	for _, c := range []struct {
		style    fyne.TextStyle
		fallback fyne.Resource
		Content  []byte
	}{
		{fyne.TextStyle{}, theme.DefaultTextFont(), assets.FontRegular},
		{fyne.TextStyle{Bold: true}, theme.DefaultTextBoldFont(), assets.FontBold},
		{fyne.TextStyle{Monospace: true}, theme.DefaultTextMonospaceFont(), nil},
	} {
		got := th.Font(c.style)
		if got != c.fallback {
			t.Errorf("style %+v: the theme's font %s is not the toolkit's own %s: both are parsed", c.style, got.Name(), c.fallback.Name())
		}
		if c.Content != nil && !bytes.Equal(got.Content(), c.Content) {
			t.Errorf("style %+v: the toolkit's font is %s, not Hoist's", c.style, got.Name())
		}
	}
}

// TestTheEmojiFontWaitsForAnEmoji: the toolkit's colour emoji font (4.7 MB
// of memory per text style once parsed) is held back while the window shows
// no emoji, whatever the language, and given back once a text holds one
// that Hoist's font lacks.
func TestTheEmojiFontWaitsForAnEmoji(t *testing.T) {
	if look.Emoji.Resource == nil {
		t.Fatal("the toolkit has no emoji font to hold back")
	}
	test.NewTempApp(t)
	look.HoldEmoji()
	before := look.EmojiLater
	t.Cleanup(func() {
		look.EmojiLater = before
		look.Emoji.Resource.StaticName, look.Emoji.Resource.StaticContent = look.Emoji.Name, look.Emoji.Data
		look.Emoji.Wanted.Store(true)
		look.Emoji.Given.Store(true)
	})
	var later func()
	look.EmojiLater = func(f func()) { later = f }
	held := func() bool { return len(theme.DefaultEmojiFont().Content()) < 100<<10 }
	if !held() {
		t.Fatalf("the emoji font is given at start (%d bytes)", len(theme.DefaultEmojiFont().Content()))
	}

	// Every sentence of the window, in every language, and names in
	// Hoist's scripts and with its symbols.
	var texts []string
	for _, dir := range []string{"../words/catalogue", "view/toolkit"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.json"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no catalogue in %s: %v", dir, err)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			texts = append(texts, stringsIn(t, b)...)
		}
	}
	texts = append(texts, "Quarterly update.eml", "تقرير_الحملة_2026.png", "گزارش نهایی.eml", "דוח שנתי.eml",
		"Résumé – “final” … ✓ ★ ☺ ← →", "\u2068photo.png\u2069 · 12 MB")
	for _, s := range texts {
		widgets.Visual(s)
		widgets.Seen(s, true)
		if look.Emoji.Wanted.Load() {
			t.Fatalf("%q asks for the emoji font", s)
		}
	}
	if !held() {
		t.Fatal("the emoji font was given without an emoji")
	}

	test.NewWindow(widgets.NewWholeLabel("🎉 Party ⚽ photos.jpg")) // drawn whole: the window is as wide as it
	if later == nil {
		t.Fatal("an emoji was shown, the emoji font was not asked for")
	}
	if !held() {
		t.Fatal("the emoji font was given back in the middle of the frame that showed the emoji")
	}
	later() // on the UI goroutine, after the frame
	if held() {
		t.Fatal("an emoji was shown, the emoji font was not given back")
	}
	if !bytes.Equal(theme.DefaultEmojiFont().Content(), look.Emoji.Data) {
		t.Error("the emoji font given back is not the toolkit's")
	}
}

// stringsIn is every string value in a JSON document.
func stringsIn(t *testing.T, b []byte) []string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}
