// Package widgets holds widgets and layouts for Fyne that know nothing of
// the application using them: text in any mix of left-to-right and
// right-to-left scripts drawn in visual order (Label, Paragraph, the
// fields Entry and CodeEntry), layouts that mirror in a right-to-left
// window (Row, Border, Mirrored, Form, Select), dense boxes and small
// controls for long lists (DenseBox, CompactRow, CompactBorder,
// CompactButton, SlimBar), buttons that Enter presses (Button) or that Tab
// passes by (RowButton), the focus ring's look, dialogs whose title and
// buttons read in the window's direction (Question, InfoDialog), and
// layouts that keep what is on screen from moving (KeepRoom, RoomyHint),
// rows that wrap in a narrow window (Flow, Fold), and a file dialog for
// desktops that offer none (Chooser).
//
// The reading direction is the window's, set once with SetRightToLeft
// before the widgets are made. Fyne's own widget and layout packages are
// the model: each type stands alone, takes its colours and sizes from the
// theme, and draws only what it is given.
package widgets

import "sync/atomic"

var windowRTL atomic.Bool

// SetRightToLeft makes the window read right to left (Arabic, Persian,
// Hebrew) or left to right: layouts mirror, text starts at the reading
// side, bars fill from it.
func SetRightToLeft(on bool) { windowRTL.Store(on) }

// RightToLeft reports whether the window reads right to left.
func RightToLeft() bool { return windowRTL.Load() }

var textWatcher atomic.Pointer[func(string)]

// WatchText has f called with every text the widgets lay out (labels,
// paragraphs, fields, Visual) before it is drawn, on whatever goroutine
// lays it out: an application may, say, load a font only once a text needs
// it. nil stops it.
func WatchText(f func(string)) {
	if f == nil {
		textWatcher.Store(nil)
		return
	}
	textWatcher.Store(&f)
}

// seen passes s to the watcher, if any.
func seen(s string) {
	if f := textWatcher.Load(); f != nil {
		(*f)(s)
	}
}
