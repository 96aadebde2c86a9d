package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"

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
	choose := d.choose
	if choose == nil {
		choose = systemChooser
	}
	o := filechooser.Options{Title: pickFilesTitle(), Multiple: true, Directory: folders, Folder: startFolder(folders)}
	if folders {
		o.Title = pickFolderTitle()
	}
	d.background(func(ctx context.Context) {
		paths, err := choose(ctx, o)
		d.later(func() {
			switch {
			case errors.Is(err, filechooser.ErrNoPortal):
				d.pickInWindow(folders, startFolder(folders))
			case err != nil:
				d.log.Info("the system's file dialog failed", "err", err)
				d.pickInWindow(folders, startFolder(folders))
			default:
				d.add(paths)
			}
		})
	})
}

// startFolder is where a file dialog opens: Pictures for files, else
// Documents, else the home folder.
func startFolder(folders bool) string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	names := []string{"Pictures", "Documents"}
	if folders {
		names = []string{"Documents", "Pictures"}
	}
	for _, n := range names {
		if fi, err := os.Stat(filepath.Join(home, n)); err == nil && fi.IsDir() {
			return filepath.Join(home, n)
		}
	}
	return home
}

// pickInWindow is Hoist's own file dialog, where the desktop has none. It
// opens in Pictures or Documents, and takes several files at once.
func (d *desk) pickInWindow(folders bool, dir string) {
	title := pickFilesTitle()
	if folders {
		title = pickFolderTitle()
	}
	c := newChooser(d.win, title, folders, dir, d.add)
	d.chooser = c
	c.dlg.Resize(d.fit(fyne.NewSize(800, 560)))
	d.open(c.dlg)
	d.win.Canvas().Focus(c.list)
}
