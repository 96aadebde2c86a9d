package ui

import (
	"image/color"
	"slices"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/ui/internal/testui"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// drawnAsTheStandardSays holds every text inside o that names name — the
// window's labels and paragraphs, and the toolkit's labels — against the
// glyphs drawn for it on screen: read from the left (testui.DrawnLines),
// they must be the text in the order Unicode's bidirectional algorithm
// gives in the window's direction (widgets.StandardOrder). It returns how
// many texts it held so.
func drawnAsTheStandardSays(t *testing.T, where string, o fyne.CanvasObject, name string) int {
	t.Helper()
	rtl := view.Speaking().RTL()
	checked := 0
	check := func(logical, standard string, drawn testui.Line) {
		t.Helper()
		checked++
		want := testui.Comparable(standard)
		if got := testui.Comparable(drawn.Text); got != want {
			t.Errorf("%s: %q is drawn as\n %q (pieces %q)\nthe standard's order is\n %q", where, logical, got, drawn.Pieces, want)
		}
		if drawn.Overlap != "" {
			t.Errorf("%s: %q overlaps the text on its left in %q", where, drawn.Overlap, drawn.Pieces)
		}
	}
	walk(o, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widgets.Label:
			lines := testui.DrawnLines(w)
			if !strings.Contains(w.Text(), name) || len(lines) != 1 || strings.Contains(lines[0].Text, widgets.Ellipsis) {
				return // not this name, or cut short to fit
			}
			check(w.Text(), widgets.StandardOrder(w.Text(), rtl), lines[0])
		case *widget.Label:
			// The toolkit's label is given text already in the order it is
			// seen (widgets.Visual): where it shows the name, the name must
			// be drawn as the standard orders it alone.
			lines := testui.DrawnLines(w)
			if len(lines) != 1 || !showsLettersOf(lines[0].Text, name) {
				return
			}
			checked++
			alone := testui.Comparable(widgets.StandardOrder("\u2068"+name+"\u2069", rtl))
			if got := testui.Comparable(lines[0].Text); !strings.Contains(got, alone) {
				t.Errorf("%s: the toolkit's label draws %q (pieces %q); the name alone is seen as %q", where, got, lines[0].Pieces, alone)
			}
		case *widgets.Paragraph:
			if !strings.Contains(w.Text(), name) {
				return
			}
			var logical []string
			for _, l := range w.Lines() {
				if strings.TrimSpace(l) != "" {
					logical = append(logical, l)
				}
			}
			drawn := testui.DrawnLines(w)
			if len(drawn) != len(logical) {
				t.Errorf("%s: %q is cut into %d lines, %d drawn", where, w.Text(), len(logical), len(drawn))
				return
			}
			want := widgets.StandardLines(w.Text(), logical, rtl)
			for i := range drawn {
				check(logical[i], want[i], drawn[i])
			}
		}
	})
	return checked
}

// TestNamesInAnotherScriptStayWhole: a file named in one right-to-left
// script is drawn whole and in its place in the sentences of a window in
// another — a Hebrew name in the Persian window's row, details and result,
// and in the Arabic window's Undo line; Arabic and Persian names in the
// Hebrew window — as Unicode's bidirectional algorithm orders them.
func TestNamesInAnotherScriptStayWhole(t *testing.T) {
	for _, tc := range []struct {
		code  string
		names []string
	}{
		{"fa", []string{"דוח.png"}},
		{"ar", []string{"דוח.png"}},
		{"he", []string{"تقرير.png", "گزارش.eml"}},
	} {
		t.Run(tc.code, func(t *testing.T) {
			speakWindow(t, tc.code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			h.d.win.Resize(fyne.NewSize(1366, 768))
			for _, name := range tc.names {
				var data []byte
				if strings.HasSuffix(name, ".eml") {
					data = emailBytes("Sam <sam@example.com>", "گزارش")
				} else {
					data = pngBytes(t, 4, 4, color.NRGBA{R: 200, A: 255})
				}
				h.drop(h.writeFile(name, data))
			}
			h.waitFor("the files to be up", func() bool {
				for _, name := range tc.names {
					if h.Shown(name) != engine.Done {
						return false
					}
				}
				return true
			})
			content := h.d.win.Canvas().Content()
			for _, name := range tc.names {
				row := h.row(name)
				h.layOut()
				if drawnAsTheStandardSays(t, name+"'s row", row, name) == 0 {
					t.Errorf("%s's row draws no sentence with the name whole", name)
				}

				// The details, in the selection's panel.
				h.d.list.Click(h.d.list.Snap.Index[h.job(name).ID], 0)
				h.Refresh()
				h.layOut()
				if drawnAsTheStandardSays(t, name+"'s details", h.d.selection.Inner, name) == 0 {
					t.Errorf("the details of %s do not name it: %q", name, h.d.selection.Body.Text())
				}

				// Show result.
				test.Tap(h.row(name).Result)
				dialog := h.d.win.Canvas().Overlays().Top()
				if dialog == nil {
					t.Fatalf("Show result of %s opened nothing", name)
				}
				h.layOut()
				if drawnAsTheStandardSays(t, name+"'s result", dialog, name) == 0 {
					t.Errorf("the result of %s does not name it", name)
				}
				for h.d.frame.CloseTopDialog() {
				}
			}

			// Removed, with an Undo.
			name := tc.names[0]
			test.Tap(h.row(name).Remove)
			h.Refresh()
			h.layOut()
			if drawnAsTheStandardSays(t, "the Undo line", content, name) == 0 {
				t.Errorf("the Undo line does not name %s: %q", name, h.d.foot.UndoText.Text())
			}
		})
	}
}

// showsLettersOf reports whether drawn holds the first word of name's
// letters, in either order.
func showsLettersOf(drawn, name string) bool {
	word := []rune(strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) })[0])
	back := slices.Clone(word)
	slices.Reverse(back)
	return strings.Contains(drawn, string(word)) || strings.Contains(drawn, string(back))
}
