package ui

import (
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
)

// setupStep is one step of the guided set-up: what to do, and where.
type setupStep struct {
	text    string
	address string // to open or copy; "" for none
}

// setupSteps are the Google Cloud Console steps, in plain words.
var setupSteps = []setupStep{
	{"Open Google Cloud Console and create a project (or choose one of your organisation's).",
		"https://console.cloud.google.com/projectcreate"},
	{"Turn on the APIs you will send to: Gmail API, Campaign Manager 360 API, Google Drive API or YouTube Data API v3.",
		"https://console.cloud.google.com/apis/library"},
	{"Set up the consent screen: name it Hoist and, for a Google Workspace organisation, choose the audience \u201cInternal\u201d.",
		"https://console.cloud.google.com/auth/branding"},
	{"Create a client: Create client \u2192 Application type \u201cDesktop app\u201d \u2192 Create \u2192 Download JSON.",
		"https://console.cloud.google.com/auth/clients"},
	{"Drop the downloaded file (client_secret_\u2026.json) on this window, or choose it.", ""},
}

// setupPanel guides whoever sets Google sign-in up: the steps in Google
// Cloud Console, the downloaded file by drop or by choosing, its check,
// and the sign-in that ends it.
type setupPanel struct {
	d       setupController
	dlg     dialog.Dialog
	content fyne.CanvasObject
	status  *widget.Label
	choose  *widget.Button
	signIn  *widget.Button
	ready   bool // a good client file was imported
}

// showSetup opens the guided set-up, or brings it back when it is open.
func (d *desk) showSetup() {
	if d.setup != nil {
		d.setup.dlg.Show()
		return
	}
	p := newSetupPanel(d)
	d.setup = p
	p.dlg = dialog.NewCustomWithoutButtons("Set up Google sign-in", d.scrolled(p.content), d.win)
	p.dlg.SetOnClosed(func() { d.setup = nil })
	p.dlg.Resize(d.fit(fyne.NewSize(640, 600)))
	d.open(p.dlg)
}

func newSetupPanel(d setupController) *setupPanel {
	p := &setupPanel{d: d}
	intro := widget.NewLabel("This is done once per organisation, by whoever looks after Google there. " +
		"Afterwards, everyone signs in with one click. An administrator can also set Hoist up for every computer at once (see docs/administrators.md).")
	intro.Wrapping = fyne.TextWrapWord
	rows := []fyne.CanvasObject{intro}
	for i, s := range setupSteps {
		text := widget.NewLabel(fmt.Sprintf("%d. %s", i+1, s.text))
		text.Wrapping = fyne.TextWrapWord
		rows = append(rows, text)
		if s.address != "" {
			rows = append(rows, p.addressLine(s.address))
		}
	}
	p.status = widget.NewLabel("No file yet.")
	p.status.Wrapping = fyne.TextWrapWord
	p.choose = widget.NewButtonWithIcon("Choose the file\u2026", theme.FolderOpenIcon(), p.pick)
	p.signIn = widget.NewButtonWithIcon("Sign in with Google", theme.LoginIcon(), p.finish)
	p.signIn.Importance = widget.HighImportance
	p.signIn.Disable()
	closeButton := widget.NewButton("Close", func() { p.dlg.Hide() })
	rows = append(rows,
		container.NewHBox(p.choose),
		p.status,
		container.NewHBox(p.signIn, closeButton),
	)
	p.content = container.NewVBox(rows...)
	return p
}

// addressLine shows an address to open or copy.
func (p *setupPanel) addressLine(address string) fyne.CanvasObject {
	shown := widget.NewLabel(address)
	shown.TextStyle = fyne.TextStyle{Monospace: true}
	copyButton := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		p.d.copyText(address)
		p.status.SetText("Copied " + address + ". Paste it into your browser.")
	})
	open := widget.NewButtonWithIcon("Open", theme.ComputerIcon(), func() {
		if err := auth.OpenSystemBrowser(address); err != nil {
			p.status.SetText("Hoist could not open the browser. Copy the address and open it by hand.")
		}
	})
	copyButton.Importance, open.Importance = widget.LowImportance, widget.LowImportance
	return container.NewBorder(nil, nil, nil, container.NewHBox(copyButton, open), shown)
}

// pick chooses the downloaded file with the file dialog.
func (p *setupPanel) pick() {
	open := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		_ = r.Close()
		p.take(path)
	}, p.d.window())
	open.SetFilter(storage.NewExtensionFileFilter([]string{".json"}))
	open.Resize(fyne.NewSize(800, 560))
	open.Show()
}

// take checks the file and, when it is a desktop app's client, imports it.
func (p *setupPanel) take(path string) {
	name := filepath.Base(path)
	if err := auth.CheckClientFile(path); err != nil {
		p.ready = false
		p.signIn.Disable()
		p.status.Importance = widget.DangerImportance
		p.status.SetText(name + ": " + sentence(err.Error()))
		return
	}
	if err := p.d.googleSignIn().ImportClientSecret(path); err != nil {
		p.status.Importance = widget.DangerImportance
		p.status.SetText(sentence(err.Error()))
		return
	}
	p.ready = true
	p.status.Importance = widget.SuccessImportance
	p.status.SetText(name + " is a desktop app's client: Google sign-in is set up. Sign in to finish.")
	p.signIn.Enable()
	p.d.clientImported()
}

// finish signs in; the panel closes once the browser is on its way.
func (p *setupPanel) finish() {
	if !p.ready {
		return
	}
	p.dlg.Hide()
	p.d.login()
}
