// Command smallestwindow is the smallest Fyne program: one window with one
// label, titled as Hoist's so that the same tool finds it. The window
// benchmark (bench/cmd/windowbench) measures Hoist's window beside it, under
// the same display, so that what the toolkit and the GL driver take is told
// from what Hoist adds.
package main

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.NewWithID("app.hoist.smallest")
	w := a.NewWindow("Hoist")
	w.SetContent(widget.NewLabel("Hello"))
	w.Resize(fyne.NewSize(960, 640))
	w.ShowAndRun()
}
