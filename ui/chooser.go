package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// chooser is Hoist's own file dialog, for desktops that offer none. The
// toolkit's breaks names in Arabic, Persian and Hebrew mid-word and takes
// one file at a time; here every name is drawn in reading order, whole, and
// files are chosen several at once, with the mouse or the keyboard: Tab to
// the list, the arrows to a name, Space to tick a file or open a folder,
// Tab to Open. For folders, Open takes the folder shown.
type chooser struct {
	folders bool
	dir     string
	items   []chooserItem
	chosen  []string // paths of the ticked files, in the order they were ticked
	where   *bidiLabel
	list    *widget.List
	open    *widget.Button
	dlg     *dialog.CustomDialog
	add     func(paths []string)
}

// chooserItem is one line of the chooser: a folder or a file of dir.
type chooserItem struct {
	name string
	dir  bool
}

// newChooser shows dir's folders and files (its folders only, for folders)
// in a dialog on w; add gets the chosen paths when Open is pressed.
func newChooser(w fyne.Window, title string, folders bool, dir string, add func([]string)) *chooser {
	c := &chooser{folders: folders, add: add, where: newBidiLabel("")}
	up := widget.NewButtonWithIcon(lang.X("file.parent", "Parent Folder"), directionalIcon(theme.NavigateBackIcon()), func() {
		c.show(filepath.Dir(c.dir))
	})
	c.list = widget.NewList(
		func() int { return len(c.items) },
		func() fyne.CanvasObject {
			return border(nil, nil, widget.NewIcon(theme.FileIcon()), widget.NewIcon(nil), newBidiLabel(""))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < 0 || i >= len(c.items) {
				return
			}
			it := c.items[i]
			row := o.(*fyne.Container)
			row.Objects[0].(*bidiLabel).SetText(it.name)
			kind := row.Objects[1].(*widget.Icon)
			tick := row.Objects[2].(*widget.Icon)
			if it.dir {
				kind.SetResource(theme.FolderIcon())
			} else {
				kind.SetResource(theme.FileIcon())
			}
			if slices.Contains(c.chosen, filepath.Join(c.dir, it.name)) {
				tick.SetResource(theme.ConfirmIcon())
			} else {
				tick.SetResource(nil)
			}
		})
	c.list.OnSelected = func(i widget.ListItemID) {
		c.list.Unselect(i)
		if i >= 0 && i < len(c.items) {
			c.pick(c.items[i])
		}
	}
	c.open = widget.NewButtonWithIcon(lang.L("Open"), theme.ConfirmIcon(), func() {
		paths := c.chosen
		if c.folders {
			paths = []string{c.dir}
		}
		c.dlg.Hide()
		c.add(paths)
	})
	c.open.Importance = widget.HighImportance
	cancel := widget.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), func() { c.dlg.Hide() })
	body := border(border(nil, nil, up, nil, c.where), row(cancel, c.open), nil, nil, c.list)
	c.dlg = dialog.NewCustomWithoutButtons(title, body, w)
	c.show(dir)
	return c
}

// show lists dir: folders first, then files, each by name; hidden ones are
// left out, as the file managers do.
func (c *chooser) show(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil && c.dir != "" {
		return // unreadable: stay where the user is
	}
	again := c.dir != "" // the list is on screen: back to its top
	c.dir = dir
	c.items = c.items[:0]
	for _, e := range entries {
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
				isDir = fi.IsDir()
			}
		}
		if strings.HasPrefix(e.Name(), ".") || (c.folders && !isDir) {
			continue
		}
		c.items = append(c.items, chooserItem{name: e.Name(), dir: isDir})
	}
	slices.SortFunc(c.items, func(a, b chooserItem) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	c.where.SetText(pathText(dir))
	c.list.UnselectAll()
	if again {
		c.list.ScrollToTop()
	}
	c.list.Refresh()
	c.refreshOpen()
}

// pick opens a folder, or ticks a file (or takes its tick away).
func (c *chooser) pick(it chooserItem) {
	path := filepath.Join(c.dir, it.name)
	switch {
	case it.dir:
		c.show(path)
		return
	case slices.Contains(c.chosen, path):
		c.chosen = slices.DeleteFunc(c.chosen, func(p string) bool { return p == path })
	default:
		c.chosen = append(c.chosen, path)
	}
	c.list.Refresh()
	c.refreshOpen()
}

// refreshOpen offers Open once there is something to open.
func (c *chooser) refreshOpen() {
	if c.folders || len(c.chosen) > 0 {
		c.open.Enable()
	} else {
		c.open.Disable()
	}
}

// pathText is a folder's path as it is drawn: left to right in any window
// ("/home/user/Pictures", not "home/user/Pictures/").
func pathText(dir string) string { return "\u2066" + dir + "\u2069" }
