package ui

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
	"hoist/ui/widgets"
)

// presetStore keeps the user's saved destinations.
type presetStore interface {
	List() []dest.Destination
	Put(d dest.Destination) error
	Delete(name string) error
}

// signIn is what the window needs of Google sign-in.
type signIn interface {
	HasClient() bool
	ImportClientSecret(path string) error
	Accounts(ctx context.Context) ([]auth.Account, error)
	Login(ctx context.Context, scopes []string, opts ...auth.LoginOption) (auth.Account, error)
	Logout(ctx context.Context, account string) error
}

// destBar is the strip at the top of the window: where dropped files go,
// with which Google account.
type destBar struct {
	d barController

	choices []dest.Destination // what the picker offers, in its order

	picker     *widgets.Select
	edit       *widgets.Button
	accounts   *widgets.Select
	signIn     *widgets.Button
	signOut    *widgets.Button
	note       *widgets.Label  // "The sandbox needs no account."
	inFile     *widget.Label   // the chosen account's sign-in is kept in a file
	accountRow *fyne.Container // the account picker and sign-in buttons
	setup      *fyne.Container
	add        *widgets.Button // "Add files…"
	settings   *widgets.Button
	content    fyne.CanvasObject

	known    []string        // signed-in accounts
	lessSafe map[string]bool // accounts whose sign-in is kept in a file
	session  map[string]bool // accounts whose sign-in is kept until Hoist quits
}

const prefDestination = "destination"

func newDestBar(d barController) *destBar {
	b := &destBar{d: d}
	b.picker = widgets.NewSelect(nil, b.picked)
	b.picker.PlaceHolder = visual(say("ui.dest.choose"))
	b.edit = widgets.NewIconButton(visual(say("ui.dest.options")), theme.DocumentCreateIcon(), func() { b.showForm(b.d.destination(), false) })
	b.accounts = widgets.NewSelect(nil, func(email string) {
		if email != "" && email != b.d.destination().Account {
			b.setAccount(email)
		}
		b.showFileNote()
	})
	b.accounts.PlaceHolder = visual(say("ui.account.none"))
	b.signIn = widgets.NewIconButton(visual(say("ui.signIn")), theme.LoginIcon(), b.login)
	b.signIn.Importance = widget.HighImportance
	b.signOut = widgets.NewIconButton(visual(say("ui.signOut")), theme.LogoutIcon(), b.logout)
	b.note = widgets.NewWholeLabel(say("ui.sandbox.noAccount"))
	b.note.ColorName = theme.ColorNamePlaceHolder
	b.inFile = widget.NewLabel(visual(say("ui.account.inFile")))
	b.inFile.Importance = widget.WarningImportance
	b.inFile.Hide()

	try := widgets.NewIconButton(visual(say("ui.sandbox.try")), theme.MediaPlayIcon(), func() {
		b.choose(dest.SandboxDestination())
	})
	try.Importance = widget.HighImportance
	importClient := widgets.NewButton(visual(say("ui.setup.open")), b.importClient)
	b.setup = container.NewVBox(
		widgets.NewParagraph(say("ui.setup.notYet")),
		widgets.Flow(fyne.TextAlignLeading, try, importClient),
	)
	b.setup.Hide()
	b.add = widgets.NewIconButton(visual(say("ui.add.files")), theme.ContentAddIcon(), d.pickFiles)
	b.add.Importance = widget.HighImportance
	b.settings = widgets.NewIconButton(visual(say("ui.settings")), theme.SettingsIcon(), d.showSettings)
	// Both lines wrap in a narrow window (a small screen, a large scale)
	// rather than make it scroll sideways.
	b.accountRow = widgets.Flow(fyne.TextAlignLeading, widget.NewLabel(visual(say("ui.account"))), b.accounts, b.inFile, b.signIn, b.signOut, b.note)

	b.content = container.NewVBox(
		widgets.Fold(widget.NewLabel(visual(say("ui.dest.sendTo"))), b.picker, widgets.Flow(fyne.TextAlignTrailing, b.edit, b.add, b.settings)),
		b.accountRow,
		b.setup,
	)
	return b
}

// load lists the choices and the signed-in accounts.
func (b *destBar) load() {
	b.refreshChoices()
	b.refreshAccounts()
}

// setAccount makes email the account of the current destination.
func (b *destBar) setAccount(email string) {
	cur := b.d.destination()
	cur.Account = email
	b.d.setDestination(cur)
}

// refreshChoices lists saved destinations first, then every kind.
func (b *destBar) refreshChoices() {
	b.choices = b.choices[:0]
	if ps := b.d.savedDestinations(); ps != nil {
		b.choices = append(b.choices, ps.List()...)
	}
	for _, k := range dest.Kinds() {
		b.choices = append(b.choices, dest.Destination{Kind: k.Kind})
	}
	labels := make([]string, len(b.choices))
	for i, c := range b.choices {
		labels[i] = b.choiceLabel(c)
	}
	b.picker.SetOptions(labels)
	b.showCurrent()
}

func (b *destBar) choiceLabel(d dest.Destination) string {
	if b.d.managed(d.Name) {
		return visual(say("ui.dest.managed", "Name", isolate(destTitle(d))))
	}
	if strings.TrimSpace(d.Name) != "" {
		return visual(say("ui.dest.saved", "Name", isolate(destTitle(d))))
	}
	return visual(destTitle(d))
}

// showCurrent puts the current destination on the picker and shows the
// account controls it needs.
func (b *destBar) showCurrent() {
	current := b.d.destination()
	label := b.choiceLabel(current)
	if !slices.Contains(b.picker.Options, label) {
		b.picker.SetOptions(append(slices.Clone(b.picker.Options), label))
	}
	if b.picker.Selected != label {
		b.picker.SetSelected(label)
	}
	needs := current.NeedsAuth()
	service := b.d.googleSignIn()
	hasClient := service != nil && service.HasClient()
	for _, o := range []fyne.CanvasObject{b.accounts, b.signIn, b.signOut} {
		if needs && hasClient {
			o.Show()
		} else {
			o.Hide()
		}
	}
	if len(b.known) == 0 {
		b.signOut.Hide()
	}
	if needs {
		b.note.Hide()
	} else {
		b.note.Show()
	}
	if needs && !hasClient {
		b.setup.Show()
		b.accountRow.Hide()
	} else {
		b.setup.Hide()
		b.accountRow.Show()
	}
	if current.Account != "" && b.accounts.Selected != current.Account {
		b.accounts.SetSelected(current.Account)
	}
	b.showFileNote()
}

// showFileNote says when the chosen account's sign-in is kept in a file
// (there was no keychain), which is less safe.
func (b *destBar) showFileNote() {
	switch {
	case b.accounts.Visible() && b.lessSafe[b.accounts.Selected]:
		b.inFile.SetText(visual(say("ui.account.inFile")))
		b.inFile.Show()
	case b.accounts.Visible() && b.session[b.accounts.Selected]:
		b.inFile.SetText(visual(say("ui.account.thisSession")))
		b.inFile.Show()
	default:
		b.inFile.Hide()
	}
}

// picked is the picker's choice; kinds with settings to fill in open the form.
func (b *destBar) picked(label string) {
	current := b.d.destination()
	if label == b.choiceLabel(current) {
		return
	}
	for _, c := range b.choices {
		if b.choiceLabel(c) != label {
			continue
		}
		if c.Account == "" {
			c.Account = current.Account
		}
		if c.Validate() != nil {
			b.showForm(c, true)
			b.showCurrent() // until the form is saved, the old choice stands
			return
		}
		b.choose(c)
		return
	}
}

// choose makes d the destination of files added from now on.
func (b *destBar) choose(d dest.Destination) {
	if d.Params == nil {
		d.Params = map[string]string{}
	}
	b.d.setDestination(d)
	b.showCurrent()
}

// showForm opens the settings of d with checks as the user types. With
// choosing set, saving the form also makes d the current destination.
func (b *destBar) showForm(d dest.Destination, choosing bool) {
	f := newDestForm(b, d)
	f.addName()
	for _, field := range d.Kind.Info().Fields {
		f.addField(field)
	}
	f.open(choosing)
}

// refreshAccounts asks the keychain for signed-in accounts off the UI goroutine.
func (b *destBar) refreshAccounts() {
	service := b.d.googleSignIn()
	if service == nil || !service.HasClient() {
		b.showCurrent()
		return
	}
	b.d.background(func(ctx context.Context) {
		list, err := service.Accounts(ctx)
		b.d.later(func() {
			if err != nil {
				b.d.tell(say("ui.account.unreadable", "Why", errorWords(err)))
			}
			b.known = b.known[:0]
			b.lessSafe = make(map[string]bool)
			b.session = make(map[string]bool)
			for _, a := range list {
				b.known = append(b.known, a.Email)
				b.lessSafe[a.Email] = a.LessSafe
				b.session[a.Email] = a.ThisSession
			}
			b.accounts.SetOptions(b.known)
			if b.d.destination().Account == "" && len(b.known) > 0 {
				b.setAccount(b.known[0])
			}
			b.showCurrent()
		})
	})
}

// login signs an account in through the browser, for the current
// destination's scopes. An account already signed in is asked only for
// what it lacks. Without a keychain, the user may choose a file instead.
func (b *destBar) login() {
	current := b.d.destination()
	b.loginWith(current.Account, current.Scopes(), true, nil)
}

// signInFor signs a job's account in again, for its destination's scopes;
// the account's uploads that waited for it then go on. Without a client,
// it opens the guided set-up first.
func (b *destBar) signInFor(v engine.JobView) {
	if a := b.d.googleSignIn(); a != nil && !a.HasClient() {
		b.d.showSetup()
		return
	}
	b.loginWith(v.Account, v.Scopes, false, nil)
}

// loginWith signs account in for scopes; with adopt set (or no account
// chosen yet) the account becomes the destination's. The account's uploads
// that waited for a sign-in go on; then, if set, runs after the sign-in.
func (b *destBar) loginWith(account string, scopes []string, adopt bool, then func(auth.Account), extra ...auth.LoginOption) {
	signIn := b.d.googleSignIn()
	if signIn == nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background()) // the dialog's Cancel ends it, and so does closing the window
	waiting := container.NewVBox(widgets.NewParagraph(say("ui.signIn.wait")))
	wait := dialog.NewCustom(say("ui.signIn"),
		visual(speaking().Action("cancel")),
		waiting,
		b.d.window())
	wait.SetOnClosed(cancel)
	b.d.open(wait)
	opts := append([]auth.LoginOption{
		auth.ShowingURL(func(url string) {
			b.d.later(func() {
				b.showAddress(waiting, url)
				wait.Resize(wait.MinSize())
			})
		}),
		auth.WaitingAtMost(b.d.signInWait()),
	}, extra...)
	if account != "" && slices.Contains(b.known, account) {
		opts = append(opts, auth.ForAccount(account))
	}
	b.d.background(func(window context.Context) {
		defer context.AfterFunc(window, cancel)()
		acct, err := signIn.Login(ctx, scopes, opts...)
		cancel()
		b.d.later(func() {
			wait.Hide()
			switch {
			case (errors.Is(err, auth.ErrNoKeychain) || errors.Is(err, auth.ErrKeychainLocked)) && len(extra) == 0:
				b.offerPlaces(err, account, scopes, adopt, then)
				return
			case errors.Is(err, context.Canceled):
				return
			case err != nil:
				b.d.tell(errorWords(err))
				return
			}
			if adopt || b.d.destination().Account == "" {
				b.setAccount(acct.Email)
			}
			b.refreshAccounts()
			b.d.signedIn(acct.Email)
			if then != nil {
				then(acct)
			}
		})
	})
}

// showAddress gives, in the waiting dialog's box, the sign-in page's
// address to open by hand, when no browser could be opened: the dialog no
// longer says the browser shows it.
func (b *destBar) showAddress(box *fyne.Container, url string) {
	address := widget.NewEntry()
	address.SetText(url)
	address.OnChanged = func(string) { address.SetText(url) } // read-only, yet selectable
	copyButton := widgets.NewIconButton(visual(say("ui.address.copy")), theme.ContentCopyIcon(), func() {
		b.d.copyText(url)
	})
	box.Objects = []fyne.CanvasObject{
		widgets.NewWholeLabel(say("ui.address.title")),
		widgets.NewParagraph(say("ui.address.hint")),
		address,
		copyButton,
	}
	box.Refresh()
}

func (b *destBar) logout() {
	account := b.accounts.Selected
	signIn := b.d.googleSignIn()
	if signIn == nil || account == "" {
		return
	}
	b.d.open(widgets.NewSentenceQuestion(say("ui.signOut.title"), say("ui.signOut.question", "Account", isolate(account)),
		func(yes bool) {
			if !yes {
				return
			}
			b.d.background(func(ctx context.Context) {
				err := signIn.Logout(ctx, account)
				b.d.later(func() {
					if err != nil {
						b.d.tell(errorWords(err))
					}
					if b.d.destination().Account == account {
						b.accounts.ClearSelected()
						b.setAccount("")
					}
					b.refreshAccounts()
				})
			})
		}, b.d.window()))
}

// importClient opens the guided set-up of Google sign-in (setup.go).
func (b *destBar) importClient() {
	if b.d.googleSignIn() == nil {
		return
	}
	b.d.showSetup()
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
