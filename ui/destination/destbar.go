// Package destination is the bar where the user chooses where files go,
// with its forms and Google's lists to choose from, and Google's side
// behind it: sign-in and accounts, saved and the organisation's
// destinations, shared destinations and client files, and the guided
// set-up of Google sign-in. It asks the window for the rest through
// BarController (and, inside, its pickers' and set-up's smaller interfaces).
package destination

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// PresetStore keeps the user's saved destinations.
type PresetStore interface {
	List() []dest.Destination
	Put(d dest.Destination) error
	Delete(name string) error
}

// SignIn is what the window needs of Google sign-in.
type SignIn interface {
	HasClient() bool
	ImportClientSecret(path string) error
	Accounts(ctx context.Context) ([]auth.Account, error)
	Login(ctx context.Context, scopes []string, opts ...auth.LoginOption) (auth.Account, error)
	Logout(ctx context.Context, account string) error
}

// DestBar is the strip at the top of the window: where dropped files go,
// with which Google account.
type DestBar struct {
	Host BarController

	Choices []dest.Destination // what the picker offers, in its order

	Picker     *widgets.Select
	edit       *widgets.Button
	Accounts   *widgets.Select
	SignIn     *widgets.Button
	SignOut    *widgets.Button
	note       *widgets.Label  // "The sandbox needs no account."
	InFile     *widget.Label   // the chosen account's sign-in is kept in a file
	accountRow *fyne.Container // the account picker and sign-in buttons
	Setup      *fyne.Container
	Add        *widgets.Button // "Add files…"
	Settings   *widgets.Button
	Content    fyne.CanvasObject

	known    []string        // signed-in accounts
	lessSafe map[string]bool // accounts whose sign-in is kept in a file
	session  map[string]bool // accounts whose sign-in is kept until Hoist quits
}

const PrefDestination = "destination"

func NewDestBar(d BarController) *DestBar {
	b := &DestBar{Host: d}
	b.Picker = widgets.NewSelect(nil, b.picked)
	b.Picker.PlaceHolder = view.Visual(view.Say("ui.dest.choose"))
	b.edit = widgets.NewIconButton(view.Visual(view.Say("ui.dest.options")), theme.DocumentCreateIcon(), func() { b.ShowForm(b.Host.Destination(), false) })
	b.Accounts = widgets.NewSelect(nil, func(email string) {
		if email != "" && email != b.Host.Destination().Account {
			b.setAccount(email)
		}
		b.showFileNote()
	})
	b.Accounts.PlaceHolder = view.Visual(view.Say("ui.account.none"))
	b.SignIn = widgets.NewIconButton(view.Visual(view.Say("ui.signIn")), theme.LoginIcon(), b.Login)
	b.SignIn.Importance = widget.HighImportance
	b.SignOut = widgets.NewIconButton(view.Visual(view.Say("ui.signOut")), theme.LogoutIcon(), b.logout)
	b.note = widgets.NewWholeLabel(view.Say("ui.sandbox.noAccount"))
	b.note.ColorName = theme.ColorNamePlaceHolder
	b.InFile = widget.NewLabel(view.Visual(view.Say("ui.account.inFile")))
	b.InFile.Importance = widget.WarningImportance
	b.InFile.Hide()

	try := widgets.NewIconButton(view.Visual(view.Say("ui.sandbox.try")), theme.MediaPlayIcon(), func() {
		b.Choose(dest.SandboxDestination())
	})
	try.Importance = widget.HighImportance
	importClient := widgets.NewButton(view.Visual(view.Say("ui.setup.open")), b.importClient)
	b.Setup = container.NewVBox(
		widgets.NewParagraph(view.Say("ui.setup.notYet")),
		widgets.Flow(fyne.TextAlignLeading, try, importClient),
	)
	b.Setup.Hide()
	b.Add = widgets.NewIconButton(view.Visual(view.Say("ui.add.files")), theme.ContentAddIcon(), d.PickFiles)
	b.Add.Importance = widget.HighImportance
	b.Settings = widgets.NewIconButton(view.Visual(view.Say("ui.settings")), theme.SettingsIcon(), d.ShowSettings)
	// Both lines wrap in a narrow window (a small screen, a large scale)
	// rather than make it scroll sideways.
	b.accountRow = widgets.Flow(fyne.TextAlignLeading, widget.NewLabel(view.Visual(view.Say("ui.account"))), b.Accounts, b.InFile, b.SignIn, b.SignOut, b.note)

	b.Content = container.NewVBox(
		widgets.Fold(widget.NewLabel(view.Visual(view.Say("ui.dest.sendTo"))), b.Picker, widgets.Flow(fyne.TextAlignTrailing, b.edit, b.Add, b.Settings)),
		b.accountRow,
		b.Setup,
	)
	return b
}

// Load lists the choices and the signed-in accounts.
func (b *DestBar) Load() {
	b.RefreshChoices()
	b.refreshAccounts()
}

// setAccount makes email the account of the current destination.
func (b *DestBar) setAccount(email string) {
	cur := b.Host.Destination()
	cur.Account = email
	b.Host.SetDestination(cur)
}

// RefreshChoices lists saved destinations first, then every kind.
func (b *DestBar) RefreshChoices() {
	b.Choices = b.Choices[:0]
	if ps := b.Host.SavedDestinations(); ps != nil {
		b.Choices = append(b.Choices, ps.List()...)
	}
	for _, k := range dest.Kinds() {
		b.Choices = append(b.Choices, dest.Destination{Kind: k.Kind})
	}
	labels := make([]string, len(b.Choices))
	for i, c := range b.Choices {
		labels[i] = b.choiceLabel(c)
	}
	b.Picker.SetOptions(labels)
	b.showCurrent()
}

func (b *DestBar) choiceLabel(d dest.Destination) string {
	if b.Host.Managed(d.Name) {
		return view.Visual(view.Say("ui.dest.managed", "Name", view.Isolate(view.DestTitle(d))))
	}
	if strings.TrimSpace(d.Name) != "" {
		return view.Visual(view.Say("ui.dest.saved", "Name", view.Isolate(view.DestTitle(d))))
	}
	return view.Visual(view.DestTitle(d))
}

// showCurrent puts the current destination on the picker and shows the
// account controls it needs.
func (b *DestBar) showCurrent() {
	current := b.Host.Destination()
	label := b.choiceLabel(current)
	if !slices.Contains(b.Picker.Options, label) {
		b.Picker.SetOptions(append(slices.Clone(b.Picker.Options), label))
	}
	if b.Picker.Selected != label {
		b.Picker.SetSelected(label)
	}
	needs := current.NeedsAuth()
	service := b.Host.GoogleSignIn()
	hasClient := service != nil && service.HasClient()
	for _, o := range []fyne.CanvasObject{b.Accounts, b.SignIn, b.SignOut} {
		if needs && hasClient {
			o.Show()
		} else {
			o.Hide()
		}
	}
	if len(b.known) == 0 {
		b.SignOut.Hide()
	}
	if needs {
		b.note.Hide()
	} else {
		b.note.Show()
	}
	if needs && !hasClient {
		b.Setup.Show()
		b.accountRow.Hide()
	} else {
		b.Setup.Hide()
		b.accountRow.Show()
	}
	if current.Account != "" && b.Accounts.Selected != current.Account {
		b.Accounts.SetSelected(current.Account)
	}
	b.showFileNote()
}

// showFileNote says when the chosen account's sign-in is kept in a file
// (there was no keychain), which is less safe.
func (b *DestBar) showFileNote() {
	switch {
	case b.Accounts.Visible() && b.lessSafe[b.Accounts.Selected]:
		b.InFile.SetText(view.Visual(view.Say("ui.account.inFile")))
		b.InFile.Show()
	case b.Accounts.Visible() && b.session[b.Accounts.Selected]:
		b.InFile.SetText(view.Visual(view.Say("ui.account.thisSession")))
		b.InFile.Show()
	default:
		b.InFile.Hide()
	}
}

// picked is the picker's choice; kinds with settings to fill in open the form.
func (b *DestBar) picked(label string) {
	current := b.Host.Destination()
	if label == b.choiceLabel(current) {
		return
	}
	for _, c := range b.Choices {
		if b.choiceLabel(c) != label {
			continue
		}
		if c.Account == "" {
			c.Account = current.Account
		}
		if c.Validate() != nil {
			b.ShowForm(c, true)
			b.showCurrent() // until the form is saved, the old choice stands
			return
		}
		b.Choose(c)
		return
	}
}

// Choose makes d the destination of files added from now on.
func (b *DestBar) Choose(d dest.Destination) {
	if d.Params == nil {
		d.Params = map[string]string{}
	}
	b.Host.SetDestination(d)
	b.showCurrent()
}

// ShowForm opens the settings of d with checks as the user types. With
// choosing set, saving the form also makes d the current destination.
func (b *DestBar) ShowForm(d dest.Destination, choosing bool) {
	f := newDestForm(b, d)
	f.addName()
	for _, field := range d.Kind.Info().Fields {
		f.addField(field)
	}
	f.Open(choosing)
}

// refreshAccounts asks the keychain for signed-in accounts off the UI goroutine.
func (b *DestBar) refreshAccounts() {
	service := b.Host.GoogleSignIn()
	if service == nil || !service.HasClient() {
		b.showCurrent()
		return
	}
	b.Host.Background(func(ctx context.Context) {
		list, err := service.Accounts(ctx)
		b.Host.Later(func() {
			if err != nil {
				b.Host.Tell(view.Say("ui.account.unreadable", "Why", view.ErrorWords(err)))
			}
			b.known = b.known[:0]
			b.lessSafe = make(map[string]bool)
			b.session = make(map[string]bool)
			for _, a := range list {
				b.known = append(b.known, a.Email)
				b.lessSafe[a.Email] = a.LessSafe
				b.session[a.Email] = a.ThisSession
			}
			b.Accounts.SetOptions(b.known)
			if b.Host.Destination().Account == "" && len(b.known) > 0 {
				b.setAccount(b.known[0])
			}
			b.showCurrent()
		})
	})
}

// Login signs an account in through the browser, for the current
// destination's scopes. An account already signed in is asked only for
// what it lacks. Without a keychain, the user may choose a file instead.
func (b *DestBar) Login() {
	current := b.Host.Destination()
	b.LoginWith(current.Account, current.Scopes(), true, nil)
}

// SignInFor signs a job's account in again, for its destination's scopes;
// the account's uploads that waited for it then go on. Without a client,
// it opens the guided set-up first.
func (b *DestBar) SignInFor(v engine.JobView) {
	if a := b.Host.GoogleSignIn(); a != nil && !a.HasClient() {
		b.Host.ShowSetup()
		return
	}
	b.LoginWith(v.Account, v.Scopes, false, nil)
}

// LoginWith signs account in for scopes; with adopt set (or no account
// chosen yet) the account becomes the destination's. The account's uploads
// that waited for a sign-in go on; then, if set, runs after the sign-in.
func (b *DestBar) LoginWith(account string, scopes []string, adopt bool, then func(auth.Account), extra ...auth.LoginOption) {
	signIn := b.Host.GoogleSignIn()
	if signIn == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background()) // the dialog's Cancel ends it, and so does closing the window
	waiting := container.NewVBox(widgets.NewParagraph(view.Say("ui.signIn.wait")))
	wait := dialog.NewCustom(view.Say("ui.signIn"),
		view.Visual(view.Speaking().Action("cancel")),
		waiting,
		b.Host.Window())
	wait.SetOnClosed(cancel)
	b.Host.Open(wait)
	opts := append([]auth.LoginOption{
		auth.ShowingURL(func(url string) {
			b.Host.Later(func() {
				b.showAddress(waiting, url)
				wait.Resize(wait.MinSize())
			})
		}),
		auth.WaitingAtMost(b.Host.WaitForSignIn()),
	}, extra...)
	if account != "" && slices.Contains(b.known, account) {
		opts = append(opts, auth.ForAccount(account))
	}
	b.Host.Background(func(window context.Context) {
		defer context.AfterFunc(window, cancel)()
		acct, err := signIn.Login(ctx, scopes, opts...)
		cancel()
		b.Host.Later(func() {
			wait.Hide()
			switch {
			case (errors.Is(err, auth.ErrNoKeychain) || errors.Is(err, auth.ErrKeychainLocked)) && len(extra) == 0:
				b.offerPlaces(err, account, scopes, adopt, then)
				return
			case errors.Is(err, context.Canceled):
				return
			case err != nil:
				b.Host.Tell(view.ErrorWords(err))
				return
			}
			if adopt || b.Host.Destination().Account == "" {
				b.setAccount(acct.Email)
			}
			b.refreshAccounts()
			b.Host.SignedIn(acct.Email)
			if then != nil {
				then(acct)
			}
		})
	})
}

// showAddress gives, in the waiting dialog's box, the sign-in page's
// address to open by hand, when no browser could be opened: the dialog no
// longer says the browser shows it.
func (b *DestBar) showAddress(box *fyne.Container, url string) {
	address := widget.NewEntry()
	address.SetText(url)
	address.OnChanged = func(string) { address.SetText(url) } // read-only, yet selectable
	copyButton := widgets.NewIconButton(view.Visual(view.Say("ui.address.copy")), theme.ContentCopyIcon(), func() {
		b.Host.CopyText(url)
	})
	box.Objects = []fyne.CanvasObject{
		widgets.NewWholeLabel(view.Say("ui.address.title")),
		widgets.NewParagraph(view.Say("ui.address.hint")),
		address,
		copyButton,
	}
	box.Refresh()
}

func (b *DestBar) logout() {
	account := b.Accounts.Selected
	signIn := b.Host.GoogleSignIn()
	if signIn == nil || account == "" {
		return
	}
	b.Host.Open(widgets.NewSentenceQuestion(view.Say("ui.signOut.title"), view.Say("ui.signOut.question", "Account", view.Isolate(account)),
		func(yes bool) {
			if !yes {
				return
			}
			b.Host.Background(func(ctx context.Context) {
				err := signIn.Logout(ctx, account)
				b.Host.Later(func() {
					if err != nil {
						b.Host.Tell(view.ErrorWords(err))
					}
					if b.Host.Destination().Account == account {
						b.Accounts.ClearSelected()
						b.setAccount("")
					}
					b.refreshAccounts()
				})
			})
		}, b.Host.Window()))
}

// importClient opens the guided set-up of Google sign-in (setup.go).
func (b *DestBar) importClient() {
	if b.Host.GoogleSignIn() == nil {
		return
	}
	b.Host.ShowSetup()
}

// BarController is what the destination bar, its forms and Google's lists
// ask of the window.
type BarController interface {
	pickerController
	SetDestination(d dest.Destination) // files added from now on go to d; kept for the next start
	SavedDestinations() PresetStore    // nil without
	Managed(name string) bool          // the destination is the organisation's
	GoogleSignIn() SignIn              // nil without sign-in
	WaitForSignIn() time.Duration      // how long a sign-in in the browser may take
	SignedIn(account string)           // the account's waiting uploads go on
	ShowSetup()
	FormExtras(d dest.Destination) fyne.CanvasObject
	ResolveNames(d dest.Destination, then func(resolved dest.Destination, err error))
	PickFiles()
	ShowSettings()
}
