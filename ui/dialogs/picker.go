// Package dialogs opens the file dialogs the window asks for: the
// system's own where there is one (the desktop's portal, Windows'), Hoist's
// own chooser where there is none, and adds the files chosen.
package dialogs

import (
	"context"
	"errors"
	"log/slog"

	"fyne.io/fyne/v2"

	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/ui/systemchooser"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// chooseFunc shows the system's file dialog and returns the chosen paths;
// filechooser.ErrNoPortal when there is none to show.
type chooseFunc func(ctx context.Context, o filechooser.Options) ([]string, error)

// FileDialogs shows the file dialogs: the system's (the desktop's portal,
// Windows' open and save dialogs) and, where the desktop has none, Hoist's
// own (chooser.go).
type FileDialogs struct {
	Frame   *view.WindowFrame
	Log     *slog.Logger
	Choose  chooseFunc       // the system's file dialog; nil: the desktop's portal
	Chooser *widgets.Chooser // Hoist's own, last opened
	// Kinds are the kinds of file the dialog for files to upload offers,
	// by where they go now (email files for Gmail); nil or none: any file.
	Kinds func() []filechooser.Filter
}

// AskFiles shows the system's file dialog for o, or Hoist's own where the
// desktop has none, and gives then what was chosen (nothing when canceled).
func (f *FileDialogs) AskFiles(o filechooser.Options, then func(paths []string)) {
	choose := f.Choose
	if choose == nil {
		choose = systemchooser.Open
	}
	f.Frame.Background(func(ctx context.Context) {
		paths, err := choose(ctx, o)
		f.Frame.Later(func() {
			switch {
			case errors.Is(err, filechooser.ErrNoPortal):
				f.inWindow(o, then)
			case err != nil:
				f.Log.Info("the system's file dialog failed", "err", err)
				f.inWindow(o, then)
			case len(paths) > 0:
				then(paths)
			}
		})
	})
}

// Pick asks for files to upload, several at once, or folders whose files
// are uploaded, and gives then what was chosen.
func (f *FileDialogs) Pick(folders bool, then func(paths []string)) {
	o := filechooser.Options{Title: view.PickFilesTitle(), Multiple: true, Directory: folders, Folder: startFolder(folders)}
	if folders {
		o.Title = view.PickFolderTitle()
	} else if f.Kinds != nil {
		o.Filters = f.Kinds()
	}
	f.AskFiles(o, then)
}

// startFolder is where a file dialog opens: Pictures for files, else
// Documents, else the home folder, as the system's folder settings name them.
func startFolder(folders bool) string {
	if folders {
		return filechooser.PlaceOf(filechooser.Documents, filechooser.Pictures)
	}
	return filechooser.PlaceOf(filechooser.Pictures, filechooser.Documents)
}

// inWindow is Hoist's own file dialog, where the desktop has none. It
// opens where o says, and takes several files at once when o asks so.
func (f *FileDialogs) inWindow(o filechooser.Options, then func([]string)) {
	c := widgets.NewChooser(f.Frame.Win, o, ChooserWords(), then)
	c.Confirm = func(question string, yes func()) {
		f.Frame.Open(widgets.NewQuestion(o.Title, widgets.SentenceBox(question), view.Say("ui.pick.replaceYes"), view.Say("ui.pick.replaceNo"), func(ok bool) {
			if ok {
				yes()
			}
		}, f.Frame.Win))
	}
	f.Chooser = c
	c.Dialog.Resize(f.Frame.Fit(fyne.NewSize(800, 560)))
	f.Frame.Open(c.Dialog)
	if c.Name != nil {
		f.Frame.Win.Canvas().Focus(c.Name)
		return
	}
	f.Frame.Win.Canvas().Focus(c.List)
}

// ChooserWords are what Hoist's own file dialog says, in the window's language.
func ChooserWords() widgets.ChooserWords {
	l := view.Speaking()
	places := map[string]string{
		filechooser.Home: view.Say("ui.place.home"), filechooser.Desktop: view.Say("ui.place.desktop"),
		filechooser.Documents: view.Say("ui.place.documents"), filechooser.Downloads: view.Say("ui.place.downloads"),
		filechooser.Pictures: view.Say("ui.place.pictures"),
	}
	return widgets.ChooserWords{
		TypePath: view.Say("ui.pick.typePath"), Size: view.Say("ui.pick.size"), Changed: view.Say("ui.pick.changed"), Name: view.Say("ui.pick.name"),
		Place:      func(kind string) string { return places[kind] },
		Replace:    func(name string) string { return view.Say("ui.pick.replace", "Name", view.Isolate(name)) },
		Unreadable: func(path string) string { return view.Say("ui.pick.unreadable", "Path", view.Isolate(path)) },
		NoSuchPath: func(path string) string { return view.Say("ui.pick.noSuchPath", "Path", view.Isolate(path)) },
		NotOffered: func(path string) string { return view.Say("ui.pick.notOffered", "Path", view.Isolate(path)) },
		OpenFiles:  func(n int) string { return view.Say("ui.pick.openFiles", "N", n) },
		FileSize:   l.Size,
		Date:       l.Date,
		Compare:    media.CompareNames,
	}
}

// FilesAdder adds the files chosen in a file dialog.
type FilesAdder struct {
	Dialogs *FileDialogs
	Add     func(paths []string)
}

// PickFiles adds files chosen in a file dialog, several at once.
func (a FilesAdder) PickFiles() { a.Dialogs.Pick(false, a.Add) }

// PickFolder adds the files of folders chosen in a file dialog.
func (a FilesAdder) PickFolder() { a.Dialogs.Pick(true, a.Add) }

// emailPatterns are the names of the email files Gmail's destinations
// take, in both cases (the desktop's dialogs match names as written).
var emailPatterns = []string{"*.eml", "*.msg", "*.mbox", "*.EML", "*.MSG", "*.MBOX"}

// KindsFor are the kinds of file the dialog offers for files going to d:
// email files for a destination that takes only those, else any file.
func KindsFor(d dest.Destination) []filechooser.Filter {
	if !d.TakesEmail() {
		return nil
	}
	return []filechooser.Filter{{Name: view.Say("ui.pick.emailKind"), Patterns: emailPatterns}}
}
