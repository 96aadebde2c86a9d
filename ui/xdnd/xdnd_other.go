//go:build !linux || wayland

package ui

import "fyne.io/fyne/v2"

// answerDrop has nothing to say outside X11: Windows' and Wayland's drops
// ask no answer of the window that the toolkit gets wrong.
func answerDrop(fyne.Window, bool) {}
