package ui

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
	"hoist/ui/widgets"
)

// destForm is the dialog in which one destination is made or edited: a
// field for each of its kind's settings, each saying what is wrong with it
// as the user types, and a whole-destination line for the rest.
type destForm struct {
	b      *destBar
	d      dest.Destination // as it was
	edited dest.Destination // as the form has it now

	items, advanced []*widget.FormItem   // advanced: rarely changed, folded away
	checks          []func()             // says again what is wrong with each field, after any change
	codes           []*widgets.CodeEntry // JSON fields, told the form's scroll once it is made
	submitted       bool                 // after a try to save, every field says what is wrong with it
	overall         *widgets.Paragraph   // a problem of the whole destination (e.g. the account)
	form            *widgets.Form
	dlg             dialog.Dialog
}

func newDestForm(b *destBar, d dest.Destination) *destForm {
	edited := d
	edited.Params = maps.Clone(d.Params)
	if edited.Params == nil {
		edited.Params = map[string]string{}
	}
	overall := widgets.NewParagraph("")
	overall.ColorName = theme.ColorNameError
	return &destForm{b: b, d: d, edited: edited, overall: overall}
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
			return errors.New(fieldProblemWords(e))
		}
	}
	return nil
}

// addName adds the field naming the destination, for the saved list.
func (f *destForm) addName() {
	name := widgets.NewEntry() // a name in any script reads right while it is typed
	name.SetText(f.edited.Name)
	name.SetPlaceHolder(say("ui.form.name.example")) // drawn in reading order by the entry
	name.OnChanged = func(s string) { f.edited.Name = strings.TrimSpace(s) }
	f.items = append(f.items, withNote(visual(say("ui.form.name")), name, newFieldNote(say("ui.form.name.help"))))
}

// addField adds the widget of one of the kind's settings, with its label,
// its help and the note that says what is wrong with it.
func (f *destForm) addField(field dest.Field) {
	fieldLabel, fieldHelp := fieldWords(f.d.Kind, field)
	note := newFieldNote(fieldHelp)
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
			note.show(f.problem(field.Key))
		}
	}
	var w fyne.CanvasObject
	switch field.Kind {
	case dest.BoolField:
		w = f.check(field, set)
	case dest.ChoiceField:
		w = f.choice(field, set)
	default:
		var e *widget.Entry
		w, e = f.entry(field, set)
		check = func() {
			err := e.Validate() // marks the entry itself
			if touched || f.submitted {
				note.show(err)
			}
		}
	}
	f.checks = append(f.checks, check)
	label := fieldLabel
	if field.Required {
		label += " *"
	}
	if field.Advanced {
		f.advanced = append(f.advanced, withNote(visual(label), w, note))
		return
	}
	f.items = append(f.items, withNote(visual(label), w, note))
}

func (f *destForm) check(field dest.Field, set func(string)) fyne.CanvasObject {
	value := f.edited.Params[field.Key]
	c := widget.NewCheck("", func(on bool) { set(fmt.Sprint(on)); f.revalidate() })
	c.SetChecked(value == "true" || (value == "" && field.Default == "true"))
	return c
}

func (f *destForm) choice(field dest.Field, set func(string)) fyne.CanvasObject {
	kind, value := f.d.Kind, f.edited.Params[field.Key]
	words := make([]string, len(field.Choices))
	for i, c := range field.Choices {
		words[i] = visual(choiceWords(kind, c))
	}
	s := widgets.NewSelect(words, func(w string) {
		if i := slices.Index(words, w); i >= 0 {
			set(field.Choices[i])
		}
		f.revalidate()
	})
	if field.Default != "" {
		s.PlaceHolder = visual(choiceWords(kind, field.Default))
	} else {
		s.PlaceHolder = visual(say("ui.choose"))
	}
	if value != "" {
		s.SetSelected(visual(choiceWords(kind, value)))
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
	if namesToResolve(f.edited) { // names typed by hand become ids, or are refused, before any upload
		b.d.resolveNames(f.edited, func(resolved dest.Destination, err error) {
			if err != nil {
				f.overall.SetText(sentence(errorWords(err)))
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
		f.overall.SetText(sentence(errorWords(err)))
		return
	}
	if ps := b.d.savedDestinations(); f.edited.Name != "" && ps != nil {
		if err := ps.Put(f.edited); err != nil {
			f.overall.SetText(say("ui.form.notSaved", "Why", errorWords(err)))
			return
		}
	}
	f.dlg.Hide()
	b.choose(f.edited)
	b.refreshChoices()
}

// open shows the form in a dialog of its own. With choosing set its button
// says Use, else Save.
func (f *destForm) open(choosing bool) {
	b, kind := f.b, f.d.Kind
	f.form = widgets.NewForm(f.items...)
	f.form.SubmitText = visual(say("ui.form.use"))
	if !choosing {
		f.form.SubmitText = visual(say("ui.form.save"))
	}
	f.form.CancelText = speaking().Action("cancel")
	f.form.OnCancel = func() { f.dlg.Hide() }
	f.form.OnSubmit = f.submit

	content := container.NewVBox(widgets.NewParagraph(say("ui.form.takes", "What", acceptsWords(kind))))
	if words := speaking().KindNote(kind); words != "" {
		note := widgets.NewParagraph(words) // e.g. Google removed the method
		note.ColorName = theme.ColorNameWarning
		content.Add(note)
	}
	content.Add(f.form)
	if len(f.advanced) > 0 {
		content.Add(widget.NewAccordion(widget.NewAccordionItem(visual(say("ui.form.advanced")), widgets.NewForm(f.advanced...))))
	}
	content.Add(f.overall)
	content.Add(b.d.formExtras(f.d))
	scroll := b.d.scrolled(content)
	for _, c := range f.codes {
		c.ScrollsIn(scroll) // the wheel over a JSON field that fits moves the form
	}
	// the dialog draws its title in reading order
	f.dlg = dialog.NewCustomWithoutButtons(kindWords(kind), scroll, b.d.window())
	f.dlg.Resize(b.d.fit(fyne.NewSize(560, 520)))
	b.d.open(f.dlg)
	f.revalidate()
}
