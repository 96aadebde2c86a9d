package widgets

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// DialogTextWidth is how wide a dialog's sentence may be before it wraps.
const DialogTextWidth = 320

// SentenceBox holds a dialog's sentence, wrapped at a readable width and
// drawn in visual order in the window's direction, so a file name such as
// "نامه مشتری.eml" inside it reads right.
func SentenceBox(text string) fyne.CanvasObject {
	p := NewParagraph(text)
	p.MinWidth = DialogTextWidth
	return p
}

// NewSentenceDialog tells the user something in a sentence that may name
// files or quote Google; its button is the toolkit's OK in the window's
// language.
func NewSentenceDialog(title, text string, w fyne.Window) *InfoDialog {
	return NewInfoDialog(title, lang.L("OK"), SentenceBox(text), w)
}

// InfoDialog shows something, with one button that closes it (OK, Close):
// Enter presses it, where no other button has the focus, as Escape does.
type InfoDialog struct {
	*dialog.CustomDialog
	dismiss *Button
}

// NewInfoDialog shows content under title, with one button, dismiss, that closes it.
func NewInfoDialog(title, dismiss string, content fyne.CanvasObject, w fyne.Window) *InfoDialog {
	d := &InfoDialog{CustomDialog: dialog.NewCustomWithoutButtons(title, content, w)}
	d.dismiss = NewButton(dismiss, d.Hide)
	d.SetButtons([]fyne.CanvasObject{d.dismiss})
	return d
}

// PressDefault closes the dialog, as its button does.
func (d *InfoDialog) PressDefault() { d.dismiss.OnTapped() }

// NewSentenceQuestion asks a yes-or-no question in such a sentence.
func NewSentenceQuestion(title, text string, answer func(bool), w fyne.Window) *Question {
	return NewQuestion(title, SentenceBox(text), lang.L("Yes"), lang.L("No"), answer, w)
}

// question is a dialog that asks; its two buttons are in reading order:
// the answer that goes on is at the end of the line, at the right in
// English and at the left in Arabic, Persian and Hebrew. Closing it
// (Escape) answers no, as its dismiss button does.
type Question struct {
	*dialog.CustomDialog
	Confirm, Dismiss *Button
	yes              bool
	Dismissed        bool // the dismiss button was pressed (not Escape)
}

// NewQuestion asks with content under title; answer hears whether confirm
// (yes) or dismiss (no, or Escape) closed it.
func NewQuestion(title string, content fyne.CanvasObject, confirm, dismiss string, answer func(bool), w fyne.Window) *Question {
	q := &Question{CustomDialog: dialog.NewCustomWithoutButtons(title, content, w)}
	q.Dismiss = NewIconButton(dismiss, theme.CancelIcon(), func() {
		q.Dismissed = true
		q.Hide()
	})
	q.Confirm = NewIconButton(confirm, theme.ConfirmIcon(), func() {
		q.yes = true
		q.Hide()
	})
	q.Confirm.Importance = widget.HighImportance
	buttons := []fyne.CanvasObject{q.Dismiss, q.Confirm}
	if RightToLeft() {
		slices.Reverse(buttons)
	}
	q.SetButtons(buttons)
	q.CustomDialog.SetOnClosed(func() {
		if answer != nil {
			answer(q.yes)
		}
	})
	return q
}

// PressDefault answers yes, the answer that goes on, as its button does.
func (q *Question) PressDefault() { q.Answer(true) }

// Answer closes the question as its button for yes or no would.
func (q *Question) Answer(yes bool) {
	q.yes = yes
	q.Hide()
}

// SetConfirmText names what the answer yes does.
func (q *Question) SetConfirmText(s string) { q.Confirm.SetText(s) }

// SetDismissText names what the answer no does.
func (q *Question) SetDismissText(s string) { q.Dismiss.SetText(s) }

// NewWordsQuestion asks a question in a sentence, with the toolkit's OK and
// Cancel in the window's language as answers.
func NewWordsQuestion(title, text string, answer func(bool), w fyne.Window) *Question {
	return NewQuestion(title, SentenceBox(text), lang.L("OK"), lang.L("Cancel"), answer, w)
}

// ReadingTitle gives the toolkit's dialog on top of c a title that reads as
// the window does: from the right in a right-to-left window, its words in
// visual order, and the dialog's icon on the other side. The toolkit draws
// the title at the left and leaves a name such as "نامه مشتری.eml" in
// logical order. Other overlays (the file dialog, menus) are left alone.
func ReadingTitle(c fyne.Canvas) {
	box := DialogBox(c.Overlays().Top())
	if box == nil {
		return
	}
	label, ok := box.Objects[4].(*widget.Label)
	if !ok || (!RightToLeft() && !hasRTL([]rune(label.Text))) {
		return
	}
	title := NewWholeLabel(label.Text)
	title.Style = label.TextStyle
	box.Objects[4] = title
	box.Layout = &titledLayout{inner: box.Layout}
	box.Refresh()
}

// DialogBox is the toolkit's dialog container in the overlay top (its icon,
// background, content, buttons and title, in this order), or nil when top
// is no such dialog.
func DialogBox(top fyne.CanvasObject) *fyne.Container {
	pop, ok := top.(*widget.PopUp)
	if !ok {
		return nil
	}
	box, ok := pop.Content.(*fyne.Container)
	if !ok || len(box.Objects) < 5 {
		return nil
	}
	if _, ours := box.Layout.(*titledLayout); !ours && fmt.Sprintf("%T", box.Layout) != "*dialog.dialogLayout" {
		return nil
	}
	return box
}

// titledLayout lays a dialog out as the toolkit does, then puts its title
// across the top, to be drawn from the reading side, and in a right-to-left
// window its icon at the left.
type titledLayout struct {
	inner fyne.Layout
}

func (l *titledLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.inner.Layout(objects, size)
	title, icon := objects[4], objects[0]
	title.Move(fyne.NewPos(0, 0))
	title.Resize(fyne.NewSize(size.Width, title.MinSize().Height))
	if RightToLeft() {
		icon.Move(fyne.NewPos(size.Width-icon.Position().X-icon.Size().Width, icon.Position().Y))
	}
}

func (l *titledLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return l.inner.MinSize(objects)
}
