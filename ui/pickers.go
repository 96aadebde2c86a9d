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

// listKind is what a picker lists.
type listKind int

const (
	noList listKind = iota
	profileList
	advertiserList
	labelList
)

// listFor says which list helps to fill in the setting key of kind.
func listFor(kind dest.Kind, key string) listKind {
	switch kind.ListOf(key) {
	case dest.ProfileList:
		return profileList
	case dest.AdvertiserList:
		return advertiserList
	case dest.LabelList:
		return labelList
	}
	return noList
}

// pickItem is one line of a picker: words for people, the value for Google.
type pickItem struct {
	words, value string
}

// withPicker puts a "Choose…" button beside a setting's entry e (drawn as
// shown) when Google can list its values, at its end in reading order;
// what is chosen is written into the entry, and a typed id is still accepted.
func (b *destBar) withPicker(f dest.Field, e *widget.Entry, shown fyne.CanvasObject, edited *dest.Destination) fyne.CanvasObject {
	kind := listFor(edited.Kind, f.Key)
	if kind == noList {
		return shown
	}
	choose := widgets.NewIconButton(chooseText(), theme.SearchIcon(), func() {
		p := openPicker(b.d, kind, *edited, e.Text, func(value string) { e.SetText(value) })
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
	kind   listKind
	target dest.Destination
	dlg    dialog.Dialog
	search *widgets.Entry
	list   *widget.List
	status *widgets.Paragraph
	signIn *widgets.Button
	all    []pickItem
	shown  []pickItem
	chosen []string // labels: the ids chosen so far
	apply  func(string)
	// onAccount hears of the account signed in from the picker.
	onAccount func(email string)
}

// openPicker lists kind's values for d, fetched from Google with the
// account's sign-in (or from the sandbox d points at).
func openPicker(d pickerController, kind listKind, target dest.Destination, current string, apply func(string)) *picker {
	p := &picker{d: d, kind: kind, target: target, apply: apply}
	if kind == labelList {
		p.chosen = dest.SplitList(current)
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

func (p *picker) title() string {
	switch p.kind {
	case profileList:
		return say("ui.picker.profile")
	case advertiserList:
		return say("ui.picker.advertiser")
	}
	return say("ui.picker.labels")
}

// scopes are what the list needs: Gmail's labels ask for their own access,
// only now that the user wants them.
func (p *picker) scopes() []string {
	if p.kind == labelList {
		return []string{google.ScopeGmailLabels}
	}
	return []string{google.ScopeCM360}
}

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
	target, kind := p.target, p.kind
	p.d.background(func(ctx context.Context) {
		items, err := p.d.listItems(ctx, kind, target, p.scopes())
		p.d.later(func() { p.show(items, err) })
	})
}

// listItems fetches kind's values for target from Google, or from the sandbox.
func (g *googleSide) listItems(ctx context.Context, kind listKind, target dest.Destination, scopes []string) ([]pickItem, error) {
	l, err := g.lister(ctx, target, scopes)
	if err != nil {
		return nil, err
	}
	var items []pickItem
	switch kind {
	case profileList:
		list, err := l.Profiles(ctx)
		for _, x := range list {
			items = append(items, pickItem{x.Words() + " (" + x.ID + ")", x.ID})
		}
		return items, err
	case advertiserList:
		list, err := l.Advertisers(ctx, target.Param("profileId"), "")
		for _, x := range list {
			items = append(items, pickItem{x.Name + " (" + x.ID + ")", x.ID})
		}
		return items, err
	}
	list, err := l.Labels(ctx, target.Param("user"))
	for _, x := range list {
		w := x.Name
		if x.Name != x.ID {
			w += " (" + x.ID + ")"
		}
		items = append(items, pickItem{w, x.ID})
	}
	return items, err
}

// show puts the fetched list, or what went wrong, on the picker.
func (p *picker) show(items []pickItem, err error) {
	p.signIn.Hide()
	p.status.ColorName = theme.ColorNameForeground
	switch {
	case errors.Is(err, auth.ErrNotSignedIn), errors.Is(err, auth.ErrSignInAgain):
		p.status.SetText(say("ui.picker.signIn"))
		if p.kind == labelList {
			p.status.SetText(say("ui.picker.signInLabels"))
		}
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

func (p *picker) emptyWords() string {
	switch p.kind {
	case profileList:
		return say("ui.picker.noProfile")
	case advertiserList:
		return say("ui.picker.noAdvertiser")
	}
	return say("ui.picker.noLabels")
}

func (p *picker) hintWords() string {
	if p.kind == labelList {
		return say("ui.picker.tickLabels")
	}
	return say("ui.picker.clickOne")
}

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

// pick takes an item: the value for a profile or advertiser (and closes),
// a label added to or taken from the list.
func (p *picker) pick(it pickItem, on bool) {
	if p.kind != labelList {
		p.apply(it.value)
		p.dlg.Hide()
		return
	}
	if on && !slices.Contains(p.chosen, it.value) {
		p.chosen = append(p.chosen, it.value)
	} else if !on {
		p.chosen = slices.DeleteFunc(p.chosen, func(v string) bool { return v == it.value })
	}
	p.apply(strings.Join(p.chosen, ", "))
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

// labelsToResolve reports whether d's labels were typed as names that must
// become ids before any upload.
func labelsToResolve(d dest.Destination) bool {
	return d.Kind.ListOf("labels") == dest.LabelList && google.HasLabelNames(dest.SplitList(d.Params["labels"]))
}

// resolveLabels turns label names typed by hand into ids, with the
// mailbox's list; then runs with the ids, or with a sentence refusing them.
func (g *googleSide) resolveLabels(target dest.Destination, then func(ids string, err error)) {
	g.frame.background(func(ctx context.Context) {
		l, err := g.lister(ctx, target, []string{google.ScopeGmailLabels})
		var ids []string
		if err == nil {
			var labels []google.Label
			labels, err = l.Labels(ctx, target.Param("user"))
			if err == nil {
				ids, err = google.ResolveLabels(labels, dest.SplitList(target.Params["labels"]))
			}
		}
		if errors.Is(err, auth.ErrNotSignedIn) || errors.Is(err, auth.ErrSignInAgain) || errors.Is(err, auth.ErrNoClient) {
			err = errors.New(say("ui.picker.labelNames"))
		}
		g.frame.later(func() { then(strings.Join(ids, ", "), err) })
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
