package destination

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/dialogs"
	"hoist/ui/received"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// GoogleSide is the window's Google side: the sign-in service and the
// accounts, the saved and the organisation's destinations (shared ones
// dropped or exported, client files taken by the guided set-up), Google's
// lists behind the pickers, and the set-up itself.
type GoogleSide struct {
	Frame    *view.WindowFrame
	Queue    *engine.Queue     // safe from any goroutine
	Auth     SignIn            // nil without sign-in
	Presets  PresetStore       // nil without
	Sandbox  *received.Sandbox // the built-in sandbox, whose lists stand in for Google's
	Target   *Target
	Dialogs  *dialogs.FileDialogs
	Settings func() view.Settings
	Bar      func() *DestBar
	Setup    *setupPanel // the guided set-up, while open
}

func (g *GoogleSide) SavedDestinations() PresetStore { return g.Presets }
func (g *GoogleSide) GoogleSignIn() SignIn           { return g.Auth }
func (g *GoogleSide) WaitForSignIn() time.Duration   { return g.Settings().WaitForSignIn() }

// Login signs in for the current destination, through the destination bar.
func (g *GoogleSide) Login() { g.Bar().Login() }

// LoginWith signs account in for scopes, leaving the destination's account
// as it is unless it has none; then runs after the sign-in.
func (g *GoogleSide) LoginWith(account string, scopes []string, then func(auth.Account)) {
	g.Bar().LoginWith(account, scopes, false, then)
}

// ClientImported shows the sign-in controls now that Google sign-in is set up.
func (g *GoogleSide) ClientImported() {
	g.Bar().showCurrent()
	g.Bar().refreshAccounts()
}

// managedStore is a preset store that also holds the organisation's
// destinations, which the user may use but not change.
type managedStore interface {
	IsManaged(name string) bool
}

// clientProblems is what the sign-in service tells of broken client files.
type clientProblems interface {
	ClientProblems() []error
}

// Managed reports whether name is a destination from the organisation.
func (g *GoogleSide) Managed(name string) bool {
	m, ok := g.Presets.(managedStore)
	return ok && strings.TrimSpace(name) != "" && m.IsManaged(name)
}

// StartupProblems are sentences about the organisation's folder and the
// user's own client file, said once when the window opens.
func (g *GoogleSide) StartupProblems(more []error) {
	var msgs []string
	if cp, ok := g.Auth.(clientProblems); ok {
		for _, p := range cp.ClientProblems() {
			msgs = append(msgs, view.Sentence(view.ErrorWords(p)))
		}
	}
	for _, p := range more {
		msgs = append(msgs, view.Sentence(view.ErrorWords(p)))
	}
	if len(msgs) > 0 {
		g.Frame.Tell(strings.Join(msgs, " "))
	}
}

// SignedIn sends on every row that was waiting for account's sign-in.
func (g *GoogleSide) SignedIn(account string) {
	g.Frame.Background(func(context.Context) {
		n := len(g.Queue.ResumeSignedIn(account))
		g.Frame.Later(func() {
			msg := view.Say("ui.signedIn", "Account", view.Isolate(account))
			if n > 0 {
				msg += " " + view.Say("ui.signedIn.goOn", "N", n)
			}
			g.Frame.Tell(msg)
		})
	})
}

// maxSettingsFile bounds what is read of a dropped file to tell whether it
// is a shared destination or a client file rather than one to upload.
const maxSettingsFile = 64 << 10

// TakeSettingsFiles imports the shared destinations among dropped paths
// and gives a client file to the set-up, when it is open or Google is not
// set up yet. It returns the paths that are files to upload.
func (g *GoogleSide) TakeSettingsFiles(paths []string) []string {
	var rest []string
	for _, p := range paths {
		switch settingsFileKind(p) {
		case sharedDestination:
			g.importDestination(p)
		case clientFile:
			if g.Setup != nil || (g.Auth != nil && !g.Auth.HasClient()) {
				g.ShowSetup()
				g.Setup.take(p)
				continue
			}
			rest = append(rest, p)
		default:
			rest = append(rest, p)
		}
	}
	return rest
}

type settingsKind int

const (
	notSettings settingsKind = iota
	sharedDestination
	clientFile
)

// settingsFileKind tells a shared destination or an OAuth client file
// from a file to upload, by content.
func settingsFileKind(path string) settingsKind {
	ext := strings.ToLower(filepath.Ext(path))
	if ext != ".json" && ext != dest.ShareExtension {
		return notSettings
	}
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxSettingsFile {
		return notSettings
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return notSettings
	}
	if dest.IsShared(data) {
		return sharedDestination
	}
	if ext != ".json" {
		return notSettings
	}
	err = auth.CheckClientFile(path)
	if err == nil || (errors.Is(err, auth.ErrNotDesktopClient) && strings.HasPrefix(filepath.Base(path), "client_secret")) {
		return clientFile // the set-up says what is wrong with a web client's
	}
	return notSettings
}

// adder is a preset store that saves only under a free name.
type adder interface {
	Add(d dest.Destination) error
}

// importDestination saves a destination someone shared, under its name.
func (g *GoogleSide) importDestination(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		g.Frame.Tell(view.Say("ui.import.unreadable", "File", view.Isolate(filepath.Base(path))))
		return
	}
	shared, err := dest.Import(data)
	if err != nil {
		g.Frame.Tell(view.Say("ui.import.bad", "File", view.Isolate(filepath.Base(path)), "Why", view.ErrorWords(err)))
		return
	}
	a, ok := g.Presets.(adder)
	if !ok || g.Presets == nil {
		g.Frame.Tell(view.Say("ui.import.noStore", "Name", view.Isolate(shared.Name)))
		return
	}
	if err := a.Add(shared); err != nil {
		g.Frame.Tell(view.ErrorWords(err))
		return
	}
	g.Bar().RefreshChoices()
	g.Frame.Tell(view.Say("ui.import.done", "Name", view.Isolate(shared.Name)))
}

// FormExtras is what a destination's form shows below its settings: that
// a destination from the organisation cannot be changed, and Export… for
// one that has a name.
func (g *GoogleSide) FormExtras(target dest.Destination) fyne.CanvasObject {
	box := container.NewVBox()
	if g.Managed(target.Name) {
		box.Add(widgets.NewParagraph(view.Say("ui.dest.managedNote")))
	}
	if strings.TrimSpace(target.Name) != "" {
		box.Add(widgets.Row(widgets.NewIconButton(view.Visual(view.Say("ui.dest.export")), theme.DocumentSaveIcon(), func() {
			g.Dialogs.AskFiles(filechooser.Options{
				Title:   view.Say("ui.pick.export"),
				Save:    true,
				Name:    target.Name + dest.ShareExtension,
				Folder:  filechooser.PlaceOf(filechooser.Documents),
				Filters: []filechooser.Filter{{Name: view.Say("ui.pick.exportKind"), Patterns: []string{"*" + dest.ShareExtension}}},
			}, func(paths []string) {
				w, err := os.Create(paths[0])
				if err != nil {
					g.Frame.Tell(view.Say("ui.export.failed", "Why", view.ErrorWords(err)))
					return
				}
				g.ExportDestination(target, w)
			})
		})))
	}
	return box
}

// ExportDestination writes target to w, to give to someone else: no
// account, token or secret goes into it.
func (g *GoogleSide) ExportDestination(target dest.Destination, w io.WriteCloser) {
	data, err := dest.Export(target)
	if err == nil {
		_, err = w.Write(data)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		g.Frame.Tell(view.Say("ui.export.failed", "Why", view.ErrorWords(err)))
		return
	}
	g.Frame.Tell(view.Say("ui.export.done", "Name", view.Isolate(target.Name)))
}
