package ui

import (
	"context"
	"image"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/widgets/filechooser"
)

// The window is made of panels: the destination bar (destbar.go, with the
// lists to choose from in pickers.go), the list and its rows (list.go,
// rows.go), the bar under it (footer.go), the selection's panel
// (selection.go), the sandbox's panel (sandbox.go), the settings
// (settings.go) and the guided set-up of Google sign-in (setup.go). Each
// panel owns its widgets and draws what the latest snapshot says
// (snapshot.go); it asks the window for the rest through the small
// interface below that it needs, and reads no other panel's fields. The
// desk (window.go) builds the panels and routes between them; what they ask
// for is done by small parts: the frame around the panels (frame.go), the
// destination (target.go), the Google side (google.go), the settings
// (settings.go), the file dialogs (picker.go), the actions on files
// (actions.go), the removals (removals.go) and the way out (closing.go).
// Every method runs on the UI goroutine, except background's work.

// frame is what every panel may ask of the window around it.
type frame interface {
	window() fyne.Window
	open(dlg hideable)                  // shows a dialog that Escape closes
	fit(s fyne.Size) fyne.Size          // a dialog's size, no larger than the window
	tell(msg string)                    // a sentence above the totals
	copyText(text string)               // puts text on the clipboard
	background(f func(context.Context)) // work off the UI goroutine, waited for on close
	later(f func())                     // back on the UI goroutine, at the next sample
	// scrolled is content in a scroll that keeps the focused control on screen.
	scrolled(content fyne.CanvasObject) *container.Scroll
}

// rowController is what a row of the list asks of the window.
type rowController interface {
	do(v engine.JobView, a engine.Action) // one of JobView.Actions
	showResult(v engine.JobView)
	showDetails(v engine.JobView)
	// thumbnail gives a picture's thumbnail; done is false while it is being made.
	thumbnail(v engine.JobView) (img image.Image, done bool)
}

// listController is what the list asks of the window.
type listController interface {
	rowController
	removeRows(views []engine.JobView) // off the list, with an Undo
	selectRows(sel selection)          // makes sel the selection
	openMailbox(id engine.JobID)       // lists a mailbox's emails under its row, or no longer
}

// selectionController is what the selection's panel asks of the window.
type selectionController interface {
	// doSelected takes a on every job of views that allows it.
	doSelected(a engine.Action, views []engine.JobView)
	showResult(v engine.JobView)
	showDetails(v engine.JobView)
}

// barController is what the destination bar, its forms and Google's lists
// ask of the window.
type barController interface {
	pickerController
	setDestination(d dest.Destination) // files added from now on go to d; kept for the next start
	savedDestinations() presetStore    // nil without
	managed(name string) bool          // the destination is the organisation's
	googleSignIn() signIn              // nil without sign-in
	signInWait() time.Duration         // how long a sign-in in the browser may take
	signedIn(account string)           // the account's waiting uploads go on
	showSetup()
	formExtras(d dest.Destination) fyne.CanvasObject
	resolveNames(d dest.Destination, then func(resolved dest.Destination, err error))
	pickFiles()
	showSettings()
}

// pickerController is what a list to choose from asks of the window.
type pickerController interface {
	frame
	destination() dest.Destination // where files added now go
	listItems(ctx context.Context, list *dest.List, d dest.Destination, scopes []string) ([]pickItem, error)
	loginWith(account string, scopes []string, then func(auth.Account))
}

// setupController is what the guided set-up asks of the window.
type setupController interface {
	frame
	googleSignIn() signIn
	clientImported() // Google sign-in was just set up
	login()          // signs in for the current destination
	// ask shows a file dialog and gives then the chosen paths.
	ask(o filechooser.Options, then func(paths []string))
}

// sandboxController is what the sandbox's panel asks of the window.
type sandboxController interface {
	frame
	destination() dest.Destination
}

// settingsController is what the settings ask of the window.
type settingsController interface {
	frame
	currentSettings() settings
	applySettings(s settings)
	journalPath() string
	networkWords() string
	reset()
}

// The panels' controllers are made of the window's small parts: the frame
// around the panels, the destination files go to, the Google side, the
// settings, the file dialogs, the actions on files and the removals.

// listSide is what the list asks of the window.
type listSide struct {
	*actions
	*thumbnails
	*removals
	selector
	opener
}

// opener opens and closes a mailbox's row.
type opener func(id engine.JobID)

func (f opener) openMailbox(id engine.JobID) { f(id) }

// selector makes a selection the window's.
type selector func(sel selection)

func (f selector) selectRows(sel selection) { f(sel) }

// footerSide is what the bar under the list asks of the window.
type footerSide struct {
	*actions
	*removals
}

// barSide is what the destination bar asks of the window.
type barSide struct {
	*windowFrame
	*target
	*googleSide
	*settingsSide
	filesAdder
}

// setupSide is what the guided set-up asks of the window.
type setupSide struct {
	*windowFrame
	*googleSide
	*fileDialogs
}

// sandboxSide is what the sandbox's panel asks of the window.
type sandboxSide struct {
	*windowFrame
	*target
}

// settingsPanelSide is what the settings' panel asks of the window.
type settingsPanelSide struct {
	*windowFrame
	*settingsSide
}

var (
	_ frame               = (*windowFrame)(nil)
	_ listController      = listSide{}
	_ footerController    = footerSide{}
	_ selectionController = (*actions)(nil)
	_ barController       = barSide{}
	_ setupController     = setupSide{}
	_ sandboxController   = sandboxSide{}
	_ settingsController  = settingsPanelSide{}
)
