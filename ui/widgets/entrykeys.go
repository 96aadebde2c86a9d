package widgets

import "fyne.io/fyne/v2"

// TypedKey gives Escape to the field's onEscape, when it has one, and
// every key to the toolkit's entry.
func (e *Entry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.OnEscape != nil {
		e.OnEscape()
		return
	}
	e.Entry.TypedKey(k)
}
