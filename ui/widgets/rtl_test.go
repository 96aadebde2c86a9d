package widgets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

func TestRowInReadingOrder(t *testing.T) {
	test.NewTempApp(t)
	for _, tc := range []struct {
		code       string
		firstRight bool
	}{{"en", false}, {"fa", true}, {"ar", true}, {"he", true}} {
		t.Run(tc.code, func(t *testing.T) {
			direction(t, readsRight(tc.code))
			a, b := box(30, 10), box(50, 10)
			c := Row(a, b)
			c.Resize(fyne.NewSize(200, 10))
			if got := a.Position().X > b.Position().X; got != tc.firstRight {
				t.Errorf("first at x=%v, second at x=%v; first on the right = %v, want %v", a.Position().X, b.Position().X, got, tc.firstRight)
			}
			if tc.firstRight && a.Position().X+a.Size().Width != 200 {
				t.Errorf("in right to left the first object ends at %v, not at the right edge", a.Position().X+a.Size().Width)
			}
			if !tc.firstRight && a.Position().X != 0 {
				t.Errorf("in left to right the first object starts at %v", a.Position().X)
			}
		})
	}
}

func TestBorderStartIsTheReadingSide(t *testing.T) {
	test.NewTempApp(t)
	for _, code := range []string{"en", "he"} {
		direction(t, readsRight(code))
		start, end, centre := box(20, 10), box(40, 10), box(10, 10)
		c := Border(nil, nil, start, end, centre)
		c.Resize(fyne.NewSize(300, 10))
		right := readsRight(code)
		if got := start.Position().X > end.Position().X; got != right {
			t.Errorf("%s: start at x=%v, end at x=%v", code, start.Position().X, end.Position().X)
		}
		if centre.Position().X <= min(start.Position().X, end.Position().X) || centre.Position().X >= max(start.Position().X, end.Position().X) {
			t.Errorf("%s: centre at x=%v is not between the sides", code, centre.Position().X)
		}
	}
}

// bars are the progress bar's rectangles, the filled one last.
func filledPart(t *testing.T, p *ProgressBar) *canvas.Rectangle {
	t.Helper()
	var rects []*canvas.Rectangle
	for _, o := range test.WidgetRenderer(p).Objects() {
		if r, ok := o.(*canvas.Rectangle); ok {
			rects = append(rects, r)
		}
	}
	slices.SortFunc(rects, func(a, b *canvas.Rectangle) int { return int(a.Size().Width - b.Size().Width) })
	if len(rects) < 2 {
		t.Fatalf("the progress bar draws %d rectangles", len(rects))
	}
	return rects[0]
}

func progressText(p *ProgressBar) string {
	for _, o := range test.WidgetRenderer(p).Objects() {
		if txt, ok := o.(*canvas.Text); ok {
			return txt.Text
		}
	}
	return ""
}

// percentIn writes a ratio as a percentage, as each language of the tests does.
func percentIn(code string) func(float64) string {
	return func(r float64) string {
		n := fmt.Sprint(int(r*100 + 0.5))
		switch code {
		case "fa":
			return strings.NewReplacer("0", "۰", "1", "۱", "2", "۲", "3", "۳", "4", "۴", "5", "۵", "6", "۶", "7", "۷", "8", "۸", "9", "۹").Replace(n) + "٪"
		case "ar":
			return strings.NewReplacer("0", "٠", "1", "١", "2", "٢", "3", "٣", "4", "٤", "5", "٥", "6", "٦", "7", "٧", "8", "٨", "9", "٩").Replace(n) + "٪\u061c"
		}
		return n + "%"
	}
}

func TestProgressFillsFromTheReadingSide(t *testing.T) {
	app(t)
	for _, tc := range []struct{ code, text string }{
		{"en", "25%"}, {"fa", "۲۵٪"}, {"ar", "٪٢٥"}, {"he", "25%"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			direction(t, readsRight(tc.code))
			p := NewProgressBar(percentIn(tc.code))
			w := test.NewTempWindow(t, p)
			w.Resize(fyne.NewSize(208, 40))
			p.SetValue(0.25)
			fill := filledPart(t, p)
			wantX := float32(0)
			if readsRight(tc.code) {
				wantX = p.Size().Width - fill.Size().Width
			}
			if fill.Position().X != wantX || fill.Size().Width != p.Size().Width/4 {
				t.Errorf("filled part at x=%v, %v wide; want x=%v, %v wide", fill.Position().X, fill.Size().Width, wantX, p.Size().Width/4)
			}
			if got := progressText(p); got != tc.text {
				t.Errorf("percentage %q, want %q", got, tc.text)
			}
			// Laid out again, it stays where it is.
			p.Refresh()
			p.Resize(p.Size())
			if fill.Position().X != wantX {
				t.Errorf("after a refresh the filled part moved to x=%v", fill.Position().X)
			}
		})
	}
}

func TestDirectionalIconsFlip(t *testing.T) {
	test.NewTempApp(t)
	back := theme.NavigateBackIcon()
	direction(t, false)
	if DirectionalIcon(back) != back {
		t.Error("in left to right the icon changed")
	}
	direction(t, true)
	flipped := DirectionalIcon(back)
	if flipped == back || !strings.Contains(string(flipped.Content()), "matrix(-1 0 0 1 24 0)") {
		t.Errorf("in right to left the back arrow is not Mirrored: %.200s", flipped.Content())
	}
	if _, ok := flipped.(*theme.ThemedResource); !ok {
		t.Errorf("the Mirrored icon lost the theme's colours: %T", flipped)
	}
}

// TestMirroredGolden draws the same controls in English and mirrored in
// Persian, Arabic and Hebrew: a back arrow, a bar filled to 40% and a file
// name, in reading order.
func TestMirroredGolden(t *testing.T) {
	app(t)
	for _, tc := range []struct{ code, name string }{
		{"en", "نامه مشتری.eml"}, {"fa", "نامه مشتری.eml"}, {"ar", "صورة الفاتورة.png"}, {"he", "דוח שנתי.eml"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			direction(t, readsRight(tc.code))
			p := NewProgressBar(percentIn(tc.code))
			p.SetValue(0.4)
			back := widget.NewButtonWithIcon("", DirectionalIcon(theme.NavigateBackIcon()), func() {})
			name := container.NewGridWrap(fyne.NewSize(150, 36), NewLabel(tc.name))
			c := Border(nil, nil, back, name, p)
			w := test.NewTempWindow(t, c)
			w.Resize(fyne.NewSize(400, 50))
			test.AssertImageMatches(t, "mirror_"+tc.code+".png", w.Canvas().Capture())
		})
	}
}

// The message line names files in sentences: "نامه مشتری.eml" must not
// come out as ".نامه مشتریeml".
func TestMessageLineBidi(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		rtl  bool
		want []segment
	}{
		{"english sentence", "نامه مشتری.eml: Gmail accepts only email files.", false, []segment{
			{text: "نامه مشتری", rtl: true}, {text: ".eml: Gmail accepts only email files."},
		}},
		{"persian sentence", "«نامه مشتری.eml» بارگذاری شد.", true, []segment{
			{text: "."}, {text: "بارگذاری شد", rtl: true}, {text: " «"}, {text: "eml"}, {text: "."}, {text: "نامه مشتری", rtl: true}, {text: "»"},
		}},
		{"direction marks are not drawn", "\u200fa.png", false, []segment{{text: "a.png"}}},
		{"latin name in a right-to-left window", "holiday 2026.png", true, []segment{{text: "holiday 2026.png"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := paragraphSegments(tc.text, tc.rtl); !slices.Equal(got, tc.want) {
				t.Errorf("paragraphSegments(%q, rtl %v) =\n %+v\nwant %+v", tc.text, tc.rtl, got, tc.want)
			}
		})
	}
}

func TestBidiLevelsRightToLeft(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []uint8
	}{
		{"ab", []uint8{2, 2}},
		{"א ב", []uint8{1, 1, 1}},
		{"א 12", []uint8{1, 1, 2, 2}},
		{"a ", []uint8{2, 1}}, // trailing space at the paragraph's level
	} {
		if got := bidiLevels([]rune(tc.text), true); !slices.Equal(got, tc.want) {
			t.Errorf("bidiLevels(%q, rtl) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestMessageLineGolden draws the message line's sentence about a Persian
// file name, wrapped, in an English and a Persian window.
func TestMessageLineGolden(t *testing.T) {
	app(t)
	for _, tc := range []struct{ code, text string }{
		{"en", "نامه مشتری.eml: Gmail accepts only email files (.eml); this one is not."},
		{"fa", "«نامه مشتری.eml» فایل ایمیل نیست؛ جیمیل فقط فایل ایمیل (\u200e.eml) می\u200cپذیرد."},
	} {
		t.Run(tc.code, func(t *testing.T) {
			direction(t, readsRight(tc.code))
			p := NewParagraph(tc.text)
			w := test.NewTempWindow(t, container.NewVBox(p))
			w.Resize(fyne.NewSize(300, 120))
			test.AssertImageMatches(t, "message_"+tc.code+".png", w.Canvas().Capture())
			if n := test.WidgetRenderer(p).(*paragraphRenderer).lines; n < 2 {
				t.Errorf("the sentence took %d line(s) in 300 pixels", n)
			}
		})
	}
}

func TestWrapLines(t *testing.T) {
	test.NewTempApp(t)
	size := theme.TextSize()
	width := fyne.MeasureText("aaaa bbbb", size, fyne.TextStyle{}).Width
	got := wrapLines("aaaa bbbb cccc\nd", width, size, fyne.TextStyle{})
	if want := []string{"aaaa bbbb", "cccc", "d"}; !slices.Equal(got, want) {
		t.Errorf("wrapLines = %q, want %q", got, want)
	}
	long := wrapLines("abcdefghijklmnopqrstuvwxyz", width/2, size, fyne.TextStyle{})
	if len(long) < 2 || strings.Join(long, "") != "abcdefghijklmnopqrstuvwxyz" {
		t.Errorf("a long word was cut into %q", long)
	}
}

// A file name isolated in a right-to-left sentence keeps its own order:
// "2026 report.pdf" in a Hebrew sentence is not drawn as "report.pdf 2026".
func TestIsolatedNameInRightToLeftSentence(t *testing.T) {
	text := "\u20682026 report.pdf\u2069" + " השתנה"
	got := paragraphSegments(text, true)
	want := []segment{{text: "השתנה", rtl: true}, {text: " "}, {text: "2026 report.pdf"}}
	if !slices.Equal(got, want) {
		t.Errorf("paragraphSegments(%q) =\n %+v\nwant %+v", text, got, want)
	}
	// Without the marks, the year and the extension change places.
	if plain := paragraphSegments("2026 report.pdf השתנה", true); slices.Equal(plain, want) {
		t.Errorf("the isolate changed nothing: %+v", plain)
	}
	// A Hebrew name reads from the right: name, year, extension.
	text = "\u2068דוח שנתי 2026.eml\u2069" + " השתנה"
	want = []segment{{text: "השתנה", rtl: true}, {text: " "}, {text: "eml"}, {text: "."}, {text: "2026"}, {text: " "}, {text: "דוח שנתי", rtl: true}}
	if got := paragraphSegments(text, true); !slices.Equal(got, want) {
		t.Errorf("paragraphSegments(%q) =\n %+v\nwant %+v", text, got, want)
	}
}
