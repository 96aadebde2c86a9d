// Command smallest is the smallest Fyne program: one window holding one
// label, built with the same Fyne as Hoist. windowbench measures it under the
// same virtual display as Hoist's window, as the floor of what any Fyne
// window costs there (the toolkit, its fonts, the GL driver).
//
//	smallest [WIDTHxHEIGHT]
//
// opens it at its own size, or at the size given (in pixels, at scale 1).
package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/widget"
)

func main() {
	a := app.New()
	w := a.NewWindow("Hoist") // the title windowbench waits for
	w.SetContent(widget.NewLabel("Hello"))
	if len(os.Args) > 1 {
		var width, height float32
		if _, err := fmt.Sscanf(os.Args[1], "%fx%f", &width, &height); err != nil {
			fmt.Fprintln(os.Stderr, "smallest: a size is WIDTHxHEIGHT:", err)
			os.Exit(2)
		}
		w.Resize(fyne.NewSize(width, height))
	}
	w.ShowAndRun()
}
