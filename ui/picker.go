package ui

import (
	"context"
	"errors"
	"log/slog"

	"fyne.io/fyne/v2"

	"hoist/engine/dest"
	"hoist/engine/media"
	"hoist/ui/systemchooser"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// chooseFunc shows the system's file dialog and returns the chosen paths;
// filechooser.ErrNoPortal when there is none to show.
type chooseFunc func(ctx context.Context, o filechooser.Options) ([]string, error)

// fileDialogs shows the file dialogs: the system's (the desktop's portal,
// Windows' open and save dialogs) and, where the desktop has none, Hoist's
// own (chooser.go).
type fileDialogs struct {
	frame   *windowFrame
	log     *slog.Logger
	choose  chooseFunc       // the system's file dialog; nil: the desktop's portal
	chooser *widgets.Chooser // Hoist's own, last opened
	// kinds are the kinds of file the dialog for files to upload offers,
	// by where they go now (email files for Gmail); nil or none: any file.
	kinds func() []filechooser.Filter
}

// ask shows the system's file dialog for o, or Hoist's own where the
// desktop has none, and gives then what was chosen (nothing when canceled).
func (f *fileDialogs) ask(o filechooser.Options, then func(paths []string)) {
	choose := f.choose
	if choose == nil {
		choose = systemchooser.Open
	}
	f.frame.background(func(ctx context.Context) {
		paths, err := choose(ctx, o)
		f.frame.later(func() {
			switch {
			case errors.Is(err, filechooser.ErrNoPortal):
				f.inWindow(o, then)
			case err != nil:
				f.log.Info("the system's file dialog failed", "err", err)
				f.inWindow(o, then)
			case len(paths) > 0:
				then(paths)
			}
		})
	})
}

// pick asks for files to upload, several at once, or folders whose files
// are uploaded, and gives then what was chosen.
func (f *fileDialogs) pick(folders bool, then func(paths []string)) {
	o := filechooser.Options{Title: pickFilesTitle(), Multiple: true, Directory: folders, Folder: startFolder(folders)}
	if folders {
		o.Title = pickFolderTitle()
	} else if f.kinds != nil {
		o.Filters = f.kinds()
	}
	f.ask(o, then)
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
func (f *fileDialogs) inWindow(o filechooser.Options, then func([]string)) {
	c := widgets.NewChooser(f.frame.win, o, chooserWords(), then)
	c.Confirm = func(question string, yes func()) {
		f.frame.open(widgets.NewQuestion(o.Title, widgets.SentenceBox(question), say("ui.pick.replaceYes"), say("ui.pick.replaceNo"), func(ok bool) {
			if ok {
				yes()
			}
		}, f.frame.win))
	}
	f.chooser = c
	c.Dialog.Resize(f.frame.fit(fyne.NewSize(800, 560)))
	f.frame.open(c.Dialog)
	if c.Name != nil {
		f.frame.win.Canvas().Focus(c.Name)
		return
	}
	f.frame.win.Canvas().Focus(c.List)
}

// chooserWords are what Hoist's own file dialog says, in the window's language.
func chooserWords() widgets.ChooserWords {
	l := speaking()
	places := map[string]string{
		filechooser.Home: say("ui.place.home"), filechooser.Desktop: say("ui.place.desktop"),
		filechooser.Documents: say("ui.place.documents"), filechooser.Downloads: say("ui.place.downloads"),
		filechooser.Pictures: say("ui.place.pictures"),
	}
	return widgets.ChooserWords{
		TypePath: say("ui.pick.typePath"), Size: say("ui.pick.size"), Changed: say("ui.pick.changed"), Name: say("ui.pick.name"),
		Place:      func(kind string) string { return places[kind] },
		Replace:    func(name string) string { return say("ui.pick.replace", "Name", isolate(name)) },
		Unreadable: func(path string) string { return say("ui.pick.unreadable", "Path", isolate(path)) },
		NoSuchPath: func(path string) string { return say("ui.pick.noSuchPath", "Path", isolate(path)) },
		NotOffered: func(path string) string { return say("ui.pick.notOffered", "Path", isolate(path)) },
		OpenFiles:  func(n int) string { return say("ui.pick.openFiles", "N", n) },
		FileSize:   l.Size,
		Date:       l.Date,
		Compare:    media.CompareNames,
	}
}

// filesAdder adds the files chosen in a file dialog.
type filesAdder struct {
	dialogs *fileDialogs
	add     func(paths []string)
}

// pickFiles adds files chosen in a file dialog, several at once.
func (a filesAdder) pickFiles() { a.dialogs.pick(false, a.add) }

// pickFolder adds the files of folders chosen in a file dialog.
func (a filesAdder) pickFolder() { a.dialogs.pick(true, a.add) }

// emailPatterns are the names of the email files Gmail's destinations
// take, in both cases (the desktop's dialogs match names as written).
var emailPatterns = []string{"*.eml", "*.msg", "*.mbox", "*.EML", "*.MSG", "*.MBOX"}

// kindsFor are the kinds of file the dialog offers for files going to d:
// email files for a destination that takes only those, else any file.
func kindsFor(d dest.Destination) []filechooser.Filter {
	if !d.TakesEmail() {
		return nil
	}
	return []filechooser.Filter{{Name: say("ui.pick.emailKind"), Patterns: emailPatterns}}
}
