package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
)

// dialogTextWidth is how wide a dialog's sentence may be before it wraps.
const dialogTextWidth = 320

// sentenceBox holds a dialog's sentence, wrapped at a readable width and
// drawn in visual order in the window's direction, so a file name such as
// "نامه مشتری.eml" inside it reads right.
func sentenceBox(text string) fyne.CanvasObject {
	p := newBidiParagraph(text)
	p.minWidth = dialogTextWidth
	return p
}

// newSentenceDialog tells the user something in a sentence that may name
// files or quote Google; its button is the toolkit's OK in the window's
// language.
func newSentenceDialog(title, text string, w fyne.Window) dialog.Dialog {
	return dialog.NewCustom(title, lang.L("OK"), sentenceBox(text), w)
}

// newSentenceQuestion asks a yes-or-no question in such a sentence.
func newSentenceQuestion(title, text string, answer func(bool), w fyne.Window) dialog.Dialog {
	return dialog.NewCustomConfirm(title, lang.L("Yes"), lang.L("No"), sentenceBox(text), answer, w)
}
