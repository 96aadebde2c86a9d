package widgets

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/ui/internal/testui"
)

// The tests in this file look at what is drawn, not at what the widgets
// compute: each text object on screen, taken from the left by its place,
// is split and shaped as the toolkit's painter does it (testui.DrawnLines),
// and the characters of its glyphs, from the left, must be the sentence in
// the order the Unicode Bidirectional Algorithm gives (StandardOrder: rule
// L2 over the levels that TestBidiConformance checks).

// namesInSentences are sentences as Hoist's windows say them, with names in
// every pair of scripts, isolated as the window isolates them, and some
// left as a toolkit's text might carry them, unmarked.
var namesInSentences = []struct {
	code, text string
}{
	// A Hebrew name in Persian: the row's sentence, the details, "Show result".
	{"fa", "بررسی شد (CRC32C). در محیط آزمایشی بارگذاری شد. نام: \u2068דוח.png\u2069. شناسه: \u2068sbx-42\u2069"},
	{"fa", "نام: \u2068דוח.png\u2069"},
	{"fa", "«\u2068דוח שנתי 2026.eml\u2069» بارگذاری شد."},
	{"fa", "نام: דוח.png"},
	// A Hebrew name in Arabic: the Undo line.
	{"ar", "أُزيل «\u2068דוח.png\u2069»."},
	{"ar", "أُزيل «דוח.png»."},
	// Arabic and Persian names in Hebrew.
	{"he", "הקובץ \u2068تقرير.png\u2069 הועלה."},
	{"he", "\u2068گزارش.eml\u2069 נשמר בארגז החול."},
	{"he", "הוסר «\u2068گزارش (نهایی).v2.pdf\u2069»."},
	{"he", "שם: تقرير.png"},
	// Latin with digits in each right-to-left language.
	{"fa", "«\u2068report 2026 (v2).pdf\u2069» بارگذاری شد؛ ۳ از ۵."},
	{"ar", "أُزيل «\u2068Invoice_07.12.2026.pdf\u2069»."},
	{"he", "הקובץ \u2068IMG_0042 (1).jpg\u2069 הועלה, 12 MB."},
	// Names with brackets and dots, and right-to-left names in English.
	{"fa", "«\u2068דוח [2026].ב.png\u2069» بارگذاری شد."},
	{"ar", "أُزيل «\u2068تقرير (٢).final.png\u2069» و«\u2068דוח (3).eml\u2069»."},
	{"en", "Uploaded \u2068دوح (2).png\u2069 and \u2068דוח.png\u2069 to the sandbox."},
	{"en", "Removed گزارش.eml and דוח 2026.png."},
	// A Latin name holding a Hebrew word, cut across lines when wrapped.
	{"fa", "«\u2068quarterly report דוח שנתי final 2026.pdf\u2069» بارگذاری شد."},
	{"he", "הקובץ \u2068Invoice עותק copy for the office.pdf\u2069 הועלה."},
	// Names with emoji and symbols, which another font draws.
	{"he", "הקובץ \u2068گزارش 🎉 نهایی.png\u2069 הועלה."},
	{"fa", "«\u2068דוח ★ שנתי.eml\u2069» بارگذاری شد."},
	{"ar", "تم تحميل «\u2068تقرير ✓ نهائي.pdf\u2069»."},
	// Overrides a name may carry: the standard's order is what others see.
	{"en", "Uploaded invoice\u202egpj.exe\u202c to the sandbox."},
	{"fa", "«\u2068\u202dדוח\u202c.png\u2069» بارگذاری شد."},
	{"he", "הקובץ \u2068\u202eabc (1)\u202c.txt\u2069 הועלה."},
}

// TestDrawnOrderIsTheStandards draws each sentence through the window's
// widgets — a label, a paragraph and a toolkit label given Visual's text —
// in its language's direction, and reads the glyphs back from the screen.
func TestDrawnOrderIsTheStandards(t *testing.T) {
	app(t)
	for i, tc := range namesInSentences {
		t.Run(fmt.Sprintf("%s-%d", tc.code, i), func(t *testing.T) {
			rtl := readsRight(tc.code)
			direction(t, rtl)
			want := testui.Comparable(StandardOrder(tc.text, rtl))
			for _, w := range []struct {
				name string
				o    fyne.CanvasObject
			}{
				{"Label", NewLabel(tc.text)},
				{"Paragraph", NewParagraph(tc.text)},
				{"Visual", widget.NewLabel(Visual(tc.text))},
			} {
				win := test.NewTempWindow(t, container.NewVBox(w.o))
				win.Resize(fyne.NewSize(1400, 60))
				lines := testui.DrawnLines(w.o)
				if len(lines) != 1 {
					t.Fatalf("%s: %d lines drawn", w.name, len(lines))
				}
				if lines[0].Overlap != "" {
					t.Errorf("%s: %q overlaps the text on its left in %q", w.name, lines[0].Overlap, lines[0].Pieces)
				}
				if got := testui.Comparable(lines[0].Text); got != want {
					t.Errorf("%s draws %q as\n %q (pieces %q)\nthe standard's order is\n %q", w.name, tc.text, got, lines[0].Pieces, want)
				}
			}
		})
	}
}

// TestWrappedNamesAreDrawnAsTheStandardSays draws the sentences in a
// paragraph too narrow for them: each line drawn is the standard's order
// of that line, its levels those of the whole sentence (a name cut across
// two lines stays isolated on both).
func TestWrappedNamesAreDrawnAsTheStandardSays(t *testing.T) {
	app(t)
	for i, tc := range namesInSentences {
		t.Run(fmt.Sprintf("%s-%d", tc.code, i), func(t *testing.T) {
			rtl := readsRight(tc.code)
			direction(t, rtl)
			p := NewParagraph(tc.text)
			win := test.NewTempWindow(t, container.NewWithoutLayout(p))
			win.Resize(fyne.NewSize(400, 400))
			p.Resize(fyne.NewSize(110, 380))
			var logical []string
			for _, l := range p.Lines() {
				if l != "" {
					logical = append(logical, l)
				}
			}
			want := StandardLines(tc.text, logical, rtl)
			drawn := testui.DrawnLines(p)
			if len(drawn) != len(want) || len(drawn) < 2 && len([]rune(tc.text)) > 20 {
				t.Fatalf("%d lines drawn of %q, %d cut", len(drawn), tc.text, len(want))
			}
			for k, line := range drawn {
				if got, w := testui.Comparable(line.Text), testui.Comparable(want[k]); got != w {
					t.Errorf("line %d of %q is drawn as\n %q (pieces %q)\nthe standard's order is\n %q", k+1, tc.text, got, line.Pieces, w)
				}
			}
		})
	}
}

// TestDrawnPiecesHoldOneScript: the toolkit is never handed a right-to-left
// piece holding two scripts, which it would cut and lay out from the left.
func TestDrawnPiecesHoldOneScript(t *testing.T) {
	for _, tc := range namesInSentences {
		for _, sg := range paragraphSegments(tc.text, readsRight(tc.code)) {
			scripts := map[string]bool{}
			for _, r := range sg.text {
				if s := scriptOf(r); s != "" && isStrongRTL(r) {
					scripts[s] = true
				}
			}
			if len(scripts) > 1 {
				t.Errorf("%q: the piece %q holds %d scripts", tc.text, sg.text, len(scripts))
			}
		}
	}
	if t.Failed() {
		return
	}
	// The sentence, seen: the Hebrew name whole beside its extension.
	got := Seen("در محیط آزمایشی بارگذاری شد. نام: \u2068דוח.png\u2069.", true)
	if !strings.Contains(got, "png.חוד :مان") {
		t.Errorf("seen as %q", got)
	}
}
