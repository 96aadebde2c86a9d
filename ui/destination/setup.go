package destination

import (
	"path/filepath"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/ui/dialogs"
	"hoist/ui/view"
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
	Host        setupController
	Dialog      dialog.Dialog
	Content     fyne.CanvasObject
	steps       *fyne.Container // all but the buttons: what scrolls
	Buttons     fyne.CanvasObject
	Status      *widgets.Paragraph
	Choose      *widgets.Button
	SignIn      *widgets.Button
	CloseButton *widgets.Button
	Ready       bool // a good client file was imported
}

// ShowSetup opens the guided set-up, or brings it back when it is open.
func (g *GoogleSide) ShowSetup() {
	if g.Setup != nil {
		g.Setup.Dialog.Show()
		return
	}
	p := NewSetupPanel(SetupSide{g.Frame, g, g.Dialogs})
	g.Setup = p
	// Sign in and Close stay under the steps, which scroll where the window
	// is low (200 % on a small laptop): they were below the dialog's edge,
	// with nothing to say that it scrolls.
	body := widgets.Border(nil, p.Buttons, nil, nil, g.Frame.Scrolled(p.steps))
	p.Dialog = dialog.NewCustomWithoutButtons(view.Say("ui.setup.title"), body, g.Frame.Win)
	p.Dialog.SetOnClosed(func() { g.Setup = nil })
	p.Dialog.Resize(g.Frame.Fit(fyne.NewSize(640, 600)))
	g.Frame.Open(p.Dialog)
}

func NewSetupPanel(d setupController) *setupPanel {
	p := &setupPanel{Host: d}
	intro := widgets.NewParagraph(view.Say("ui.setup.intro"))
	rows := []fyne.CanvasObject{intro}
	for i, s := range setupSteps {
		text := widgets.NewParagraph(view.Say("ui.setup.step", "N", view.Speaking().Digits(strconv.Itoa(i+1)), "Text", view.Speaking().Say(s.text, words.Args{"APIs": view.Speaking().APIs()})))
		rows = append(rows, text)
		if s.address != "" {
			rows = append(rows, p.addressLine(s.address))
		}
	}
	p.Status = widgets.NewParagraph(view.Say("ui.setup.noFile"))
	p.Choose = widgets.NewIconButton(view.Visual(view.Say("ui.setup.choose")), theme.FolderOpenIcon(), p.Pick)
	p.SignIn = widgets.NewIconButton(view.Visual(view.Say("ui.signIn")), theme.LoginIcon(), p.finish)
	p.SignIn.Importance = widget.HighImportance
	p.SignIn.Disable()
	p.CloseButton = widgets.NewButton(view.Visual(view.Say("ui.close")), func() { p.Dialog.Hide() })
	rows = append(rows,
		widgets.Row(p.Choose),
		p.Status,
	)
	p.steps = container.NewVBox(rows...)
	p.Buttons = widgets.Row(p.SignIn, p.CloseButton)
	p.Content = container.NewVBox(p.steps, p.Buttons) // the panel whole, as where it fits
	return p
}

// addressLine shows an address to open or copy.
func (p *setupPanel) addressLine(address string) fyne.CanvasObject {
	shown := widget.NewLabel(address)
	shown.TextStyle = fyne.TextStyle{Monospace: true}
	copyButton := widgets.NewIconButton(view.Visual(view.Say("ui.copy")), theme.ContentCopyIcon(), func() {
		p.Host.CopyText(address)
		p.Status.SetText(view.Say("ui.setup.copied", "Address", view.Isolate(address)))
	})
	open := widgets.NewIconButton(view.Visual(view.Say("ui.open")), theme.ComputerIcon(), func() {
		if err := auth.OpenSystemBrowser(address); err != nil {
			p.Status.SetText(view.Say("ui.setup.noBrowser"))
		}
	})
	copyButton.Importance, open.Importance = widget.LowImportance, widget.LowImportance
	return widgets.Border(nil, nil, nil, widgets.Row(copyButton, open), shown)
}

// Pick chooses the downloaded file with the system's file dialog (or
// Hoist's own), which offers JSON files and opens in Downloads.
func (p *setupPanel) Pick() {
	p.Host.AskFiles(filechooser.Options{
		Title:   view.Say("ui.pick.client"),
		Folder:  filechooser.PlaceOf(filechooser.Downloads),
		Filters: []filechooser.Filter{{Name: view.Say("ui.pick.clientKind"), Patterns: []string{"*.json"}}},
	}, func(paths []string) { p.take(paths[0]) })
}

// take checks the file and, when it is a desktop app's client, imports it.
func (p *setupPanel) take(path string) {
	name := filepath.Base(path)
	if err := auth.CheckClientFile(path); err != nil {
		p.Ready = false
		p.SignIn.Disable()
		p.Status.ColorName = theme.ColorNameError
		p.Status.SetText(view.Say("ui.setup.badFile", "File", view.Isolate(name), "Why", view.Sentence(view.ErrorWords(err))))
		return
	}
	if err := p.Host.GoogleSignIn().ImportClientSecret(path); err != nil {
		p.Status.ColorName = theme.ColorNameError
		p.Status.SetText(view.Sentence(view.ErrorWords(err)))
		return
	}
	p.Ready = true
	p.Status.ColorName = theme.ColorNameSuccess
	p.Status.SetText(view.Say("ui.setup.ready", "File", view.Isolate(name)))
	p.SignIn.Enable()
	p.Host.ClientImported()
}

// finish signs in; the panel closes once the browser is on its way.
func (p *setupPanel) finish() {
	if !p.Ready {
		return
	}
	p.Dialog.Hide()
	p.Host.Login()
}

// setupController is what the guided set-up asks of the window.
type setupController interface {
	view.Frame
	GoogleSignIn() SignIn
	ClientImported() // Google sign-in was just set up
	Login()          // signs in for the current destination
	// AskFiles shows a file dialog and gives then the chosen paths.
	AskFiles(o filechooser.Options, then func(paths []string))
}

// SetupSide is what the guided set-up asks of the window.
type SetupSide struct {
	*view.WindowFrame
	*GoogleSide
	*dialogs.FileDialogs
}

var _ setupController = SetupSide{}
