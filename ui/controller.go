package ui

import (
	"hoist/engine"
	"hoist/ui/destination"
	"hoist/ui/dialogs"
	"hoist/ui/queuelist"
	"hoist/ui/received"
	"hoist/ui/settings"
	"hoist/ui/view"
)

// The window is made of panels, each in a package of its own: the
// destination bar with Google's side, its lists to choose from and the guided
// set-up (ui/destination), the list, its rows, the selection's panel and the
// bar under it (ui/queuelist), the sandbox's received list (ui/received) and
// the settings (ui/settings). Each panel owns its widgets and draws what the
// latest snapshot says (ui/view); it asks the window for the rest through
// the small interface of its own package that it needs (its intents), and
// reads no other panel's fields. The desk (window.go) builds the panels and
// routes between them; what they ask for is done by small parts: the frame
// around the panels (view.WindowFrame), the destination (destination.Target),
// the Google side (destination.GoogleSide), the settings
// (settings.SettingsSide), the file dialogs (ui/dialogs), the actions on
// files (actions.go), the removals (view.Removals) and the way out
// (closing.go). Every method runs on the UI goroutine, except background's
// work.

// The panels' controllers are made of the window's small parts: the frame
// around the panels, the destination files go to, the Google side, the
// settings, the file dialogs, the actions on files and the removals.

// listSide is what the list asks of the window.
type listSide struct {
	*actions
	*queuelist.Thumbnails
	*view.Removals
	selector
	opener
}

// opener opens and closes a mailbox's row.
type opener func(id engine.JobID)

func (f opener) OpenMailbox(id engine.JobID) { f(id) }

// selector makes a selection the window's.
type selector func(sel view.Selection)

func (f selector) SelectRows(sel view.Selection) { f(sel) }

// footerSide is what the bar under the list asks of the window.
type footerSide struct {
	*actions
	*view.Removals
}

// barSide is what the destination bar asks of the window.
type barSide struct {
	*view.WindowFrame
	*destination.Target
	*destination.GoogleSide
	*settings.SettingsSide
	dialogs.FilesAdder
}

// sandboxSide is what the sandbox's panel asks of the window.
type sandboxSide struct {
	*view.WindowFrame
	*destination.Target
}

var (
	_ queuelist.ListController      = listSide{}
	_ queuelist.FooterController    = footerSide{}
	_ queuelist.SelectionController = (*actions)(nil)
	_ destination.BarController     = barSide{}
	_ received.SandboxController    = sandboxSide{}
)
