package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine/media"
	"hoist/ui/filechooser"
	"hoist/ui/widgets"
)

// chooser is Hoist's own file dialog, for desktops that offer none. The
// toolkit's breaks names in Arabic, Persian and Hebrew mid-word and takes
// one file at a time; here every name is drawn in reading order, whole, and
// files are chosen several at once, with the mouse or the keyboard: Tab to
// the list, the arrows to a name, Space to tick a file or open a folder,
// Enter to Open (the default button), Escape to close. Beside the list are
// the user's places (home, desktop, documents, downloads, pictures, as the
// system names them, and the drives on Windows); above it the folder's
// path, where a path can be typed; each file shows its size and when it
// changed; Open says how many files are ticked. For folders, Open takes the
// folder shown. It also chooses one file of a kind (the filters), or where
// to save one: then a field below the list takes the file's name.
type chooser struct {
	opts    filechooser.Options
	folders bool
	dir     string
	items   []chooserItem
	chosen  []string       // paths of the ticked files, in the order they were ticked
	path    *widgets.Entry // the folder shown; a path typed here goes there
	note    *widgets.Label // why a typed path was not taken
	places  []*widgets.Button
	list    *chooserList
	open    *widgets.Button
	buttons *fyne.Container // Cancel and Open, laid out again when Open's words change
	name    *widgets.Entry  // the file's name, when saving; nil otherwise
	// confirm asks whether to write over a file, and runs yes if so.
	confirm func(question string, yes func())
	dlg     *dialog.CustomDialog
	add     func(paths []string)
}

// chooserItem is one line of the chooser: a folder or a file of dir.
type chooserItem struct {
	name string
	dir  bool
	size int64
	mod  time.Time
}

// Widths of the size and date columns.
const (
	chooserSizeWidth = 96
	chooserDateWidth = 200
)

// newChooser shows o.Folder's folders and files (its folders only, for
// folders; those of o.Filters' kinds) in a dialog on w; add gets the chosen
// paths when Open (or Save) is pressed.
func newChooser(w fyne.Window, o filechooser.Options, add func([]string)) *chooser {
	c := &chooser{opts: o, folders: o.Directory && !o.Save, add: add}
	up := widgets.NewIconButton("", widgets.DirectionalIcon(theme.NavigateBackIcon()), func() {
		c.show(filepath.Dir(c.dir))
	})
	c.path = widgets.NewEntry()
	c.path.SetPlaceHolder(say("ui.pick.typePath"))
	c.path.OnSubmitted = c.goTo
	c.path.OnEscape = c.cancel
	c.note = widgets.NewLabel("")
	c.note.ColorName = theme.ColorNameError
	c.note.Hide()

	c.list = newChooserList(c)
	c.open = widgets.NewIconButton(lang.L("Open"), theme.ConfirmIcon(), c.done)
	c.open.Importance = widget.HighImportance
	cancel := widgets.NewIconButton(lang.L("Cancel"), theme.CancelIcon(), c.cancel)
	c.buttons = widgets.Border(nil, nil, nil, widgets.Row(cancel, c.open))
	var bottom fyne.CanvasObject = c.buttons
	if o.Save {
		c.open.SetText(lang.L("Save"))
		c.open.SetIcon(theme.DocumentSaveIcon())
		c.name = widgets.NewEntry()
		c.name.SetPlaceHolder(lang.L("Enter filename"))
		c.name.SetText(o.Name)
		c.name.OnChanged = func(string) { c.refreshOpen() }
		c.name.OnSubmitted = func(string) { c.done() }
		c.name.OnEscape = c.cancel
		label := widgets.NewLabel(lang.X("file.name", "Name"))
		bottom = container.NewVBox(widgets.Border(nil, nil, label, nil, c.name), bottom)
	}
	header := widgets.Border(nil, nil, widgets.Row(widget.NewIcon(nil), widget.NewIcon(nil)), widgets.Row(
		column(chooserSizeWidth, widgets.NewLabel(say("ui.pick.size"))),
		column(chooserDateWidth, widgets.NewLabel(say("ui.pick.changed")))),
		widgets.NewLabel(say("ui.pick.name")))
	files := widgets.Border(header, nil, nil, nil, c.list)
	top := container.NewVBox(widgets.Border(nil, nil, up, nil, c.path), c.note)
	body := widgets.Border(top, bottom, c.placesColumn(), nil, files)
	c.dlg = dialog.NewCustomWithoutButtons(o.Title, body, w)
	c.show(o.Folder)
	return c
}

// placesColumn is a button per place, at the reading side of the list.
func (c *chooser) placesColumn() fyne.CanvasObject {
	box := container.NewVBox()
	for _, p := range filechooser.Places() {
		path := p.Path
		b := widgets.NewIconButton(visual(placeWords(p)), placeIcon(p.Kind), func() { c.show(path) })
		b.Importance = widget.LowImportance
		b.Alignment = widget.ButtonAlignLeading
		if rtl() {
			b.Alignment = widget.ButtonAlignTrailing
			b.IconPlacement = widget.ButtonIconTrailingText
		}
		c.places = append(c.places, b)
		box.Add(b)
	}
	return box
}

// placeWords names a place in the window's language; a drive by its root.
func placeWords(p filechooser.Place) string {
	switch p.Kind {
	case filechooser.Home:
		return say("ui.place.home")
	case filechooser.Desktop:
		return say("ui.place.desktop")
	case filechooser.Documents:
		return say("ui.place.documents")
	case filechooser.Downloads:
		return say("ui.place.downloads")
	case filechooser.Pictures:
		return say("ui.place.pictures")
	}
	return p.Path
}

func placeIcon(kind string) fyne.Resource {
	switch kind {
	case filechooser.Home:
		return theme.HomeIcon()
	case filechooser.Desktop:
		return theme.ComputerIcon()
	case filechooser.Documents:
		return theme.DocumentIcon()
	case filechooser.Downloads:
		return theme.DownloadIcon()
	case filechooser.Pictures:
		return theme.FileImageIcon()
	}
	return theme.StorageIcon()
}

// cancel closes the dialog without a choice.
func (c *chooser) cancel() { c.dlg.Hide() }

// done hands over what was chosen: the ticked files, the folder shown, or
// the path to save to; and closes. It is the dialog's default button,
// which Enter presses.
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

// show lists dir: folders first, then files, each by name as people count
// (doc_2 before doc_10); hidden ones are left out, as the file managers do.
func (c *chooser) show(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil && c.dir != "" {
		c.tell(say("ui.pick.unreadable", "Path", isolate(dir)))
		return // unreadable: stay where the user is
	}
	again := c.dir != "" // the list is on screen: back to its top
	c.dir = dir
	c.items = c.items[:0]
	for _, e := range entries {
		isDir := e.IsDir()
		fi, ferr := e.Info()
		if e.Type()&os.ModeSymlink != 0 {
			if target, err := os.Stat(filepath.Join(dir, e.Name())); err == nil {
				fi, ferr, isDir = target, nil, target.IsDir()
			}
		}
		if strings.HasPrefix(e.Name(), ".") || (c.folders && !isDir) || (!isDir && !filechooser.Matches(c.opts.Filters, e.Name())) {
			continue
		}
		it := chooserItem{name: e.Name(), dir: isDir}
		if ferr == nil {
			it.mod = fi.ModTime()
			if !isDir {
				it.size = fi.Size()
			}
		}
		c.items = append(c.items, it)
	}
	slices.SortFunc(c.items, func(a, b chooserItem) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return media.CompareNames(a.name, b.name)
	})
	c.path.SetText(pathText(dir))
	c.tell("")
	c.list.UnselectAll()
	if again {
		c.list.ScrollToTop()
	}
	c.list.Refresh()
	c.refreshOpen()
}

// tell shows why a typed path was not taken, or nothing.
func (c *chooser) tell(why string) {
	c.note.SetText(why)
	if why == "" {
		c.note.Hide()
	} else {
		c.note.Show()
	}
}

// goTo takes a typed path: a folder is shown, a file is ticked (or, when
// saving, named) in its folder; anything else is said.
func (c *chooser) goTo(typed string) {
	typed = strings.Trim(typed, "\u2066\u2069") // the path as shown is isolated, left to right
	p := strings.TrimSpace(typed)
	if home, err := os.UserHomeDir(); err == nil && (p == "~" || strings.HasPrefix(p, "~"+string(filepath.Separator))) {
		p = filepath.Join(home, strings.TrimPrefix(p, "~"))
	}
	if p != "" && !filepath.IsAbs(p) {
		p = filepath.Join(c.dir, p)
	}
	fi, err := os.Stat(p)
	switch {
	case p == "" || err != nil:
		c.tell(say("ui.pick.noSuchPath", "Path", isolate(typed)))
	case fi.IsDir():
		c.show(p)
	case c.folders || (c.name == nil && !filechooser.Matches(c.opts.Filters, fi.Name())):
		c.tell(say("ui.pick.notOffered", "Path", isolate(typed)))
	default:
		c.show(filepath.Dir(p))
		c.pick(chooserItem{name: fi.Name()})
	}
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

// refreshOpen offers Open once there is something to open, and says how
// many files it opens.
func (c *chooser) refreshOpen() {
	if c.name != nil {
		if strings.TrimSpace(c.name.Text) != "" {
			c.open.Enable()
		} else {
			c.open.Disable()
		}
		return
	}
	switch {
	case c.folders:
		c.open.SetText(lang.L("Open"))
		c.open.Enable()
	case len(c.chosen) == 0:
		c.open.SetText(lang.L("Open"))
		c.open.Disable()
	default:
		c.open.SetText(visual(say("ui.pick.openFiles", "N", len(c.chosen))))
		c.open.Enable()
	}
	c.buttons.Refresh() // Open's new words need their room
}

// takeDropped takes files dropped on the window while the chooser is on
// top, as if they were chosen in it: false when the chooser does not take
// such files (it saves, or wants folders, or files of another kind).
func (c *chooser) takeDropped(paths []string) bool {
	if c.name != nil || len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			return false
		case fi.IsDir() && !c.folders && !c.opts.Multiple: // one file is asked for
			return false
		case !fi.IsDir() && (c.folders || !filechooser.Matches(c.opts.Filters, fi.Name())):
			return false
		}
	}
	if !c.opts.Multiple && len(paths) > 1 {
		return false
	}
	c.dlg.Hide()
	c.add(paths)
	return true
}

// pathText is a folder's path as it is drawn: left to right in any window
// ("/home/user/Pictures", not "home/user/Pictures/").
func pathText(dir string) string { return "\u2066" + dir + "\u2069" }

// chooserList is the chooser's list of folders and files: Enter presses
// the dialog's default button (Open, Save) and Escape closes the dialog,
// as in the system's own dialogs; every other key moves in the list.
type chooserList struct {
	widget.List
	c *chooser
}

func newChooserList(c *chooser) *chooserList {
	l := &chooserList{c: c}
	l.Length = func() int { return len(c.items) }
	l.CreateItem = func() fyne.CanvasObject {
		return widgets.Border(nil, nil,
			widgets.Row(widget.NewIcon(nil), widget.NewIcon(theme.FileIcon())),
			widgets.Row(column(chooserSizeWidth, widgets.NewLabel("")), column(chooserDateWidth, widgets.NewLabel(""))),
			widgets.NewLabel(""))
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < 0 || i >= len(c.items) {
			return
		}
		it := c.items[i]
		parts := o.(*fyne.Container).Objects // the name, the start's icons, the end's columns
		parts[0].(*widgets.Label).SetText(it.name)
		icons := parts[1].(*fyne.Container).Objects
		tick, kind := icons[0].(*widget.Icon), icons[1].(*widget.Icon)
		if it.dir {
			kind.SetResource(theme.FolderIcon())
		} else {
			kind.SetResource(theme.FileIcon())
		}
		if slices.Contains(c.chosen, filepath.Join(c.dir, it.name)) {
			tick.SetResource(theme.CheckButtonCheckedIcon())
		} else if !it.dir && c.name == nil && !c.folders {
			tick.SetResource(theme.CheckButtonIcon())
		} else {
			tick.SetResource(nil)
		}
		columns := parts[2].(*fyne.Container).Objects
		size, date := "", ""
		if !it.dir {
			size = speaking().Size(it.size)
		}
		if !it.mod.IsZero() {
			date = speaking().Date(it.mod)
		}
		columns[0].(*fyne.Container).Objects[0].(*widgets.Label).SetText(size)
		columns[1].(*fyne.Container).Objects[0].(*widgets.Label).SetText(date)
	}
	l.OnSelected = func(i widget.ListItemID) {
		l.Unselect(i)
		if i >= 0 && i < len(c.items) {
			c.pick(c.items[i])
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey: Enter presses the default button, Escape closes the dialog.
func (l *chooserList) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !l.c.open.Disabled() {
			l.c.done()
		}
	case fyne.KeyEscape:
		l.c.cancel()
	default:
		l.List.TypedKey(k)
	}
}

// column holds o at a fixed width, so that a list's columns line up.
func column(width float32, o fyne.CanvasObject) *fyne.Container {
	return container.New(columnLayout{width}, o)
}

type columnLayout struct{ width float32 }

func (l columnLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objects {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(l.width, h)
}

func (l columnLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}
