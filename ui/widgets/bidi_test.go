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
)

func TestVisualSegments(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []segment
	}{
		{"latin only", "holiday.png", []segment{{text: "holiday.png"}}},
		{"persian with extension", "گزارش نهایی.eml", []segment{{text: "گزارش نهایی", rtl: true}, {text: ".eml"}}},
		{"hebrew with extension", "דוח שנתי.eml", []segment{{text: "דוח שנתי", rtl: true}, {text: ".eml"}}},
		{"arabic words joined by underscores and a year", "تقرير_الحملة_2026.png", []segment{
			{text: "2026"}, {text: "_"}, {text: "تقرير_الحملة", rtl: true}, {text: ".png"},
		}},
		{"latin then arabic then a year", "Invoice فاتورة 2026.pdf", []segment{
			{text: "Invoice 2026"}, {text: " "}, {text: "فاتورة", rtl: true}, {text: ".pdf"},
		}},
		{"brackets around arabic are Mirrored", "(نسخة) a", []segment{
			{text: "("}, {text: "نسخة", rtl: true}, {text: ") a"},
		}},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := visualSegments(tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("visualSegments(%q) = %+v, want %+v", tt.text, got, tt.want)
			}
		})
	}
}

func TestBidiLevels(t *testing.T) {
	tests := []struct {
		text string
		want []uint8
	}{
		{"ab", []uint8{0, 0}},
		{"א ב", []uint8{1, 1, 1}},
		{"א 12", []uint8{1, 1, 2, 2}},
		{"a 12", []uint8{0, 0, 0, 0}},
		{"ع 1.5", []uint8{1, 1, 2, 2, 2}}, // after Arabic letters 1.5 is one Arabic number
		{"א ", []uint8{1, 0}},             // trailing space goes back to the paragraph level
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			if got := bidiLevels([]rune(tt.text), false); !slices.Equal(got, tt.want) {
				t.Errorf("bidiLevels(%q) = %v, want %v", tt.text, got, tt.want)
			}
		})
	}
}

// rtlNames are the file names whose rendering the golden images pin down.
var rtlNames = []string{
	"گزارش نهایی.eml",
	"דוח שנתי.eml",
	"تقرير_الحملة_2026.png",
	"Invoice فاتورة 2026.pdf",
}

func TestBidiLabelGolden(t *testing.T) {
	app(t)
	for i, name := range rtlNames {
		t.Run(name, func(t *testing.T) {
			w := test.NewTempWindow(t, container.NewVBox(NewLabel(name)))
			w.Resize(fyne.NewSize(260, 40))
			test.AssertImageMatches(t, goldenName("bidi", i), w.Canvas().Capture())
		})
	}
}

func TestBidiLabelTruncates(t *testing.T) {
	app(t)
	l := NewLabel("Invoice فاتورة 2026 with a very long tail that cannot fit.pdf")
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(160, 40))
	var drawn string
	var right float32
	for _, o := range test.WidgetRenderer(l).Objects() {
		if txt, ok := o.(*canvas.Text); ok && txt.Visible() {
			drawn += txt.Text
			right = max(right, txt.Position().X+txt.Size().Width)
		}
	}
	if !strings.Contains(drawn, Ellipsis) {
		t.Errorf("drawn text %q has no Ellipsis", drawn)
	}
	if right > l.Size().Width {
		t.Errorf("text reaches x=%v, beyond the label's width %v", right, l.Size().Width)
	}
}

// TestBidiLabelNeverDrawsBeyondItsPlace: a label given less room than an
// Ellipsis, or none, draws nothing, in either direction; it drew its whole
// text, over whatever was beside it.
func TestBidiLabelNeverDrawsBeyondItsPlace(t *testing.T) {
	app(t)
	for _, rtl := range []bool{false, true} {
		direction(t, rtl)
		l := NewLabel("گزارش نهایی فصل چهارم.eml")
		w := test.NewTempWindow(t, container.NewWithoutLayout(l))
		w.Resize(fyne.NewSize(300, 100))
		for _, width := range []float32{0, 2, 2*theme.InnerPadding() + 4} {
			l.Resize(fyne.NewSize(width, 30))
			for _, o := range test.WidgetRenderer(l).Objects() {
				if txt, ok := o.(*canvas.Text); ok && txt.Visible() && txt.Text != "" {
					t.Errorf("rtl %v: a label %v wide draws %q, %v wide", rtl, width, txt.Text, txt.MinSize().Width)
				}
			}
		}
	}
}

func goldenName(kind string, i int) string {
	return fmt.Sprintf("%s_%d.png", kind, i)
}

// TestBidiLabelStaysCentred: a label made taller than it was first laid out
// keeps its text in the middle, in line with the buttons beside it.
func TestBidiLabelStaysCentred(t *testing.T) {
	app(t)
	l := NewLabel("گزارش نهایی.eml")
	w := test.NewTempWindow(t, container.NewWithoutLayout(l))
	w.Resize(fyne.NewSize(300, 100))
	l.Resize(fyne.NewSize(200, 20))
	l.Resize(fyne.NewSize(200, 60))
	for _, o := range test.WidgetRenderer(l).Objects() {
		if txt, ok := o.(*canvas.Text); ok && txt.Visible() {
			top, bottom := txt.Position().Y, 60-txt.Position().Y-txt.Size().Height
			if d := top - bottom; d > 1 || d < -1 {
				t.Errorf("text %q is %v from the top and %v from the bottom of the label", txt.Text, top, bottom)
			}
		}
	}
}
