// Command smallest is the smallest Fyne program: one window holding one
// label, built with the same Fyne as Hoist. windowbench measures it under the
// same virtual display as Hoist's window, as the floor of what any Fyne
// window costs there (the toolkit, its fonts, the GL driver).
package main

import (
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("Hoist") // the title windowbench waits for
	w.SetContent(widget.NewLabel("Hello"))
	w.ShowAndRun()
}
