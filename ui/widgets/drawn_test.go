package widgets

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/bidi"

	"hoist/assets"
)

// The tests in this file look at what is drawn, not at what the widgets
// compute: each text object on screen, taken from the left by its place,
// is split and shaped as the toolkit's painter does it (go-text's
// segmenter and HarfBuzz shaper, which cut a text where its script or
// direction changes and lay the parts side by side from the left), and the
// characters of its glyphs, from the left, must be the sentence in the
// order the Unicode Bidirectional Algorithm gives (rule L2 over the levels
// that TestBidiConformance checks).

// oneFace is a font map that draws every character with one face, as the
// tests' theme does.
type oneFace struct{ face *font.Face }

func (f oneFace) ResolveFace(rune) *font.Face { return f.face }

func testFace(t *testing.T) *font.Face {
	t.Helper()
	face, err := font.ParseTTF(bytes.NewReader(assets.FontRegular))
	if err != nil {
		t.Fatal(err)
	}
	return face
}

// glyphOrder is the characters of text as the toolkit draws it, from the
// left: the characters of each glyph cluster, those of a cluster shaped
// right to left turned round (a letter's marks before it, as rule L2 puts
// them).
func glyphOrder(face *font.Face, text string) []rune {
	runes := []rune(text)
	in := shaping.Input{
		Text: runes, RunStart: 0, RunEnd: len(runes),
		Direction: di.DirectionLTR, Face: face, Size: fixed.I(14),
	}
	var seg shaping.Segmenter
	var shaper shaping.HarfbuzzShaper
	var drawn []rune
	for _, run := range seg.Split(in, oneFace{face}) {
		out := shaper.Shape(run)
		rtl := run.Direction.Progression() == di.TowardTopLeft
		for i := 0; i < len(out.Glyphs); {
			g := out.Glyphs[i]
			cluster := slices.Clone(runes[g.ClusterIndex : g.ClusterIndex+g.RuneCount])
			if rtl {
				slices.Reverse(cluster)
			}
			drawn = append(drawn, cluster...)
			i += max(g.GlyphCount, 1)
		}
	}
	return drawn
}

// standardOrder is text as rule L2 orders it in a paragraph of the given
// direction, without the marks that only steer the order.
func standardOrder(text string, rtlPara bool) []rune {
	runes := []rune(text)
	dir := paraLTR
	if rtlPara {
		dir = paraRTL
	}
	res := ubaText{classes: classesOf(runes), runes: runes}.resolve(dir)
	var seen []rune
	for _, k := range visualOrder(res.levels) {
		seen = append(seen, runes[k])
	}
	return comparable(seen)
}

// comparable leaves out what has no glyph of its own to place (direction
// marks, joiners) and counts a mirrored character and its mirror as one:
// "(" drawn right to left is a ")" glyph.
func comparable(runes []rune) []rune {
	var out []rune
	for _, r := range runes {
		if isDirectionMark(r) {
			continue
		}
		if p, _ := bidi.LookupRune(r); p.Class() == bidi.BN {
			continue
		}
		if m, ok := mirrors[r]; ok {
			r = min(r, m)
		}
		if p, _ := bidi.LookupRune(r); p.IsBracket() {
			r = min(r, pairedBracket(r))
		}
		out = append(out, r)
	}
	return out
}

// drawnPieces are the visible text objects inside o, from the left.
type placedText struct {
	text        string
	left, right float32
}

func drawnPieces(o fyne.CanvasObject) []placedText {
	drv := fyne.CurrentApp().Driver()
	var pieces []placedText
	walk(o, func(o fyne.CanvasObject) {
		t, ok := o.(*canvas.Text)
		if !ok || !t.Visible() || t.Text == "" {
			return
		}
		x := drv.AbsolutePositionForObject(t).X
		pieces = append(pieces, placedText{t.Text, x, x + fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width})
	})
	slices.SortStableFunc(pieces, func(a, b placedText) int {
		switch {
		case a.left < b.left:
			return -1
		case a.left > b.left:
			return 1
		}
		return 0
	})
	return pieces
}

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
}

// TestDrawnOrderIsTheStandards draws each sentence through the window's
// widgets — a label, a paragraph and a toolkit label given Visual's text —
// in its language's direction, and reads the glyphs back from the screen.
func TestDrawnOrderIsTheStandards(t *testing.T) {
	app(t)
	face := testFace(t)
	for i, tc := range namesInSentences {
		t.Run(fmt.Sprintf("%s-%d", tc.code, i), func(t *testing.T) {
			rtl := readsRight(tc.code)
			direction(t, rtl)
			want := string(standardOrder(tc.text, rtl))
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
				pieces := drawnPieces(w.o)
				var drawn []rune
				var texts []string
				for k, p := range pieces {
					if k > 0 && p.left < pieces[k-1].right-0.5 {
						t.Errorf("%s: %q at %v overlaps %q ending at %v", w.name, p.text, p.left, pieces[k-1].text, pieces[k-1].right)
					}
					drawn = append(drawn, glyphOrder(face, p.text)...)
					texts = append(texts, p.text)
				}
				if got := string(comparable(drawn)); got != want {
					t.Errorf("%s draws %q as\n %q (pieces %q)\nthe standard's order is\n %q", w.name, tc.text, got, texts, want)
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
