package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// hint is a quiet line of explanation in the grey of the form's hints,
// readable in both themes (a low-importance label is as faint as a disabled one).
func hint(text string) *widget.RichText {
	t := widget.NewRichText(&widget.TextSegment{Text: text, Style: widget.RichTextStyle{
		ColorName: theme.ColorNamePlaceHolder,
		Inline:    true,
	}})
	t.Wrapping = fyne.TextWrapWord
	return t
}

// setHint changes the text of a hint.
func setHint(t *widget.RichText, text string) {
	seg := t.Segments[0].(*widget.TextSegment)
	if seg.Text != text {
		seg.Text = text
		t.Refresh()
	}
}

// fieldNote is the line under a form field: what the field is for, or what is
// wrong with what was typed. It wraps to the form's width, where the form's
// own hint line would be cut off.
type fieldNote struct {
	help string
	text *widget.RichText
	seg  *widget.TextSegment
}

func newFieldNote(help string) *fieldNote {
	seg := &widget.TextSegment{Text: help, Style: widget.RichTextStyle{
		ColorName: theme.ColorNamePlaceHolder, // as the form's own hints
		SizeName:  theme.SizeNameCaptionText,
		Inline:    true,
	}}
	t := widget.NewRichText(seg)
	t.Wrapping = fyne.TextWrapWord
	if help == "" {
		t.Hide()
	}
	return &fieldNote{help: help, text: t, seg: seg}
}

// show says what is wrong, or the help when err is nil.
func (n *fieldNote) show(err error) {
	text, colour := n.help, theme.ColorNamePlaceHolder
	if err != nil {
		text, colour = sentence(err.Error()), theme.ColorNameError
	}
	if text == n.seg.Text && colour == n.seg.Style.ColorName {
		return
	}
	n.seg.Text, n.seg.Style.ColorName = text, colour
	n.text.Refresh()
	if text == "" {
		n.text.Hide()
	} else {
		n.text.Show()
	}
}

// withNote puts a field and its note together as one form item.
func withNote(label string, field fyne.CanvasObject, note *fieldNote) *widget.FormItem {
	return &widget.FormItem{Text: label, Widget: container.New(layout.NewCustomPaddedVBoxLayout(0), field, note.text)}
}

// noteField is the field of a form item made by withNote.
func noteField(it *widget.FormItem) fyne.CanvasObject {
	if c, ok := it.Widget.(*fyne.Container); ok && len(c.Objects) == 2 {
		return pickerEntry(c.Objects[0])
	}
	return it.Widget
}
