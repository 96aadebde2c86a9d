package ui

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/engine/fact"
	"hoist/ui/queuelist"
	"hoist/ui/readingcheck"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// unmarked is s without the invisible marks that isolate values in it.
func unmarked(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '\u2066' && r <= '\u2069' {
			return -1
		}
		return r
	}, s)
}

// TestEveryValueIsIsolated: a file name and a destination's name inside a
// sentence are isolated (U+2068 … U+2069) in every language, so a Hebrew
// name in a Persian sentence, a Persian one in a Hebrew sentence, or either
// in an English one stays one block in its place; the marks are never drawn.
func TestEveryValueIsIsolated(t *testing.T) {
	for _, c := range []struct{ code, file, Dest string }{
		{"en", "דוח 2026.eml", "ארכיון"},
		{"fa", "דוח 2026.eml", "ארכיון"},
		{"ar", "דוח 2026.eml", "ארכיון"},
		{"he", "گزارش ۲.eml", "بنرها"},
	} {
		t.Run(c.code, func(t *testing.T) {
			speakWindow(t, c.code)
			l := view.Speaking()
			tooLarge := l.Fact(fact.Fact{Code: fact.TooLarge, File: c.file, Dest: "drive", Size: 6 << 40, Limit: 5 << 40})
			if !strings.Contains(tooLarge, "\u2068"+c.file+"\u2069") {
				t.Errorf("the file name is not isolated in %q", tooLarge)
			}
			used := l.Fact(fact.Fact{Code: fact.NameUsed, Args: map[string]string{"name": c.Dest}})
			if !strings.Contains(used, "\u2068"+c.Dest+"\u2069") {
				t.Errorf("the destination's name is not isolated in %q", used)
			}
			if got := view.Visual(used); strings.ContainsAny(got, "\u2066\u2067\u2068\u2069") {
				t.Errorf("the toolkit would be given the marks: %q", got)
			}
			// Drawn in the window's direction, the name reads as it would alone, in its place.
			alone := seenAs(c.file, widgets.HasRightToLeft(c.file))
			if drawn := seenAs(tooLarge, l.RTL()); !strings.Contains(drawn, alone) {
				t.Errorf("the name, seen alone as %q, is not one block in %q", alone, drawn)
			}
		})
	}
}

// seenAs is text as it is seen, from left to right, in a paragraph of the
// given direction.
func seenAs(text string, rtlPara bool) string { return widgets.Seen(text, rtlPara) }

// TestTheSeparatorIsNoZero: in Persian and Arabic the parts of a row's
// progress are parted by the language's comma, never by a raised dot that
// reads as the digit zero (۰, ٠).
func TestTheSeparatorIsNoZero(t *testing.T) {
	v := engine.JobView{State: engine.Uploading, Size: 12 << 20, Delivered: 4 << 20, Speed: 1.5e6, ETA: 6 * time.Second}
	for _, code := range []string{"fa", "ar"} {
		speakWindow(t, code)
		got := view.ProgressWords(v)
		if strings.Contains(got, "·") || strings.Count(got, "،") != 2 {
			t.Errorf("%s: the progress reads %q", code, got)
		}
	}
	speakWindow(t, "en")
	if got := view.ProgressWords(v); strings.Count(got, " · ") != 2 {
		t.Errorf("en: the progress reads %q", got)
	}
}

// TestSettingsChecksAreMirrored: in a right-to-left window a check box is
// at the reading side of its words (the right), in English at the left.
func TestSettingsChecksAreMirrored(t *testing.T) {
	for _, c := range []struct {
		code     string
		boxRight bool
	}{{"en", false}, {"fa", true}, {"he", true}} {
		t.Run(c.code, func(t *testing.T) {
			speakWindow(t, c.code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			h.d.settings.ShowSettings()
			var checks []*readingcheck.Check
			walk(h.d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
				if rc, ok := o.(*readingcheck.Check); ok {
					checks = append(checks, rc)
				}
			})
			if len(checks) != 2 {
				t.Fatalf("%d check boxes in Settings, want 2", len(checks))
			}
			d := fyne.CurrentApp().Driver()
			for _, rc := range checks {
				rcBox, rcWords := rc.Parts()
				box, words := d.AbsolutePositionForObject(rcBox).X, d.AbsolutePositionForObject(rcWords).X
				if (box > words) != c.boxRight {
					t.Errorf("the box is at x=%v and its words at x=%v", box, words)
				}
			}
			on := checks[0].Checked()
			_, firstWords := checks[0].Parts()
			test.Tap(firstWords.(fyne.Tappable))
			if checks[0].Checked() == on {
				t.Error("a tap on the words does not tick the box")
			}
		})
	}
}

// TestSettingsChecksAreReadWhole: the words of each check box in Settings
// are shown whole, in every language, at every size the window opens at:
// "Continue unfinished uploads when H…" and "When the window is closed,
// keep upl…" could not be read.
func TestSettingsChecksAreReadWhole(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			for name, size := range smokeSizes() {
				h.d.frame.CloseDialogs()
				h.d.win.Resize(size)
				h.d.settings.ShowSettings()
				n := 0
				walk(h.d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
					rc, ok := o.(*readingcheck.Check)
					if !ok {
						return
					}
					n++
					var shown []string
					_, rcWords := rc.Parts()
					for _, p := range drawnPieces(rcWords) {
						shown = append(shown, p.what)
					}
					if all := strings.Join(shown, " "); strings.Contains(all, "…") || len(shown) == 0 {
						t.Errorf("%s: a setting reads %q", name, all)
					}
					checkNothingDrawnOver(t, name, rc)
				})
				if n != 2 {
					t.Fatalf("%s: %d check boxes in Settings, want 2", name, n)
				}
			}
		})
	}
}

// TestTheStateWordIsNeverCut: in a narrow window, in Persian and Arabic,
// an uploading row shows its state word whole ("در حال بارگذاری", not
// "در حال ..."); the byte count and speed give up their room first.
func TestTheStateWordIsNeverCut(t *testing.T) {
	for _, code := range []string{"fa", "ar", "he", "en"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			h.d.win.Resize(fyne.NewSize(640, 480))
			v := engine.JobView{ID: "j1", Name: "گزارش سالانه.png", State: engine.Uploading, Size: 1300 << 20,
				Delivered: 262 << 10, Committed: 262 << 10, Speed: 294e6, ETA: 4 * time.Second, Version: 1}
			h.showFixed([]engine.JobView{v})
			var row *queuelist.JobRow
			walk(h.d.list, func(o fyne.CanvasObject) {
				if r, ok := o.(*queuelist.JobRow); ok && r.Shown != 0 && r.Visible() {
					row = r
				}
			})
			if row == nil {
				t.Fatal("no row on screen")
			}
			word := view.Speaking().State("uploading")
			need := queuelist.Natural(row.Status, word)
			if got := row.Status.Size().Width; got+0.5 < need {
				t.Errorf("the state %q has %.0f of the %.0f it needs; the progress %q has %.0f",
					word, got, need, row.Progress.Text(), row.Progress.Size().Width)
			}
		})
	}
}
