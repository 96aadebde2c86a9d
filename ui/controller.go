package ui

import (
	"context"
	"encoding/json"
	"image"
	"maps"
	"reflect"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/filechooser"
)

// The window is made of panels: the destination bar (destbar.go, with the
// lists to choose from in pickers.go), the list and its rows (list.go,
// rows.go), the selection's panel (selection.go), the sandbox's panel
// (sandbox.go), the settings (settings.go) and the guided set-up of Google
// sign-in (setup.go). Each panel owns its widgets and what they show, and
// talks to one controller, the desk (window.go), through the small
// interface below that it needs; no panel reads another panel's fields or
// the desk's. The desk holds the queue, the destination files go to, the
// saved destinations, the sign-in service and the settings, and does the
// actions. Every method runs on the UI goroutine, except background's work.

// frame is what every panel may ask of the window around it.
type frame interface {
	window() fyne.Window
	open(dlg hideable)                  // shows a dialog that Escape closes
	fit(s fyne.Size) fyne.Size          // a dialog's size, no larger than the window
	tell(msg string)                    // a sentence at the top of the window
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
	resolveLabels(d dest.Destination, then func(ids string, err error))
	pickFiles()
	showSettings()
}

// pickerController is what a list to choose from asks of the window.
type pickerController interface {
	frame
	destination() dest.Destination // where files added now go
	listItems(ctx context.Context, kind listKind, d dest.Destination, scopes []string) ([]pickItem, error)
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
	reset()
}

// controller is the window's one controller: every panel's needs.
type controller interface {
	listController
	footerController
	selectionController
	barController
	pickerController
	setupController
	sandboxController
	settingsController
}

var _ controller = (*desk)(nil)

// The desk's side of the interfaces above.

func (d *desk) window() fyne.Window            { return d.win }
func (d *desk) copyText(text string)           { d.app.Clipboard().SetContent(text) }
func (d *desk) savedDestinations() presetStore { return d.presets }
func (d *desk) googleSignIn() signIn           { return d.auth }
func (d *desk) signInWait() time.Duration      { return d.settings.signInWait() }
func (d *desk) currentSettings() settings      { return d.settings }
func (d *desk) journalPath() string            { return d.journal }
func (d *desk) destination() dest.Destination  { return d.dest }

// setDestination makes to the destination of files added from now on, and
// keeps it for the next start. Another destination (not only another
// account) clears what was said of the last one.
func (d *desk) setDestination(to dest.Destination) {
	if to.Params == nil {
		to.Params = map[string]string{}
	}
	was := d.dest
	d.dest = to
	if raw, err := json.Marshal(to); err == nil {
		d.app.Preferences().SetString(prefDestination, string(raw))
	}
	if !sameButAccount(was, to) {
		d.destinationChanged()
	}
}

// sameButAccount reports whether a and b differ at most in their account
// (settings left empty and settings not given are the same).
func sameButAccount(a, b dest.Destination) bool {
	if !maps.Equal(a.Params, b.Params) {
		return false
	}
	a.Account, a.Params = b.Account, nil
	b.Params = nil
	return reflect.DeepEqual(a, b)
}

// loadDestination restores the last destination, or, in sandbox mode, the sandbox.
func (d *desk) loadDestination(sandbox bool) {
	d.dest = dest.SandboxDestination()
	if sandbox {
		return
	}
	if raw := d.app.Preferences().String(prefDestination); raw != "" {
		var saved dest.Destination
		if json.Unmarshal([]byte(raw), &saved) == nil && saved.Kind.Known() {
			d.dest = saved
		}
		return
	}
	// A first start: Gmail, or, with Google not set up yet, the offer to try the sandbox.
	d.dest = dest.Destination{Kind: dest.FirstGoogle()}
}

// login signs in for the current destination, through the destination bar.
func (d *desk) login() { d.bar.login() }

// loginWith signs account in for scopes, leaving the destination's account
// as it is unless it has none; then runs after the sign-in.
func (d *desk) loginWith(account string, scopes []string, then func(auth.Account)) {
	d.bar.loginWith(account, scopes, false, then)
}

// clientImported shows the sign-in controls now that Google sign-in is set up.
func (d *desk) clientImported() {
	d.bar.showCurrent()
	d.bar.refreshAccounts()
}
