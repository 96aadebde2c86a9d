package ui

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
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// googleSide is the window's Google side: the sign-in service and the
// accounts, the saved and the organisation's destinations (shared ones
// dropped or exported, client files taken by the guided set-up), Google's
// lists behind the pickers, and the set-up itself.
type googleSide struct {
	frame    *windowFrame
	q        *engine.Queue // safe from any goroutine
	auth     signIn        // nil without sign-in
	presets  presetStore   // nil without
	sandbox  *sandbox      // the built-in sandbox, whose lists stand in for Google's
	target   *target
	dialogs  *fileDialogs
	settings func() settings
	bar      func() *destBar
	setup    *setupPanel // the guided set-up, while open
}

func (g *googleSide) savedDestinations() presetStore { return g.presets }
func (g *googleSide) googleSignIn() signIn           { return g.auth }
func (g *googleSide) signInWait() time.Duration      { return g.settings().signInWait() }

// login signs in for the current destination, through the destination bar.
func (g *googleSide) login() { g.bar().login() }

// loginWith signs account in for scopes, leaving the destination's account
// as it is unless it has none; then runs after the sign-in.
func (g *googleSide) loginWith(account string, scopes []string, then func(auth.Account)) {
	g.bar().loginWith(account, scopes, false, then)
}

// clientImported shows the sign-in controls now that Google sign-in is set up.
func (g *googleSide) clientImported() {
	g.bar().showCurrent()
	g.bar().refreshAccounts()
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

// managed reports whether name is a destination from the organisation.
func (g *googleSide) managed(name string) bool {
	m, ok := g.presets.(managedStore)
	return ok && strings.TrimSpace(name) != "" && m.IsManaged(name)
}

// startupProblems are sentences about the organisation's folder and the
// user's own client file, said once when the window opens.
func (g *googleSide) startupProblems(more []error) {
	var msgs []string
	if cp, ok := g.auth.(clientProblems); ok {
		for _, p := range cp.ClientProblems() {
			msgs = append(msgs, sentence(errorWords(p)))
		}
	}
	for _, p := range more {
		msgs = append(msgs, sentence(errorWords(p)))
	}
	if len(msgs) > 0 {
		g.frame.tell(strings.Join(msgs, " "))
	}
}

// signedIn sends on every row that was waiting for account's sign-in.
func (g *googleSide) signedIn(account string) {
	g.frame.background(func(context.Context) {
		n := len(g.q.ResumeSignedIn(account))
		g.frame.later(func() {
			msg := say("ui.signedIn", "Account", isolate(account))
			if n > 0 {
				msg += " " + say("ui.signedIn.goOn", "N", n)
			}
			g.frame.tell(msg)
		})
	})
}

// maxSettingsFile bounds what is read of a dropped file to tell whether it
// is a shared destination or a client file rather than one to upload.
const maxSettingsFile = 64 << 10

// takeSettingsFiles imports the shared destinations among dropped paths
// and gives a client file to the set-up, when it is open or Google is not
// set up yet. It returns the paths that are files to upload.
func (g *googleSide) takeSettingsFiles(paths []string) []string {
	var rest []string
	for _, p := range paths {
		switch settingsFileKind(p) {
		case sharedDestination:
			g.importDestination(p)
		case clientFile:
			if g.setup != nil || (g.auth != nil && !g.auth.HasClient()) {
				g.showSetup()
				g.setup.take(p)
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
func (g *googleSide) importDestination(path string) {
	data, err := os.ReadFile(path)
	if err != nil {
		g.frame.tell(say("ui.import.unreadable", "File", isolate(filepath.Base(path))))
		return
	}
	shared, err := dest.Import(data)
	if err != nil {
		g.frame.tell(say("ui.import.bad", "File", isolate(filepath.Base(path)), "Why", errorWords(err)))
		return
	}
	a, ok := g.presets.(adder)
	if !ok || g.presets == nil {
		g.frame.tell(say("ui.import.noStore", "Name", isolate(shared.Name)))
		return
	}
	if err := a.Add(shared); err != nil {
		g.frame.tell(errorWords(err))
		return
	}
	g.bar().refreshChoices()
	g.frame.tell(say("ui.import.done", "Name", isolate(shared.Name)))
}

// formExtras is what a destination's form shows below its settings: that
// a destination from the organisation cannot be changed, and Export… for
// one that has a name.
func (g *googleSide) formExtras(target dest.Destination) fyne.CanvasObject {
	box := container.NewVBox()
	if g.managed(target.Name) {
		box.Add(widgets.NewParagraph(say("ui.dest.managedNote")))
	}
	if strings.TrimSpace(target.Name) != "" {
		box.Add(widgets.Row(widgets.NewIconButton(visual(say("ui.dest.export")), theme.DocumentSaveIcon(), func() {
			g.dialogs.ask(filechooser.Options{
				Title:   say("ui.pick.export"),
				Save:    true,
				Name:    target.Name + dest.ShareExtension,
				Folder:  filechooser.PlaceOf(filechooser.Documents),
				Filters: []filechooser.Filter{{Name: say("ui.pick.exportKind"), Patterns: []string{"*" + dest.ShareExtension}}},
			}, func(paths []string) {
				w, err := os.Create(paths[0])
				if err != nil {
					g.frame.tell(say("ui.export.failed", "Why", errorWords(err)))
					return
				}
				g.exportDestination(target, w)
			})
		})))
	}
	return box
}

// exportDestination writes target to w, to give to someone else: no
// account, token or secret goes into it.
func (g *googleSide) exportDestination(target dest.Destination, w io.WriteCloser) {
	data, err := dest.Export(target)
	if err == nil {
		_, err = w.Write(data)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		g.frame.tell(say("ui.export.failed", "Why", errorWords(err)))
		return
	}
	g.frame.tell(say("ui.export.done", "Name", isolate(target.Name)))
}
