package widgets

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

	"hoist/ui/widgets/filechooser"
)

// Chooser is a file dialog for desktops that offer none. The
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
type Chooser struct {
	opts    filechooser.Options
	folders bool
	dir     string
	items   []ChooserItem
	chosen  []string // paths of the ticked files, in the order they were ticked
	Path    *Entry   // the folder shown; a path typed here goes there
	Note    *Label   // why a typed path was not taken
	Places  []*Button
	List    *ChooserList
	Open    *Button
	buttons *fyne.Container // Cancel and Open, laid out again when Open's words change
	Name    *Entry          // the file's name, when saving; nil otherwise
	// Confirm asks whether to write over a file, and runs yes if so.
	Confirm   func(question string, yes func())
	Dialog    *dialog.CustomDialog
	add       func(paths []string)
	words     ChooserWords
	dateWidth float32 // the date column, as wide as the language's widest date
}

// ChooserItem is one line of the chooser: a folder or a file of the folder shown.
type ChooserItem struct {
	Name string
	Dir  bool
	Size int64
	Mod  time.Time
}

// Widths of the size and date columns.
const (
	chooserSizeWidth = 96
	chooserDateWidth = 200
)

// ChooserWords are what the file dialog says and how it orders names, in
// the window's language. Every function gets names and paths as they are:
// it isolates them in its sentence.
type ChooserWords struct {
	TypePath, Size, Changed, Name string                   // the path field's hint, the columns' headings
	Place                         func(kind string) string // a place's name (filechooser.Home…); "" for a drive
	Replace                       func(name string) string // asks whether to write over a file
	Unreadable, NoSuchPath        func(path string) string // a folder that cannot be read; a typed path that is nowhere
	NotOffered                    func(path string) string // a typed file the dialog does not take
	OpenFiles                     func(n int) string       // Open, for n files
	FileSize                      func(n int64) string
	Date                          func(t time.Time) string
	Compare                       func(a, b string) int // the order of names (as people count: doc_2 before doc_10)
}

// NewChooser shows o.Folder's folders and files (its folders only, for
// folders; those of o.Filters' kinds) in a dialog on w, in words; add gets
// the chosen paths when Open (or Save) is pressed.
func NewChooser(w fyne.Window, o filechooser.Options, words ChooserWords, add func([]string)) *Chooser {
	c := &Chooser{opts: o, folders: o.Directory && !o.Save, add: add, words: words}
	c.dateWidth = dateColumnWidth(words.Date)
	up := NewIconButton("", DirectionalIcon(theme.NavigateBackIcon()), func() {
		c.Show(filepath.Dir(c.dir))
	})
	c.Path = NewEntry()
	c.Path.SetPlaceHolder(words.TypePath)
	c.Path.OnSubmitted = c.goTo
	c.Path.OnEscape = c.Cancel
	c.Note = NewLabel("")
	c.Note.ColorName = theme.ColorNameError
	c.Note.Hide()

	c.List = newChooserList(c)
	c.Open = NewIconButton(lang.L("Open"), theme.ConfirmIcon(), c.Done)
	c.Open.Importance = widget.HighImportance
	cancel := NewIconButton(lang.L("Cancel"), theme.CancelIcon(), c.Cancel)
	c.buttons = Border(nil, nil, nil, Row(cancel, c.Open))
	var bottom fyne.CanvasObject = c.buttons
	if o.Save {
		c.Open.SetText(lang.L("Save"))
		c.Open.SetIcon(theme.DocumentSaveIcon())
		c.Name = NewEntry()
		c.Name.SetPlaceHolder(lang.L("Enter filename"))
		c.Name.SetText(o.Name)
		c.Name.OnChanged = func(string) { c.refreshOpen() }
		c.Name.OnSubmitted = func(string) { c.Done() }
		c.Name.OnEscape = c.Cancel
		label := NewLabel(lang.X("file.name", "Name"))
		bottom = container.NewVBox(Border(nil, nil, label, nil, c.Name), bottom)
	}
	header := Border(nil, nil, Row(widget.NewIcon(nil), widget.NewIcon(nil)), Row(
		column(chooserSizeWidth, NewLabel(words.Size)),
		column(c.dateWidth, NewLabel(words.Changed))),
		NewLabel(words.Name))
	files := Border(header, nil, nil, nil, c.List)
	top := container.NewVBox(Border(nil, nil, up, nil, c.Path), c.Note)
	body := Border(top, bottom, c.placesColumn(), nil, files)
	c.Dialog = dialog.NewCustomWithoutButtons(o.Title, body, w)
	c.Show(o.Folder)
	return c
}

// placesColumn is a button per place, at the reading side of the list.
func (c *Chooser) placesColumn() fyne.CanvasObject {
	box := container.NewVBox()
	for _, p := range filechooser.Places() {
		path := p.Path
		b := NewIconButton(Visual(c.placeWords(p)), placeIcon(p.Kind), func() { c.Show(path) })
		b.Importance = widget.LowImportance
		b.Alignment = widget.ButtonAlignLeading
		if RightToLeft() {
			b.Alignment = widget.ButtonAlignTrailing
			b.IconPlacement = widget.ButtonIconTrailingText
		}
		c.Places = append(c.Places, b)
		box.Add(b)
	}
	return box
}

// placeWords names a place in the window's language; a drive by its root.
func (c *Chooser) placeWords(p filechooser.Place) string {
	if s := c.words.Place(p.Kind); s != "" {
		return s
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
func (c *Chooser) Cancel() { c.Dialog.Hide() }

// done hands over what was chosen: the ticked files, the folder shown, or
// the path to save to; and closes. It is the dialog's default button,
// which Enter presses.
func (c *Chooser) Done() {
	paths := c.chosen
	switch {
	case c.Name != nil:
		name := strings.TrimSpace(c.Name.Text)
		if name == "" || strings.ContainsRune(name, filepath.Separator) {
			return
		}
		paths = []string{filepath.Join(c.dir, name)}
		if _, err := os.Stat(paths[0]); err == nil && c.Confirm != nil {
			c.Confirm(c.words.Replace(name), func() {
				c.Dialog.Hide()
				c.add(paths)
			})
			return
		}
	case c.folders:
		paths = []string{c.dir}
	case len(paths) == 0:
		return
	}
	c.Dialog.Hide()
	c.add(paths)
}

// show lists dir: folders first, then files, each by name as people count
// (doc_2 before doc_10); hidden ones are left out, as the file managers do.
func (c *Chooser) Show(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil && c.dir != "" {
		c.tell(c.words.Unreadable(dir))
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
		it := ChooserItem{Name: e.Name(), Dir: isDir}
		if ferr == nil {
			it.Mod = fi.ModTime()
			if !isDir {
				it.Size = fi.Size()
			}
		}
		c.items = append(c.items, it)
	}
	slices.SortFunc(c.items, func(a, b ChooserItem) int {
		if a.Dir != b.Dir {
			if a.Dir {
				return -1
			}
			return 1
		}
		return c.words.Compare(a.Name, b.Name)
	})
	c.Path.SetText(pathText(dir))
	c.tell("")
	c.List.UnselectAll()
	if again {
		c.List.ScrollToTop()
	}
	c.List.Refresh()
	c.refreshOpen()
}

// tell shows why a typed path was not taken, or nothing.
func (c *Chooser) tell(why string) {
	c.Note.SetText(why)
	if why == "" {
		c.Note.Hide()
	} else {
		c.Note.Show()
	}
}

// goTo takes a typed path: a folder is shown, a file is ticked (or, when
// saving, named) in its folder; anything else is said.
func (c *Chooser) goTo(typed string) {
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
		c.tell(c.words.NoSuchPath(typed))
	case fi.IsDir():
		c.Show(p)
	case c.folders || (c.Name == nil && !filechooser.Matches(c.opts.Filters, fi.Name())):
		c.tell(c.words.NotOffered(typed))
	default:
		c.Show(filepath.Dir(p))
		c.Pick(ChooserItem{Name: fi.Name()})
	}
}

// pick opens a folder, or ticks a file (or takes its tick away).
func (c *Chooser) Pick(it ChooserItem) {
	path := filepath.Join(c.dir, it.Name)
	switch {
	case it.Dir:
		c.Show(path)
		return
	case c.Name != nil:
		c.Name.SetText(it.Name) // saving over it is the user's choice
		return
	case !c.opts.Multiple:
		c.chosen = []string{path}
	case slices.Contains(c.chosen, path):
		c.chosen = slices.DeleteFunc(c.chosen, func(p string) bool { return p == path })
	default:
		c.chosen = append(c.chosen, path)
	}
	c.List.Refresh()
	c.refreshOpen()
}

// refreshOpen offers Open once there is something to open, and says how
// many files it opens.
func (c *Chooser) refreshOpen() {
	if c.Name != nil {
		if strings.TrimSpace(c.Name.Text) != "" {
			c.Open.Enable()
		} else {
			c.Open.Disable()
		}
		return
	}
	switch {
	case c.folders:
		c.Open.SetText(lang.L("Open"))
		c.Open.Enable()
	case len(c.chosen) == 0:
		c.Open.SetText(lang.L("Open"))
		c.Open.Disable()
	default:
		c.Open.SetText(Visual(c.words.OpenFiles(len(c.chosen))))
		c.Open.Enable()
	}
	c.buttons.Refresh() // Open's new words need their room
}

// takeDropped takes files dropped on the window while the chooser is on
// top, as if they were chosen in it: false when the chooser does not take
// such files (it saves, or wants folders, or files of another kind).
func (c *Chooser) TakeDropped(paths []string) bool {
	if c.Name != nil || len(paths) == 0 {
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
	c.Dialog.Hide()
	c.add(paths)
	return true
}

// pathText is a folder's path as it is drawn: left to right in any window
// ("/home/user/Pictures", not "home/user/Pictures/").
func pathText(dir string) string { return "\u2066" + dir + "\u2069" }

// ChooserList is the chooser's list of folders and files: Enter presses
// the dialog's default button (Open, Save) and Escape closes the dialog,
// as in the system's own dialogs; every other key moves in the list.
type ChooserList struct {
	widget.List
	c *Chooser
}

func newChooserList(c *Chooser) *ChooserList {
	l := &ChooserList{c: c}
	l.Length = func() int { return len(c.items) }
	l.CreateItem = func() fyne.CanvasObject {
		return Border(nil, nil,
			Row(widget.NewIcon(nil), widget.NewIcon(theme.FileIcon())),
			Row(column(chooserSizeWidth, NewLabel("")), column(c.dateWidth, NewLabel(""))),
			NewLabel(""))
	}
	l.UpdateItem = func(i widget.ListItemID, o fyne.CanvasObject) {
		if i < 0 || i >= len(c.items) {
			return
		}
		it := c.items[i]
		parts := o.(*fyne.Container).Objects // the name, the start's icons, the end's columns
		parts[0].(*Label).SetText(it.Name)
		icons := parts[1].(*fyne.Container).Objects
		tick, kind := icons[0].(*widget.Icon), icons[1].(*widget.Icon)
		if it.Dir {
			kind.SetResource(theme.FolderIcon())
		} else {
			kind.SetResource(theme.FileIcon())
		}
		if slices.Contains(c.chosen, filepath.Join(c.dir, it.Name)) {
			tick.SetResource(theme.CheckButtonCheckedIcon())
		} else if !it.Dir && c.Name == nil && !c.folders {
			tick.SetResource(theme.CheckButtonIcon())
		} else {
			tick.SetResource(nil)
		}
		columns := parts[2].(*fyne.Container).Objects
		size, date := "", ""
		if !it.Dir {
			size = c.words.FileSize(it.Size)
		}
		if !it.Mod.IsZero() {
			date = c.words.Date(it.Mod)
		}
		columns[0].(*fyne.Container).Objects[0].(*Label).SetText(size)
		columns[1].(*fyne.Container).Objects[0].(*Label).SetText(date)
	}
	l.OnSelected = func(i widget.ListItemID) {
		l.Unselect(i)
		if i >= 0 && i < len(c.items) {
			c.Pick(c.items[i])
		}
	}
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey: Enter presses the default button, Escape closes the dialog.
func (l *ChooserList) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !l.c.Open.Disabled() {
			l.c.Done()
		}
	case fyne.KeyEscape:
		l.c.Cancel()
	default:
		l.List.TypedKey(k)
	}
}

// dateColumnWidth is as wide as the widest date the language writes (the
// longest month's name, two-digit day and hour), and never narrower than
// chooserDateWidth: a fixed width cut the time off a date.
func dateColumnWidth(date func(time.Time) string) float32 {
	w := float32(chooserDateWidth)
	if date == nil {
		return w
	}
	for m := time.January; m <= time.December; m++ {
		l := NewWholeLabel(date(time.Date(2026, m, 28, 23, 58, 0, 0, time.Local)))
		w = max(w, l.MinSize().Width)
	}
	return w
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

// Items are the folders and files shown, folders first.
func (c *Chooser) Items() []ChooserItem { return c.items }

// Folder is the folder shown.
func (c *Chooser) Folder() string { return c.dir }

// Chosen are the ticked files' paths, in the order they were ticked.
func (c *Chooser) Chosen() []string { return c.chosen }
