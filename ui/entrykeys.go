package ui

import "fyne.io/fyne/v2"

// TypedKey gives Escape to the field's onEscape, when it has one, and
// every key to the toolkit's entry.
func (e *entry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(k)
}
