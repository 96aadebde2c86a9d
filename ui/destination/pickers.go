package destination

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/auth"
	"hoist/engine/dest"
	"hoist/engine/google"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// googleClients gives HTTP clients that carry an account's authorization.
type googleClients interface {
	Client(ctx context.Context, account string, scopes []string) (*http.Client, error)
}

// pickItem is one line of a picker: words for people, the value for Google.
type pickItem struct {
	Words, Value string
}

// withPicker puts a "Choose…" button beside a setting's entry e (drawn as
// shown) when Google can list its values, at its end in reading order;
// what is chosen is written into the entry, and a typed id is still accepted.
func (b *DestBar) withPicker(f dest.Field, e *widget.Entry, shown fyne.CanvasObject, edited *dest.Destination) fyne.CanvasObject {
	list := f.List
	if list == nil {
		return shown
	}
	choose := widgets.NewIconButton(ChooseText(), theme.SearchIcon(), func() {
		p := OpenPicker(b.Host, list, *edited, e.Text, func(value string) { e.SetText(value) })
		p.onAccount = func(email string) {
			if edited.Account == "" {
				edited.Account = email // the form's destination goes with the account just signed in
			}
		}
	})
	return widgets.Border(nil, nil, nil, choose, shown)
}

// Picker is an open list to choose from, with a search box.
type Picker struct {
	Host   pickerController
	source *dest.List // what Google lists, as the destination's kind declares it
	Target dest.Destination
	Dialog dialog.Dialog
	Search *widgets.Entry
	List   *widget.List
	Status *widgets.Paragraph
	SignIn *widgets.Button
	All    []pickItem
	Shown  []pickItem
	chosen []string // a list of several values (labels): the ids chosen so far
	apply  func(string)
	// onAccount hears of the account signed in from the picker.
	onAccount func(email string)
}

// OpenPicker lists list's values for d, fetched from Google with the
// account's sign-in (or from the sandbox d points at).
func OpenPicker(d pickerController, list *dest.List, target dest.Destination, current string, apply func(string)) *Picker {
	p := &Picker{Host: d, source: list, Target: target, apply: apply}
	if list.Many {
		p.chosen = dest.Values(current)
	}
	p.Search = widgets.NewEntry()
	p.Search.SetPlaceHolder(view.Say("ui.picker.search")) // drawn in reading order by the entry
	p.Search.OnChanged = func(string) { p.filter() }
	p.Status = widgets.NewParagraph(view.Say("ui.picker.fetching"))
	p.SignIn = widgets.NewIconButton(view.Visual(view.Say("ui.signIn")), theme.LoginIcon(), p.Login)
	p.SignIn.Importance = widget.HighImportance
	p.SignIn.Hide()
	p.List = widget.NewList(
		func() int { return len(p.Shown) },
		func() fyne.CanvasObject { return widget.NewCheck("", nil) },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := o.(*widget.Check)
			it := p.Shown[i]
			c.OnChanged = nil
			c.Text = it.Words
			c.Checked = slices.Contains(p.chosen, it.Value)
			c.Refresh()
			c.OnChanged = func(on bool) { p.Pick(it, on) }
		})
	p.List.OnSelected = func(i widget.ListItemID) {
		if i < len(p.Shown) {
			it := p.Shown[i]
			p.Pick(it, !slices.Contains(p.chosen, it.Value))
		}
		p.List.UnselectAll()
	}
	done := widgets.NewButton(view.Visual(view.Say("ui.picker.done")), func() { p.Dialog.Hide() })
	body := container.NewBorder(
		container.NewVBox(p.Search, p.Status, widgets.Row(p.SignIn)),
		widgets.Row(done), nil, nil, p.List)
	p.Dialog = dialog.NewCustomWithoutButtons(p.Title(), body, d.Window())
	p.Dialog.Resize(d.Fit(fyne.NewSize(520, 480)))
	d.Open(p.Dialog)
	d.Window().Canvas().Focus(p.Search)
	p.Load()
	return p
}

func (p *Picker) Title() string { return view.Speaking().ListTitle(p.source) }

// scopes are what the list needs: its own access, asked for only now
// that the user wants it (Gmail's labels), or the uploads' (CM360's).
func (p *Picker) scopes() []string { return []string{p.source.Scope} }

// lister gives the lister for the picker's destination: the sandbox's
// without sign-in, Google's with the account's.
func (g *GoogleSide) lister(ctx context.Context, target dest.Destination, scopes []string) (*google.Lister, error) {
	if target.BuiltinSandbox && g.Sandbox != nil {
		target.BaseURL = g.Sandbox.Url
	}
	if target.BaseURL != "" && !target.NeedsAuth() {
		return &google.Lister{Client: &http.Client{}, BaseURL: target.BaseURL}, nil
	}
	clients, ok := g.Auth.(googleClients)
	if !ok || g.Auth == nil || !g.Auth.HasClient() {
		return nil, auth.ErrNoClient
	}
	account := target.Account
	if account == "" {
		account = g.Target.Dest.Account
	}
	if account == "" {
		return nil, auth.ErrNotSignedIn
	}
	c, err := clients.Client(ctx, account, scopes)
	if err != nil {
		return nil, err
	}
	return &google.Lister{Client: c, BaseURL: target.BaseURL}, nil
}

// Load fetches the list off the UI goroutine.
func (p *Picker) Load() {
	target, list := p.Target, p.source
	p.Host.Background(func(ctx context.Context) {
		items, err := p.Host.ListItems(ctx, list, target, p.scopes())
		p.Host.Later(func() { p.Draw(items, err) })
	})
}

// ListItems fetches list's values for target from Google, or from the sandbox.
func (g *GoogleSide) ListItems(ctx context.Context, list *dest.List, target dest.Destination, scopes []string) ([]pickItem, error) {
	l, err := g.lister(ctx, target, scopes)
	if err != nil {
		return nil, err
	}
	found, err := l.List(ctx, list, target)
	items := make([]pickItem, len(found))
	for i, x := range found {
		items[i] = pickItem{x.Picked(), x.ID}
	}
	return items, err
}

// Draw puts the fetched list, or what went wrong, on the picker.
func (p *Picker) Draw(items []pickItem, err error) {
	p.SignIn.Hide()
	p.Status.ColorName = theme.ColorNameForeground
	switch {
	case errors.Is(err, auth.ErrNotSignedIn), errors.Is(err, auth.ErrSignInAgain):
		p.Status.SetText(view.Speaking().ListSignIn(p.source))
		p.SignIn.Show()
	case err != nil:
		p.Status.ColorName = theme.ColorNameError
		p.Status.SetText(view.Sentence(view.ErrorWords(err)))
	case len(items) == 0:
		p.Status.SetText(p.emptyWords())
	default:
		p.Status.SetText(p.hintWords())
	}
	p.All = items
	p.filter()
}

func (p *Picker) emptyWords() string { return view.Speaking().ListEmpty(p.source) }

func (p *Picker) hintWords() string { return view.Speaking().ListHint(p.source) }

// filter shows the items whose words contain what the search box holds.
func (p *Picker) filter() {
	q := strings.ToLower(strings.TrimSpace(p.Search.Text))
	p.Shown = p.Shown[:0]
	for _, it := range p.All {
		if q == "" || strings.Contains(strings.ToLower(it.Words), q) {
			p.Shown = append(p.Shown, it)
		}
	}
	p.List.Refresh()
}

// Pick takes an item: the value of a list of one (and closes), or a value
// added to or taken from a list of several.
func (p *Picker) Pick(it pickItem, on bool) {
	if !p.source.Many {
		p.apply(it.Value)
		p.Dialog.Hide()
		return
	}
	if on && !slices.Contains(p.chosen, it.Value) {
		p.chosen = append(p.chosen, it.Value)
	} else if !on {
		p.chosen = slices.DeleteFunc(p.chosen, func(v string) bool { return v == it.Value })
	}
	p.apply(dest.JoinValues(p.chosen))
	p.List.Refresh()
}

// Login signs in for the list's access, then fetches it again.
func (p *Picker) Login() {
	account := p.Target.Account
	if account == "" {
		account = p.Host.Destination().Account
	}
	p.Host.LoginWith(account, p.scopes(), func(a auth.Account) {
		p.Target.Account = a.Email
		if p.onAccount != nil {
			p.onAccount(a.Email)
		}
		p.Status.SetText(view.Say("ui.picker.fetching"))
		p.Load()
	})
}

// NamesToResolve reports whether d's settings hold names typed where
// Google takes ids (Gmail's labels), which must become ids before any upload.
func NamesToResolve(d dest.Destination) bool { return len(d.NamesTyped()) > 0 }

// ResolveNames turns the names typed by hand in target's settings into
// ids, with the lists Google keeps (the same lookup as hoist send's); then
// runs with the destination holding the ids, or with why it cannot.
func (g *GoogleSide) ResolveNames(target dest.Destination, then func(resolved dest.Destination, err error)) {
	g.Frame.Background(func(ctx context.Context) {
		resolved := target
		l, err := g.lister(ctx, target, google.Scopes(target))
		if err == nil {
			resolved, err = l.Resolve(ctx, target)
		}
		if errors.Is(err, auth.ErrNotSignedIn) || errors.Is(err, auth.ErrSignInAgain) || errors.Is(err, auth.ErrNoClient) {
			err = errors.New(view.Speaking().ListNames(target.NamesTyped()[0].List, "window", nil))
		}
		g.Frame.Later(func() { then(resolved, err) })
	})
}

// PickerEntry is the toolkit's entry of a field made by withPicker, or o itself.
func PickerEntry(o fyne.CanvasObject) fyne.CanvasObject {
	if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 2 {
		if b, ok := c.Objects[1].(*widgets.Button); ok && b.Text == ChooseText() {
			o = c.Objects[0]
		}
	}
	if e, ok := o.(*widgets.Entry); ok {
		return &e.Entry
	}
	return o
}

func ChooseText() string { return view.Say("ui.choose") }

// NoteField is the field of a form item made by withNote.
func NoteField(it *widget.FormItem) fyne.CanvasObject {
	if c, ok := it.Widget.(*fyne.Container); ok && len(c.Objects) == 2 {
		return PickerEntry(c.Objects[0])
	}
	return it.Widget
}

// pickerController is what a list to choose from asks of the window.
type pickerController interface {
	view.Frame
	Destination() dest.Destination // where files added now go
	ListItems(ctx context.Context, list *dest.List, d dest.Destination, scopes []string) ([]pickItem, error)
	LoginWith(account string, scopes []string, then func(auth.Account))
}
