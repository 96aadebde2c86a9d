// Package testui reads what a Fyne window draws, for the tests of the
// window and of its widgets: everything inside an object, and where its
// text stands. For tests only.
package testui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

// Walk visits o and everything inside it.
func Walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			Walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			Walk(c, visit)
		}
	}
}

// TextSpan is the left and right edges, in the window, of what o draws as
// text (its visible canvas.Text objects that are not empty); ok is false
// where it draws none.
func TextSpan(o fyne.CanvasObject) (left, right float32, ok bool) {
	drv := fyne.CurrentApp().Driver()
	Walk(o, func(o fyne.CanvasObject) {
		t, isText := o.(*canvas.Text)
		if !isText || !t.Visible() || t.Text == "" {
			return
		}
		at := drv.AbsolutePositionForObject(t).X
		w := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width
		if !ok || at < left {
			left = at
		}
		if !ok || at+w > right {
			right = at + w
		}
		ok = true
	})
	return left, right, ok
}
