package destination

import (
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

	"hoist/engine/dest"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// destForm is the dialog in which one destination is made or edited: a
// field for each of its kind's settings, each saying what is wrong with it
// as the user types, and a whole-destination line for the rest.
type destForm struct {
	b      *DestBar
	Host   dest.Destination // as it was
	edited dest.Destination // as the form has it now

	items, advanced []*widget.FormItem   // advanced: rarely changed, folded away
	checks          []func()             // says again what is wrong with each field, after any change
	codes           []*widgets.CodeEntry // JSON fields, told the form's scroll once it is made
	submitted       bool                 // after a try to save, every field says what is wrong with it
	Overall         *widgets.Paragraph   // a problem of the whole destination (e.g. the account)
	Form            *widgets.Form
	Dialog          dialog.Dialog
}

func newDestForm(b *DestBar, d dest.Destination) *destForm {
	edited := d
	edited.Params = maps.Clone(d.Params)
	if edited.Params == nil {
		edited.Params = map[string]string{}
	}
	overall := widgets.NewParagraph("")
	overall.ColorName = theme.ColorNameError
	return &destForm{b: b, Host: d, edited: edited, Overall: overall}
}

func (f *destForm) revalidate() {
	for _, c := range f.checks {
		c()
	}
}

// problem is what is wrong with the field key, in words, or nil.
func (f *destForm) problem(key string) error {
	var fe dest.FieldErrors
	if errors.As(f.edited.Validate(), &fe) {
		if e, ok := fe.FactFor(key); ok {
			return errors.New(view.FieldProblemWords(e))
		}
	}
	return nil
}

// addName adds the field naming the destination, for the saved list.
func (f *destForm) addName() {
	name := widgets.NewEntry() // a name in any script reads right while it is typed
	name.SetText(f.edited.Name)
	name.SetPlaceHolder(view.Say("ui.form.name.example")) // drawn in reading order by the entry
	name.OnChanged = func(s string) { f.edited.Name = strings.TrimSpace(s) }
	f.items = append(f.items, view.WithNote(view.Visual(view.Say("ui.form.name")), name, view.NewFieldNote(view.Say("ui.form.name.help"))))
}

// addField adds the widget of one of the kind's settings, with its label,
// its help and the note that says what is wrong with it.
func (f *destForm) addField(field dest.Field) {
	fieldLabel, fieldHelp := view.FieldWords(f.Host.Kind, field)
	note := view.NewFieldNote(fieldHelp)
	touched := false
	set := func(s string) {
		touched = true
		if strings.TrimSpace(s) == "" {
			delete(f.edited.Params, field.Key)
		} else {
			f.edited.Params[field.Key] = s
		}
	}
	check := func() {
		if touched || f.submitted {
			note.Draw(f.problem(field.Key))
		}
	}
	var w fyne.CanvasObject
	switch field.Kind {
	case dest.BoolField:
		w = f.check(field, set)
	case dest.ChoiceField:
		w = f.Choice(field, set)
	default:
		var e *widget.Entry
		w, e = f.entry(field, set)
		check = func() {
			err := e.Validate() // marks the entry itself
			if touched || f.submitted {
				note.Draw(err)
			}
		}
	}
	f.checks = append(f.checks, check)
	label := fieldLabel
	if field.Required {
		label += " *"
	}
	if field.Advanced {
		f.advanced = append(f.advanced, view.WithNote(view.Visual(label), w, note))
		return
	}
	f.items = append(f.items, view.WithNote(view.Visual(label), w, note))
}

func (f *destForm) check(field dest.Field, set func(string)) fyne.CanvasObject {
	value := f.edited.Params[field.Key]
	c := widget.NewCheck("", func(on bool) { set(fmt.Sprint(on)); f.revalidate() })
	c.SetChecked(value == "true" || (value == "" && field.Default == "true"))
	return c
}

func (f *destForm) Choice(field dest.Field, set func(string)) fyne.CanvasObject {
	kind, value := f.Host.Kind, f.edited.Params[field.Key]
	words := make([]string, len(field.Choices))
	for i, c := range field.Choices {
		words[i] = view.Visual(view.ChoiceWords(kind, c))
	}
	s := widgets.NewSelect(words, func(w string) {
		if i := slices.Index(words, w); i >= 0 {
			set(field.Choices[i])
		}
		f.revalidate()
	})
	if field.Default != "" {
		s.PlaceHolder = view.Visual(view.ChoiceWords(kind, field.Default))
	} else {
		s.PlaceHolder = view.Visual(view.Say("ui.choose"))
	}
	if value != "" {
		s.SetSelected(view.Visual(view.ChoiceWords(kind, value)))
	}
	return s
}

// entry is a typed field: JSON in a code entry, anything else in an entry
// that reads right in any script, with "Choose…" where Google has a list.
func (f *destForm) entry(field dest.Field, set func(string)) (fyne.CanvasObject, *widget.Entry) {
	var e *widget.Entry
	var shown fyne.CanvasObject
	if field.Kind == dest.JSONField {
		code := widgets.NewCodeEntry() // JSON from the left, values in any script in their order
		e, shown = &code.Entry, code
		f.codes = append(f.codes, code)
	} else {
		typed := widgets.NewEntry() // words typed in any script, read right while typing
		e, shown = &typed.Entry, typed
	}
	e.SetText(f.edited.Params[field.Key])
	if field.Default != "" {
		e.SetPlaceHolder(field.Default)
	}
	e.Validator = func(string) error { return f.problem(field.Key) }
	e.OnChanged = func(s string) { set(s); f.revalidate() }
	return f.b.withPicker(field, e, shown, &f.edited), e
}

// submit saves the destination (names typed by hand resolved to ids first)
// and, when it is valid, closes the form and makes it the current one.
func (f *destForm) submit() {
	b := f.b
	if NamesToResolve(f.edited) { // names typed by hand become ids, or are refused, before any upload
		b.Host.ResolveNames(f.edited, func(resolved dest.Destination, err error) {
			if err != nil {
				f.Overall.SetText(view.Sentence(view.ErrorWords(err)))
				return
			}
			f.edited.Params = resolved.Params
			f.submit()
		})
		return
	}
	if err := f.edited.Validate(); err != nil {
		f.submitted = true
		f.revalidate()
		f.Overall.SetText(view.Sentence(view.ErrorWords(err)))
		return
	}
	if ps := b.Host.SavedDestinations(); f.edited.Name != "" && ps != nil {
		if err := ps.Put(f.edited); err != nil {
			f.Overall.SetText(view.Say("ui.form.notSaved", "Why", view.ErrorWords(err)))
			return
		}
	}
	f.Dialog.Hide()
	b.Choose(f.edited)
	b.RefreshChoices()
}

// Open shows the form in a dialog of its own. With choosing set its button
// says Use, else Save.
func (f *destForm) Open(choosing bool) {
	b, kind := f.b, f.Host.Kind
	f.Form = widgets.NewForm(f.items...)
	f.Form.SubmitText = view.Visual(view.Say("ui.form.use"))
	if !choosing {
		f.Form.SubmitText = view.Visual(view.Say("ui.form.save"))
	}
	f.Form.CancelText = view.Speaking().Action("cancel")
	f.Form.OnCancel = func() { f.Dialog.Hide() }
	f.Form.OnSubmit = f.submit

	content := container.NewVBox(widgets.NewParagraph(view.Say("ui.form.takes", "What", view.AcceptsWords(kind))))
	if words := view.Speaking().KindNote(kind); words != "" {
		note := widgets.NewParagraph(words) // e.g. Google removed the method
		note.ColorName = theme.ColorNameWarning
		content.Add(note)
	}
	content.Add(f.Form)
	if len(f.advanced) > 0 {
		content.Add(widget.NewAccordion(widget.NewAccordionItem(view.Visual(view.Say("ui.form.advanced")), widgets.NewForm(f.advanced...))))
	}
	content.Add(f.Overall)
	content.Add(b.Host.FormExtras(f.Host))
	scroll := b.Host.Scrolled(content)
	for _, c := range f.codes {
		c.ScrollsIn(scroll) // the wheel over a JSON field that fits moves the form
	}
	// the dialog draws its title in reading order
	f.Dialog = dialog.NewCustomWithoutButtons(view.KindWords(kind), scroll, b.Host.Window())
	f.Dialog.Resize(b.Host.Fit(fyne.NewSize(560, 520)))
	b.Host.Open(f.Dialog)
	f.revalidate()
}
