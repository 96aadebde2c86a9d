package ui

import (
	"path/filepath"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
	"hoist/words"
)

// setupStep is one step of the guided set-up: what to do, and where.
type setupStep struct {
	text    string
	address string // to open or copy; "" for none
}

// setupSteps are the Google Cloud Console steps, in plain words.
var setupSteps = []setupStep{
	{"ui.setup.step1",
		"https://console.cloud.google.com/projectcreate"},
	{"ui.setup.step2",
		"https://console.cloud.google.com/apis/library"},
	{"ui.setup.step3",
		"https://console.cloud.google.com/auth/branding"},
	{"ui.setup.step4",
		"https://console.cloud.google.com/auth/clients"},
	{"ui.setup.step5", ""},
}

// setupPanel guides whoever sets Google sign-in up: the steps in Google
// Cloud Console, the downloaded file by drop or by choosing, its check,
// and the sign-in that ends it.
type setupPanel struct {
	d           setupController
	dlg         dialog.Dialog
	content     fyne.CanvasObject
	steps       *fyne.Container // all but the buttons: what scrolls
	buttons     fyne.CanvasObject
	status      *widgets.Paragraph
	choose      *widgets.Button
	signIn      *widgets.Button
	closeButton *widgets.Button
	ready       bool // a good client file was imported
}

// showSetup opens the guided set-up, or brings it back when it is open.
func (g *googleSide) showSetup() {
	if g.setup != nil {
		g.setup.dlg.Show()
		return
	}
	p := newSetupPanel(setupSide{g.frame, g, g.dialogs})
	g.setup = p
	// Sign in and Close stay under the steps, which scroll where the window
	// is low (200 % on a small laptop): they were below the dialog's edge,
	// with nothing to say that it scrolls.
	body := widgets.Border(nil, p.buttons, nil, nil, g.frame.scrolled(p.steps))
	p.dlg = dialog.NewCustomWithoutButtons(say("ui.setup.title"), body, g.frame.win)
	p.dlg.SetOnClosed(func() { g.setup = nil })
	p.dlg.Resize(g.frame.fit(fyne.NewSize(640, 600)))
	g.frame.open(p.dlg)
}

func newSetupPanel(d setupController) *setupPanel {
	p := &setupPanel{d: d}
	intro := widgets.NewParagraph(say("ui.setup.intro"))
	rows := []fyne.CanvasObject{intro}
	for i, s := range setupSteps {
		text := widgets.NewParagraph(say("ui.setup.step", "N", speaking().Digits(strconv.Itoa(i+1)), "Text", speaking().Say(s.text, words.Args{"APIs": speaking().APIs()})))
		rows = append(rows, text)
		if s.address != "" {
			rows = append(rows, p.addressLine(s.address))
		}
	}
	p.status = widgets.NewParagraph(say("ui.setup.noFile"))
	p.choose = widgets.NewIconButton(visual(say("ui.setup.choose")), theme.FolderOpenIcon(), p.pick)
	p.signIn = widgets.NewIconButton(visual(say("ui.signIn")), theme.LoginIcon(), p.finish)
	p.signIn.Importance = widget.HighImportance
	p.signIn.Disable()
	p.closeButton = widgets.NewButton(visual(say("ui.close")), func() { p.dlg.Hide() })
	rows = append(rows,
		widgets.Row(p.choose),
		p.status,
	)
	p.steps = container.NewVBox(rows...)
	p.buttons = widgets.Row(p.signIn, p.closeButton)
	p.content = container.NewVBox(p.steps, p.buttons) // the panel whole, as where it fits
	return p
}

// addressLine shows an address to open or copy.
func (p *setupPanel) addressLine(address string) fyne.CanvasObject {
	shown := widget.NewLabel(address)
	shown.TextStyle = fyne.TextStyle{Monospace: true}
	copyButton := widgets.NewIconButton(visual(say("ui.copy")), theme.ContentCopyIcon(), func() {
		p.d.copyText(address)
		p.status.SetText(say("ui.setup.copied", "Address", isolate(address)))
	})
	open := widgets.NewIconButton(visual(say("ui.open")), theme.ComputerIcon(), func() {
		if err := auth.OpenSystemBrowser(address); err != nil {
			p.status.SetText(say("ui.setup.noBrowser"))
		}
	})
	copyButton.Importance, open.Importance = widget.LowImportance, widget.LowImportance
	return widgets.Border(nil, nil, nil, widgets.Row(copyButton, open), shown)
}

// pick chooses the downloaded file with the system's file dialog (or
// Hoist's own), which offers JSON files and opens in Downloads.
func (p *setupPanel) pick() {
	p.d.ask(filechooser.Options{
		Title:   say("ui.pick.client"),
		Folder:  filechooser.PlaceOf(filechooser.Downloads),
		Filters: []filechooser.Filter{{Name: say("ui.pick.clientKind"), Patterns: []string{"*.json"}}},
	}, func(paths []string) { p.take(paths[0]) })
}

// take checks the file and, when it is a desktop app's client, imports it.
func (p *setupPanel) take(path string) {
	name := filepath.Base(path)
	if err := auth.CheckClientFile(path); err != nil {
		p.ready = false
		p.signIn.Disable()
		p.status.ColorName = theme.ColorNameError
		p.status.SetText(say("ui.setup.badFile", "File", isolate(name), "Why", sentence(errorWords(err))))
		return
	}
	if err := p.d.googleSignIn().ImportClientSecret(path); err != nil {
		p.status.ColorName = theme.ColorNameError
		p.status.SetText(sentence(errorWords(err)))
		return
	}
	p.ready = true
	p.status.ColorName = theme.ColorNameSuccess
	p.status.SetText(say("ui.setup.ready", "File", isolate(name)))
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

// setupController is what the guided set-up asks of the window.
type setupController interface {
	frame
	googleSignIn() signIn
	clientImported() // Google sign-in was just set up
	login()          // signs in for the current destination
	// ask shows a file dialog and gives then the chosen paths.
	ask(o filechooser.Options, then func(paths []string))
}

// setupSide is what the guided set-up asks of the window.
type setupSide struct {
	*windowFrame
	*googleSide
	*fileDialogs
}

var _ setupController = setupSide{}
