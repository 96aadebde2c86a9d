package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/ui/filechooser"
)

// chooser is Hoist's own file dialog, for desktops that offer none. The
// toolkit's breaks names in Arabic, Persian and Hebrew mid-word and takes
// one file at a time; here every name is drawn in reading order, whole, and
// files are chosen several at once, with the mouse or the keyboard: Tab to
// the list, the arrows to a name, Space to tick a file or open a folder,
// Tab to Open. For folders, Open takes the folder shown. It also chooses
// one file of a kind (the filters), or where to save one: then a field
// below the list takes the file's name.
type chooser struct {
	opts    filechooser.Options
	folders bool
	dir     string
	items   []chooserItem
	chosen  []string // paths of the ticked files, in the order they were ticked
	where   *bidiLabel
	list    *widget.List
	open    *widget.Button
	name    *entry // the file's name, when saving; nil otherwise
	// confirm asks whether to write over a file, and runs yes if so.
	confirm func(question string, yes func())
	dlg     *dialog.CustomDialog
	add     func(paths []string)
}

// chooserItem is one line of the chooser: a folder or a file of dir.
type chooserItem struct {
	name string
	dir  bool
}

// newChooser shows o.Folder's folders and files (its folders only, for
// folders; those of o.Filters' kinds) in a dialog on w; add gets the chosen
// paths when Open (or Save) is pressed.
func newChooser(w fyne.Window, o filechooser.Options, add func([]string)) *chooser {
	c := &chooser{opts: o, folders: o.Directory && !o.Save, add: add, where: newBidiLabel("")}
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
	c.open = widget.NewButtonWithIcon(lang.L("Open"), theme.ConfirmIcon(), c.done)
	c.open.Importance = widget.HighImportance
	cancel := widget.NewButtonWithIcon(lang.L("Cancel"), theme.CancelIcon(), func() { c.dlg.Hide() })
	var bottom fyne.CanvasObject = row(cancel, c.open)
	if o.Save {
		c.open.SetText(lang.L("Save"))
		c.open.SetIcon(theme.DocumentSaveIcon())
		c.name = newEntry()
		c.name.SetPlaceHolder(lang.L("Enter filename"))
		c.name.SetText(o.Name)
		c.name.OnChanged = func(string) { c.refreshOpen() }
		c.name.OnSubmitted = func(string) { c.done() }
		label := newBidiLabel(lang.X("file.name", "Name"))
		bottom = container.NewVBox(border(nil, nil, label, nil, c.name), bottom)
	}
	body := border(border(nil, nil, up, nil, c.where), bottom, nil, nil, c.list)
	c.dlg = dialog.NewCustomWithoutButtons(o.Title, body, w)
	c.show(o.Folder)
	return c
}

// done hands over what was chosen: the ticked files, the folder shown, or
// the path to save to; and closes.
func (c *chooser) done() {
	paths := c.chosen
	switch {
	case c.name != nil:
		name := strings.TrimSpace(c.name.Text)
		if name == "" || strings.ContainsRune(name, filepath.Separator) {
			return
		}
		paths = []string{filepath.Join(c.dir, name)}
		if _, err := os.Stat(paths[0]); err == nil && c.confirm != nil {
			c.confirm(say("ui.pick.replace", "Name", isolate(name)), func() {
				c.dlg.Hide()
				c.add(paths)
			})
			return
		}
	case c.folders:
		paths = []string{c.dir}
	case len(paths) == 0:
		return
	}
	c.dlg.Hide()
	c.add(paths)
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
		if strings.HasPrefix(e.Name(), ".") || (c.folders && !isDir) || (!isDir && !filechooser.Matches(c.opts.Filters, e.Name())) {
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
	case c.name != nil:
		c.name.SetText(it.name) // saving over it is the user's choice
		return
	case !c.opts.Multiple:
		c.chosen = []string{path}
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
	if c.name != nil {
		if strings.TrimSpace(c.name.Text) != "" {
			c.open.Enable()
		} else {
			c.open.Disable()
		}
		return
	}
	if c.folders || len(c.chosen) > 0 {
		c.open.Enable()
	} else {
		c.open.Disable()
	}
}

// pathText is a folder's path as it is drawn: left to right in any window
// ("/home/user/Pictures", not "home/user/Pictures/").
func pathText(dir string) string { return "\u2066" + dir + "\u2069" }
