package ui

import "fyne.io/fyne/v2"

// takeDrop takes what was dropped on the window: it either adds its files
// or says why not. Hoist's own file chooser on top takes them as chosen
// (it was opened to add files); another dialog on top refuses them and
// says so on top of it, since files added behind it would go in unseen,
// maybe to a destination being changed there. What is not a file of this
// computer (a web address) is said to be so.
func (d *desk) takeDrop(uris []fyne.URI) {
	var paths []string
	for _, u := range uris {
		if u.Scheme() == "file" {
			paths = append(paths, u.Path())
		}
	}
	if len(paths) == 0 {
		if len(uris) > 0 {
			d.sayOnTop(say("ui.drop.notFiles"))
		}
		return
	}
	// Shared destinations and client files are not uploads: they are taken
	// as what they are (the set-up panel, open or not, takes a client).
	if paths = d.takeSettingsFiles(paths); len(paths) == 0 {
		return
	}
	if n := len(d.dialogs); n > 0 {
		if c := d.chooser; c != nil && d.dialogs[n-1] == hideable(c.dlg) && c.takeDropped(paths) {
			return
		}
		d.sayOnTop(say("ui.drop.notNow", "N", len(paths)))
		return
	}
	d.add(paths)
}

// sayOnTop says msg where it is seen: in the window's message line, or in
// a small dialog above the dialog that is open.
func (d *desk) sayOnTop(msg string) {
	if len(d.dialogs) == 0 {
		d.tell(msg)
		return
	}
	d.open(newSentenceDialog(say("ui.app"), msg, d.win))
}
