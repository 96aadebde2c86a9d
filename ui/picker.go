package ui

import (
	"context"
	"errors"

	"fyne.io/fyne/v2"

	"hoist/ui/filechooser"
)

// chooseFunc shows the system's file dialog and returns the chosen paths;
// filechooser.ErrNoPortal when there is none to show.
type chooseFunc func(ctx context.Context, o filechooser.Options) ([]string, error)

// pickFiles adds files chosen in the system's dialog, several at once.
func (d *desk) pickFiles() { d.pick(false) }

// pickFolder adds the files of folders chosen in the system's dialog.
func (d *desk) pickFolder() { d.pick(true) }

func (d *desk) pick(folders bool) {
	o := filechooser.Options{Title: pickFilesTitle(), Multiple: true, Directory: folders, Folder: startFolder(folders)}
	if folders {
		o.Title = pickFolderTitle()
	}
	d.ask(o, d.add)
}

// ask shows the system's file dialog for o, or Hoist's own where the
// desktop has none, and gives then what was chosen (nothing when canceled).
func (d *desk) ask(o filechooser.Options, then func(paths []string)) {
	choose := d.choose
	if choose == nil {
		choose = systemChooser
	}
	d.background(func(ctx context.Context) {
		paths, err := choose(ctx, o)
		d.later(func() {
			switch {
			case errors.Is(err, filechooser.ErrNoPortal):
				d.pickInWindow(o, then)
			case err != nil:
				d.log.Info("the system's file dialog failed", "err", err)
				d.pickInWindow(o, then)
			case len(paths) > 0:
				then(paths)
			}
		})
	})
}

// startFolder is where a file dialog opens: Pictures for files, else
// Documents, else the home folder, as the system's folder settings name them.
func startFolder(folders bool) string {
	if folders {
		return filechooser.PlaceOf(filechooser.Documents, filechooser.Pictures)
	}
	return filechooser.PlaceOf(filechooser.Pictures, filechooser.Documents)
}

// pickInWindow is Hoist's own file dialog, where the desktop has none. It
// opens where o says, and takes several files at once when o asks so.
func (d *desk) pickInWindow(o filechooser.Options, then func([]string)) {
	c := newChooser(d.win, o, then)
	c.confirm = func(question string, yes func()) {
		d.open(newQuestion(o.Title, sentenceBox(question), say("ui.pick.replaceYes"), say("ui.pick.replaceNo"), func(ok bool) {
			if ok {
				yes()
			}
		}, d.win))
	}
	d.chooser = c
	c.dlg.Resize(d.fit(fyne.NewSize(800, 560)))
	d.open(c.dlg)
	if c.name != nil {
		d.win.Canvas().Focus(c.name)
		return
	}
	d.win.Canvas().Focus(c.list)
}
