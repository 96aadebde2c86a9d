package ui

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
	"hoist/ui/widgets"
)

// googleClients gives HTTP clients that carry an account's authorization.
type googleClients interface {
	Client(ctx context.Context, account string, scopes []string) (*http.Client, error)
}

// pickItem is one line of a picker: words for people, the value for Google.
type pickItem struct {
	words, value string
}

// withPicker puts a "Choose…" button beside a setting's entry e (drawn as
// shown) when Google can list its values, at its end in reading order;
// what is chosen is written into the entry, and a typed id is still accepted.
func (b *destBar) withPicker(f dest.Field, e *widget.Entry, shown fyne.CanvasObject, edited *dest.Destination) fyne.CanvasObject {
	list := f.List
	if list == nil {
		return shown
	}
	choose := widgets.NewIconButton(chooseText(), theme.SearchIcon(), func() {
		p := openPicker(b.d, list, *edited, e.Text, func(value string) { e.SetText(value) })
		p.onAccount = func(email string) {
			if edited.Account == "" {
				edited.Account = email // the form's destination goes with the account just signed in
			}
		}
	})
	return widgets.Border(nil, nil, nil, choose, shown)
}

// picker is an open list to choose from, with a search box.
type picker struct {
	d      pickerController
	source *dest.List // what Google lists, as the destination's kind declares it
	target dest.Destination
	dlg    dialog.Dialog
	search *widgets.Entry
	list   *widget.List
	status *widgets.Paragraph
	signIn *widgets.Button
	all    []pickItem
	shown  []pickItem
	chosen []string // a list of several values (labels): the ids chosen so far
	apply  func(string)
	// onAccount hears of the account signed in from the picker.
	onAccount func(email string)
}

// openPicker lists list's values for d, fetched from Google with the
// account's sign-in (or from the sandbox d points at).
func openPicker(d pickerController, list *dest.List, target dest.Destination, current string, apply func(string)) *picker {
	p := &picker{d: d, source: list, target: target, apply: apply}
	if list.Many {
		p.chosen = dest.Values(current)
	}
	p.search = widgets.NewEntry()
	p.search.SetPlaceHolder(say("ui.picker.search")) // drawn in reading order by the entry
	p.search.OnChanged = func(string) { p.filter() }
	p.status = widgets.NewParagraph(say("ui.picker.fetching"))
	p.signIn = widgets.NewIconButton(visual(say("ui.signIn")), theme.LoginIcon(), p.login)
	p.signIn.Importance = widget.HighImportance
	p.signIn.Hide()
	p.list = widget.NewList(
		func() int { return len(p.shown) },
		func() fyne.CanvasObject { return widget.NewCheck("", nil) },
		func(i widget.ListItemID, o fyne.CanvasObject) {
			c := o.(*widget.Check)
			it := p.shown[i]
			c.OnChanged = nil
			c.Text = it.words
			c.Checked = slices.Contains(p.chosen, it.value)
			c.Refresh()
			c.OnChanged = func(on bool) { p.pick(it, on) }
		})
	p.list.OnSelected = func(i widget.ListItemID) {
		if i < len(p.shown) {
			it := p.shown[i]
			p.pick(it, !slices.Contains(p.chosen, it.value))
		}
		p.list.UnselectAll()
	}
	done := widgets.NewButton(visual(say("ui.picker.done")), func() { p.dlg.Hide() })
	body := container.NewBorder(
		container.NewVBox(p.search, p.status, widgets.Row(p.signIn)),
		widgets.Row(done), nil, nil, p.list)
	p.dlg = dialog.NewCustomWithoutButtons(p.title(), body, d.window())
	p.dlg.Resize(d.fit(fyne.NewSize(520, 480)))
	d.open(p.dlg)
	d.window().Canvas().Focus(p.search)
	p.load()
	return p
}

func (p *picker) title() string { return speaking().ListTitle(p.source) }

// scopes are what the list needs: its own access, asked for only now
// that the user wants it (Gmail's labels), or the uploads' (CM360's).
func (p *picker) scopes() []string { return []string{p.source.Scope} }

// lister gives the lister for the picker's destination: the sandbox's
// without sign-in, Google's with the account's.
func (g *googleSide) lister(ctx context.Context, target dest.Destination, scopes []string) (*google.Lister, error) {
	if target.BuiltinSandbox && g.sandbox != nil {
		target.BaseURL = g.sandbox.url
	}
	if target.BaseURL != "" && !target.NeedsAuth() {
		return &google.Lister{Client: &http.Client{}, BaseURL: target.BaseURL}, nil
	}
	clients, ok := g.auth.(googleClients)
	if !ok || g.auth == nil || !g.auth.HasClient() {
		return nil, auth.ErrNoClient
	}
	account := target.Account
	if account == "" {
		account = g.target.dest.Account
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

// load fetches the list off the UI goroutine.
func (p *picker) load() {
	target, list := p.target, p.source
	p.d.background(func(ctx context.Context) {
		items, err := p.d.listItems(ctx, list, target, p.scopes())
		p.d.later(func() { p.show(items, err) })
	})
}

// listItems fetches list's values for target from Google, or from the sandbox.
func (g *googleSide) listItems(ctx context.Context, list *dest.List, target dest.Destination, scopes []string) ([]pickItem, error) {
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

// show puts the fetched list, or what went wrong, on the picker.
func (p *picker) show(items []pickItem, err error) {
	p.signIn.Hide()
	p.status.ColorName = theme.ColorNameForeground
	switch {
	case errors.Is(err, auth.ErrNotSignedIn), errors.Is(err, auth.ErrSignInAgain):
		p.status.SetText(speaking().ListSignIn(p.source))
		p.signIn.Show()
	case err != nil:
		p.status.ColorName = theme.ColorNameError
		p.status.SetText(sentence(errorWords(err)))
	case len(items) == 0:
		p.status.SetText(p.emptyWords())
	default:
		p.status.SetText(p.hintWords())
	}
	p.all = items
	p.filter()
}

func (p *picker) emptyWords() string { return speaking().ListEmpty(p.source) }

func (p *picker) hintWords() string { return speaking().ListHint(p.source) }

// filter shows the items whose words contain what the search box holds.
func (p *picker) filter() {
	q := strings.ToLower(strings.TrimSpace(p.search.Text))
	p.shown = p.shown[:0]
	for _, it := range p.all {
		if q == "" || strings.Contains(strings.ToLower(it.words), q) {
			p.shown = append(p.shown, it)
		}
	}
	p.list.Refresh()
}

// pick takes an item: the value of a list of one (and closes), or a value
// added to or taken from a list of several.
func (p *picker) pick(it pickItem, on bool) {
	if !p.source.Many {
		p.apply(it.value)
		p.dlg.Hide()
		return
	}
	if on && !slices.Contains(p.chosen, it.value) {
		p.chosen = append(p.chosen, it.value)
	} else if !on {
		p.chosen = slices.DeleteFunc(p.chosen, func(v string) bool { return v == it.value })
	}
	p.apply(dest.JoinValues(p.chosen))
	p.list.Refresh()
}

// login signs in for the list's access, then fetches it again.
func (p *picker) login() {
	account := p.target.Account
	if account == "" {
		account = p.d.destination().Account
	}
	p.d.loginWith(account, p.scopes(), func(a auth.Account) {
		p.target.Account = a.Email
		if p.onAccount != nil {
			p.onAccount(a.Email)
		}
		p.status.SetText(say("ui.picker.fetching"))
		p.load()
	})
}

// namesToResolve reports whether d's settings hold names typed where
// Google takes ids (Gmail's labels), which must become ids before any upload.
func namesToResolve(d dest.Destination) bool { return len(d.NamesTyped()) > 0 }

// resolveNames turns the names typed by hand in target's settings into
// ids, with the lists Google keeps (the same lookup as hoist send's); then
// runs with the destination holding the ids, or with why it cannot.
func (g *googleSide) resolveNames(target dest.Destination, then func(resolved dest.Destination, err error)) {
	g.frame.background(func(ctx context.Context) {
		resolved := target
		l, err := g.lister(ctx, target, google.Scopes(target))
		if err == nil {
			resolved, err = l.Resolve(ctx, target)
		}
		if errors.Is(err, auth.ErrNotSignedIn) || errors.Is(err, auth.ErrSignInAgain) || errors.Is(err, auth.ErrNoClient) {
			err = errors.New(speaking().ListNames(target.NamesTyped()[0].List, "window", nil))
		}
		g.frame.later(func() { then(resolved, err) })
	})
}

// pickerEntry is the toolkit's entry of a field made by withPicker, or o itself.
func pickerEntry(o fyne.CanvasObject) fyne.CanvasObject {
	if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 2 {
		if b, ok := c.Objects[1].(*widgets.Button); ok && b.Text == chooseText() {
			o = c.Objects[0]
		}
	}
	if e, ok := o.(*widgets.Entry); ok {
		return &e.Entry
	}
	return o
}

func chooseText() string { return say("ui.choose") }

// noteField is the field of a form item made by withNote.
func noteField(it *widget.FormItem) fyne.CanvasObject {
	if c, ok := it.Widget.(*fyne.Container); ok && len(c.Objects) == 2 {
		return pickerEntry(c.Objects[0])
	}
	return it.Widget
}

// pickerController is what a list to choose from asks of the window.
type pickerController interface {
	frame
	destination() dest.Destination // where files added now go
	listItems(ctx context.Context, list *dest.List, d dest.Destination, scopes []string) ([]pickItem, error)
	loginWith(account string, scopes []string, then func(auth.Account))
}
