package ui

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
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

	picker     *widget.Select
	edit       *widget.Button
	accounts   *widget.Select
	signIn     *widget.Button
	signOut    *widget.Button
	note       *widget.RichText // "The sandbox needs no account."
	inFile     *widget.Label    // the chosen account's sign-in is kept in a file
	accountRow *fyne.Container  // the account picker and sign-in buttons
	setup      *fyne.Container
	add        *widget.Button // "Add files…"
	settings   *widget.Button
	content    fyne.CanvasObject

	known    []string        // signed-in accounts
	lessSafe map[string]bool // accounts whose sign-in is kept in a file
}

const prefDestination = "destination"

func newDestBar(d barController) *destBar {
	b := &destBar{d: d}
	b.picker = widget.NewSelect(nil, b.picked)
	b.picker.PlaceHolder = "Choose where the files go"
	b.edit = widget.NewButtonWithIcon("Options…", theme.DocumentCreateIcon(), func() { b.showForm(b.d.destination(), false) })
	b.accounts = widget.NewSelect(nil, func(email string) {
		if email != "" && email != b.d.destination().Account {
			b.setAccount(email)
		}
		b.showFileNote()
	})
	b.accounts.PlaceHolder = "No account yet"
	b.signIn = widget.NewButtonWithIcon("Sign in with Google", theme.LoginIcon(), b.login)
	b.signIn.Importance = widget.HighImportance
	b.signOut = widget.NewButtonWithIcon("Sign out", theme.LogoutIcon(), b.logout)
	b.note = hint("The sandbox needs no Google account.")
	b.note.Wrapping = fyne.TextWrapOff
	b.inFile = widget.NewLabel("Kept in a file, not the keychain")
	b.inFile.Importance = widget.WarningImportance
	b.inFile.Hide()

	try := widget.NewButtonWithIcon("Try Hoist with the built-in sandbox", theme.MediaPlayIcon(), func() {
		b.choose(dest.Destination{Kind: dest.Sandbox})
	})
	try.Importance = widget.HighImportance
	importClient := widget.NewButton("Set up Google sign-in…", b.importClient)
	b.setup = container.NewVBox(
		widget.NewLabel("Hoist is not connected to Google yet. You can try every feature with the built-in sandbox, which keeps the files on this computer."),
		container.NewHBox(try, importClient),
	)
	b.setup.Hide()
	b.add = widget.NewButtonWithIcon("Add files…", theme.ContentAddIcon(), d.pickFiles)
	b.add.Importance = widget.HighImportance
	b.settings = widget.NewButtonWithIcon("Settings", theme.SettingsIcon(), d.showSettings)
	b.accountRow = container.NewHBox(widget.NewLabel("Google account"), b.accounts, b.inFile, b.signIn, b.signOut, b.note)

	b.content = container.NewVBox(
		container.NewBorder(nil, nil, widget.NewLabel("Send to"), container.NewHBox(b.edit, b.add, b.settings), b.picker),
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
		return d.Title() + " (from your organisation)"
	}
	if strings.TrimSpace(d.Name) != "" {
		return d.Title() + " (saved)"
	}
	return d.Title()
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
	if b.accounts.Visible() && b.lessSafe[b.accounts.Selected] {
		b.inFile.Show()
	} else {
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
	info := d.Kind.Info()
	edited := d
	edited.Params = maps.Clone(d.Params)
	if edited.Params == nil {
		edited.Params = map[string]string{}
	}

	var items, advanced []*widget.FormItem // advanced: rarely changed, folded away
	var checks []func()                    // says again what is wrong with each field, after any change
	submitted := false                     // after a try to save, every field says what is wrong with it
	revalidate := func() {
		for _, c := range checks {
			c()
		}
	}
	problem := func(key string) error {
		err := edited.Validate()
		var fe dest.FieldErrors
		if errors.As(err, &fe) {
			if msg := fe.For(key); msg != "" {
				return errors.New(msg)
			}
		}
		return nil
	}

	name := widget.NewEntry()
	name.SetText(edited.Name)
	name.SetPlaceHolder("e.g. Newsletter archive (optional: to save it)")
	name.OnChanged = func(s string) { edited.Name = strings.TrimSpace(s) }
	items = append(items, withNote("Name", name, newFieldNote("Give it a name to find it again in the list.")))

	for _, f := range info.Fields {
		f := f
		value := edited.Params[f.Key]
		note := newFieldNote(f.Help)
		touched := false
		set := func(s string) {
			touched = true
			if strings.TrimSpace(s) == "" {
				delete(edited.Params, f.Key)
			} else {
				edited.Params[f.Key] = s
			}
		}
		check := func() {
			if touched || submitted {
				note.show(problem(f.Key))
			}
		}
		var w fyne.CanvasObject
		switch f.Kind {
		case dest.BoolField:
			c := widget.NewCheck("", func(on bool) { set(fmt.Sprint(on)); revalidate() })
			c.SetChecked(value == "true" || (value == "" && f.Default == "true"))
			w = c
		case dest.ChoiceField:
			words := make([]string, len(f.Choices))
			for i, c := range f.Choices {
				words[i] = f.ChoiceWords(c)
			}
			s := widget.NewSelect(words, func(w string) { set(f.ChoiceValue(w)); revalidate() })
			if f.Default != "" {
				s.PlaceHolder = f.ChoiceWords(f.Default)
			} else {
				s.PlaceHolder = "Choose…"
			}
			if value != "" {
				s.SetSelected(f.ChoiceWords(value))
			}
			w = s
		default:
			e := widget.NewEntry()
			if f.Kind == dest.JSONField {
				e = widget.NewMultiLineEntry()
				e.SetMinRowsVisible(3)
			}
			e.SetText(value)
			if f.Default != "" {
				e.SetPlaceHolder(f.Default)
			}
			e.Validator = func(string) error { return problem(f.Key) }
			e.OnChanged = func(s string) { set(s); revalidate() }
			check = func() {
				err := e.Validate() // marks the entry itself
				if touched || submitted {
					note.show(err)
				}
			}
			w = b.withPicker(f, e, &edited) // "Choose…" from Google's list, where there is one
		}
		checks = append(checks, check)
		label := f.Label
		if f.Required {
			label += " *"
		}
		if f.Advanced {
			advanced = append(advanced, withNote(label, w, note))
			continue
		}
		items = append(items, withNote(label, w, note))
	}
	// A whole-destination problem (e.g. the account) has no field of its own.
	overall := widget.NewLabel("")
	overall.Importance = widget.DangerImportance
	overall.Wrapping = fyne.TextWrapWord

	title := info.Label
	var dlg dialog.Dialog
	form := widget.NewForm(items...)
	form.SubmitText = "Use it"
	form.CancelText = "Cancel"
	form.OnCancel = func() { dlg.Hide() }
	form.OnSubmit = func() {
		if labelsToResolve(edited) { // names typed by hand become ids, or are refused, before any upload
			b.d.resolveLabels(edited, func(ids string, err error) {
				if err != nil {
					overall.SetText(sentence(err.Error()))
					return
				}
				edited.Params["labels"] = ids
				form.OnSubmit()
			})
			return
		}
		err := edited.Validate()
		if err != nil {
			submitted = true
			revalidate()
			overall.SetText(sentence(err.Error()))
			return
		}
		if ps := b.d.savedDestinations(); edited.Name != "" && ps != nil {
			if err := ps.Put(edited); err != nil {
				overall.SetText("Hoist could not save this destination: " + err.Error())
				return
			}
		}
		dlg.Hide()
		b.choose(edited)
		b.refreshChoices()
	}
	if !choosing {
		form.SubmitText = "Save"
	}
	content := container.NewVBox(widget.NewLabel("Takes " + info.Accepts + "."))
	if info.Note != "" {
		note := widget.NewLabel(info.Note) // e.g. Google removed the method
		note.Importance = widget.WarningImportance
		note.Wrapping = fyne.TextWrapWord
		content.Add(note)
	}
	content.Add(form)
	if len(advanced) > 0 {
		content.Add(widget.NewAccordion(widget.NewAccordionItem("Advanced", widget.NewForm(advanced...))))
	}
	content.Add(overall)
	content.Add(b.d.formExtras(d))
	dlg = dialog.NewCustomWithoutButtons(title, b.d.scrolled(content), b.d.window())
	dlg.Resize(b.d.fit(fyne.NewSize(560, 520)))
	b.d.open(dlg)
	revalidate()
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
				b.d.tell("Hoist could not read the signed-in accounts. " + err.Error())
			}
			b.known = b.known[:0]
			b.lessSafe = make(map[string]bool)
			for _, a := range list {
				b.known = append(b.known, a.Email)
				b.lessSafe[a.Email] = a.LessSafe
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
	wait := dialog.NewCustom("Sign in with Google",
		"Cancel",
		widget.NewLabel("Your browser shows Google's sign-in page.\nFinish signing in there, then come back to Hoist."),
		b.d.window())
	wait.SetOnClosed(cancel)
	b.d.open(wait)
	opts := append([]auth.LoginOption{
		auth.ShowingURL(func(url string) { b.d.later(func() { b.showAddress(url) }) }),
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
			case errors.Is(err, auth.ErrNoKeychain) && len(extra) == 0:
				b.offerFile(account, scopes, adopt, then)
				return
			case errors.Is(err, context.Canceled):
				return
			case err != nil:
				b.d.tell(err.Error())
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

// offerFile asks whether to keep the sign-in in a file, when this computer
// has no keychain to keep it in.
func (b *destBar) offerFile(account string, scopes []string, adopt bool, then func(auth.Account)) {
	b.d.open(dialog.NewConfirm("No keychain on this computer",
		"Hoist keeps your Google sign-in in the system's keychain, and this computer has none that answers.\n\n"+
			"Hoist can keep it in a file that only you can read instead. That is less safe: anyone who can read your files could upload as you.\n\n"+
			"Keep the sign-in in a file?",
		func(yes bool) {
			if yes {
				b.loginWith(account, scopes, adopt, then, auth.AllowingFileStore())
			}
		}, b.d.window()))
}

// showAddress gives the sign-in page's address to open by hand, when no
// browser could be opened.
func (b *destBar) showAddress(url string) {
	address := widget.NewEntry()
	address.SetText(url)
	address.OnChanged = func(string) { address.SetText(url) } // read-only, yet selectable
	copyButton := widget.NewButtonWithIcon("Copy the address", theme.ContentCopyIcon(), func() {
		b.d.copyText(url)
	})
	b.d.open(dialog.NewCustom("Open this address in your browser", "Close", container.NewVBox(
		widget.NewLabel("Hoist could not open your web browser. Copy this address, open it in a browser and sign in there; Hoist waits for you."),
		address,
		copyButton,
	), b.d.window()))
}

func (b *destBar) logout() {
	account := b.accounts.Selected
	signIn := b.d.googleSignIn()
	if signIn == nil || account == "" {
		return
	}
	b.d.open(dialog.NewConfirm("Sign out?",
		fmt.Sprintf("Hoist will forget the sign-in of %s on this computer. Uploads to Google with it stop until you sign in again.", account),
		func(yes bool) {
			if !yes {
				return
			}
			b.d.background(func(ctx context.Context) {
				err := signIn.Logout(ctx, account)
				b.d.later(func() {
					if err != nil {
						b.d.tell(err.Error())
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
