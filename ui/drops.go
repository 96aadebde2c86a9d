package ui

import (
	"hoist/ui/view"

	"fyne.io/fyne/v2"

	"hoist/ui/xdnd"
)

// takeDrop takes what was dropped on the window: it either adds its files
// or says why not. Hoist's own file chooser on top takes them as chosen
// (it was opened to add files); another dialog on top refuses them and
// says so on top of it, since files added behind it would go in unseen,
// maybe to a destination being changed there. What is not a file of this
// computer (a web address) is said to be so. The program the files came
// from is told whether they were taken (xdnd.Answer).
func (d *desk) takeDrop(uris []fyne.URI) {
	xdnd.Answer(d.win, d.dropTaken(uris))
}

// dropTaken takes a drop and says whether its files were taken.
func (d *desk) dropTaken(uris []fyne.URI) bool {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	if len(paths) == 0 {
		if len(uris) > 0 {
			d.frame.SayOnTop(view.Say("ui.drop.notFiles"))
		}
		return false
	}
	// Shared destinations and client files are not uploads: they are taken
	// as what they are (the set-up panel, open or not, takes a client).
	if paths = d.google.TakeSettingsFiles(paths); len(paths) == 0 {
		return true
	}
	if n := len(d.frame.Dialogs); n > 0 {
		if c := d.files.Chooser; c != nil && d.frame.Dialogs[n-1] == view.Hideable(c.Dialog) && c.TakeDropped(paths) {
			return true
		}
		d.frame.SayOnTop(view.Say("ui.drop.notNow", "N", len(paths)))
		return false
	}
	d.Add(paths)
	return true
}
