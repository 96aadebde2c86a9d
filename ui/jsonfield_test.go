package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/engine/dest"
	"hoist/ui/widgets"
)

// TestJSONFieldInFormSaysWrongJSON: the metadata field of a destination's
// form still says when its JSON is wrong, and has the focus ring around its
// box, however long the JSON (how it draws is widgets' TestJSONField…).
func TestJSONFieldInFormSaysWrongJSON(t *testing.T) {
	speakWindow(t, "fa")
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.ShowForm(dest.Destination{Kind: dest.Custom, Params: map[string]string{}}, true)
	var code *widgets.CodeEntry
	walk(h.d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if c, ok := o.(*widgets.CodeEntry); ok {
			code = c
		}
	})
	if code == nil {
		t.Fatal("the form has no JSON field")
	}
	h.d.win.Canvas().Focus(code)
	test.Type(code, `{"name": "گزارش ۱۴۰۵"`)
	if err := code.Validate(); err == nil {
		t.Error("an object without its closing brace is taken")
	}
	test.Type(code, "}")
	if err := code.Validate(); err != nil {
		t.Errorf("a right object is refused: %v", err)
	}

	// Long JSON scrolls inside the field's box, which the focus ring marks.
	code.SetText(strings.Repeat("{\"نام\": 1}\n", 30))
	h.d.ring.Draw()
	line := fyne.MeasureText("M", code.Theme().Size(theme.SizeNameText), code.TextStyle).Height
	if code.Size().Height > 10*line {
		t.Errorf("the field grew to %v for 30 lines", code.Size())
	}
	if r := h.d.ring.inDialog; r == nil || !r.Visible() || r.Size() != code.Size().AddWidthHeight(4*widgets.FocusWidth, 4*widgets.FocusWidth) {
		t.Errorf("the focus ring is not around the field's box %v", code.Size())
	}
}
