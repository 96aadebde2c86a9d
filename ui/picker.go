package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

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

// pickInWindow is the toolkit's own dialog, where the desktop has none.
// It opens in Pictures or Documents, and opens again after each file, so
// that several can be added in a row until Cancel.
func (d *desk) pickInWindow(folders bool, dir string) {
	var open *dialog.FileDialog
	if folders {
		open = dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
			if err != nil || u == nil {
				return
			}
			d.add([]string{u.Path()})
		}, d.win)
	} else {
		open = dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
			if err != nil || r == nil {
				return
			}
			path := r.URI().Path()
			_ = r.Close()
			d.add([]string{path})
			d.pickInWindow(false, filepath.Dir(path)) // the next file, from the same place
		}, d.win)
	}
	if dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			open.SetLocation(l)
		}
	}
	open.Resize(d.fit(fyne.NewSize(800, 560)))
	d.open(open)
}
