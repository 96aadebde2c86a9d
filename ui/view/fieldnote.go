package view

import (
	"hoist/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Hint is a quiet explanation in the grey of the form's hints, readable in
// both themes (a low-importance label is as faint as a disabled one),
// wrapped and in the window's reading direction.
func Hint(text string) *widgets.Paragraph {
	t := widgets.NewParagraph(text)
	t.ColorName = theme.ColorNamePlaceHolder
	return t
}

// fieldNote is the line under a form field: what the field is for, or what is
// wrong with what was typed. It wraps to the form's width, where the form's
// own hint line would be cut off.
type fieldNote struct {
	help string
	text *widgets.Paragraph
}

func NewFieldNote(help string) *fieldNote {
	t := widgets.NewParagraph(help)
	t.ColorName = theme.ColorNamePlaceHolder // as the form's own hints
	t.SizeName = theme.SizeNameCaptionText
	if help == "" {
		t.Hide()
	}
	return &fieldNote{help: help, text: t}
}

// Draw says what is wrong, or the help when err is nil.
func (n *fieldNote) Draw(err error) {
	text, colour := n.help, theme.ColorNamePlaceHolder
	if err != nil {
		text, colour = Sentence(err.Error()), theme.ColorNameError
	}
	if text == n.text.Text() && colour == n.text.ColorName {
		return
	}
	n.text.SetColor(colour)
	n.text.SetText(text)
	if text == "" {
		n.text.Hide()
	} else {
		n.text.Show()
	}
}

// WithNote puts a field and its note together as one form item.
func WithNote(label string, field fyne.CanvasObject, note *fieldNote) *widget.FormItem {
	return &widget.FormItem{Text: label, Widget: container.New(layout.NewCustomPaddedVBoxLayout(0), field, note.text)}
}
