package words

import (
	"slices"
	"strings"

	"hoist/engine/dest"
)

// A kind of destination brings its own words by rule: its KindInfo names
// keys only (its kind, family, fields and their choices), and its words
// are in the catalogue under
//
//	kind.<kind>.name                   how the picker names it
//	kind.<kind>.short                  a word or two: rows, the command line's flags
//	kind.<kind>.where                  the place files go, inside a sentence (else short)
//	kind.<kind>.accepts                the files it takes
//	kind.<kind>.id                     what the result's id is called
//	kind.<kind>.note                   what to know before picking it (KindInfo.Note)
//	kind.<kind>.api                    the Google API to turn on, as Cloud Console names it (KindInfo.API)
//	kind.<kind>.field.<key>.label      a setting's label
//	kind.<kind>.field.<key>.help       a setting's help ({{.Default}}: its default)
//	kind.<kind>.choice.<value>         a choice's words
//	fact.<code>.<kind>                 a fact the kind says its own way
//
// where a kind of a family (Gmail's four methods) looks under the
// family's name when its own has no such key. So no list of kinds is kept
// outside engine/dest: a new kind needs its file there and its keys here.

// kindKey is the catalogue key of k's words with this suffix: the kind's
// own, else its family's.
func kindKey(k dest.Kind, suffix string) string {
	if key := "kind." + string(k) + "." + suffix; has(key) {
		return key
	}
	return "kind." + k.Family() + "." + suffix
}

// has reports whether the catalogue has key (every language has the same keys).
func has(key string) bool {
	if _, err := loadBundle(); err != nil {
		return false
	}
	return keys[key]
}

// sayKind is k's words with this suffix; ok false when the catalogue has
// none (a kind from a newer Hoist).
func (l *Lang) sayKind(k dest.Kind, suffix string, args Args) (string, bool) {
	key := kindKey(k, suffix)
	if !has(key) {
		return "", false
	}
	return l.Say(key, args), true
}

// KindName names a kind of destination as the window's picker does.
func (l *Lang) KindName(k dest.Kind) string {
	if s, ok := l.sayKind(k, "name", nil); ok {
		return s
	}
	return string(k)
}

// KindShort names a kind in a word or two: "Gmail", "Upload URL".
func (l *Lang) KindShort(k dest.Kind) string {
	if s, ok := l.sayKind(k, "short", nil); ok {
		return s
	}
	return string(k)
}

// KindWhere names the place a kind's files go, inside a sentence: "Gmail",
// "the sandbox"; "this destination" for a kind this version does not know.
func (l *Lang) KindWhere(k dest.Kind) string {
	if s, ok := l.sayKind(k, "where", nil); ok {
		return s
	}
	if s, ok := l.sayKind(k, "short", nil); ok {
		return s
	}
	return l.Say("dest.this", nil)
}

// Accepts says what files a kind takes: "email files (.eml)".
func (l *Lang) Accepts(k dest.Kind) string {
	s, _ := l.sayKind(k, "accepts", nil)
	return s
}

// IDLabel is what a kind's result's id is called: "Message ID".
func (l *Lang) IDLabel(k dest.Kind) string {
	if s, ok := l.sayKind(k, "id", nil); ok {
		return s
	}
	return l.Say("ui.id", nil)
}

// KindNote is what a user must know before picking a kind, e.g. that
// Google removed its method; "" when nothing.
func (l *Lang) KindNote(k dest.Kind) string {
	if !k.Info().Note {
		return ""
	}
	s, _ := l.sayKind(k, "note", nil)
	return s
}

// Field is a destination setting's label and help in l's language, the
// same for the window's form and the command line's flags.
func (l *Lang) Field(k dest.Kind, f dest.Field) (label, help string) {
	return l.FieldLabel(k, f.Key), l.fieldHelp(k, f)
}

// FieldLabel is the label of k's setting key; the setting's name for
// "name" and "baseURL", which every kind has, and the key itself for a
// setting the kind does not have.
func (l *Lang) FieldLabel(k dest.Kind, key string) string {
	switch key {
	case "name":
		return l.Say("ui.form.name", nil)
	case "baseURL":
		return l.Say("field.baseURL", nil)
	}
	if _, ok := k.Field(key); ok {
		if s, ok := l.sayKind(k, "field."+key+".label", nil); ok {
			return s
		}
	}
	return key
}

func (l *Lang) fieldHelp(k dest.Kind, f dest.Field) string {
	s, _ := l.sayKind(k, "field."+f.Key+".help", Args{"Default": l.Isolate(f.Default)})
	return s
}

// Choice is how a choice of k's setting is shown: its words, or the value
// itself where the catalogue has none.
func (l *Lang) Choice(k dest.Kind, value string) string {
	if s, ok := l.sayKind(k, "choice."+value, nil); ok {
		return s
	}
	return value
}

// FlagHelp is the help of a command-line flag that sets destinations'
// settings: for each family of kinds it sets, the kind's short name and
// the setting's help, with the values a choice takes where the help does
// not name them.
func (l *Lang) FlagHelp(f dest.Flag) string {
	parts := make([]string, 0, len(f.Uses))
	for _, u := range f.Uses {
		_, help := l.Field(u.Kind, u.Field)
		text := l.Say("cli.flagFor", Args{"Kind": l.KindShort(u.Kind), "Help": help})
		if choices := u.Field.ChoicesUnsaid(help); choices != nil {
			text = l.Say("cli.flagChoices", Args{"Help": text, "Choices": strings.Join(choices, ", ")})
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}

// KindKeys are the catalogue keys kind k needs, found by the rule (its own
// or its family's): a kind lacking one in any language fails the tests.
func KindKeys(k dest.Kind) []string {
	info := k.Info()
	out := []string{"kind." + string(k) + ".name"}
	for _, s := range []string{"short", "accepts", "id"} {
		out = append(out, kindKey(k, s))
	}
	if info.Note {
		out = append(out, kindKey(k, "note"))
	}
	if info.API {
		out = append(out, kindKey(k, "api"))
	}
	for _, f := range info.Fields {
		out = append(out, kindKey(k, "field."+f.Key+".label"), kindKey(k, "field."+f.Key+".help"))
		if f.List != nil {
			out = append(out, listKeys(f.List)...)
		}
		for _, c := range f.Choices {
			out = append(out, kindKey(k, "choice."+c))
		}
	}
	return out
}

// A list Google keeps of a setting's values (dest.List) brings its words by
// the same rule, under its name:
//
//	list.<name>.title              the picker's title
//	list.<name>.empty              an account that has none
//	list.<name>.signIn             why a sign-in is asked for it (else ui.picker.signIn)
//	list.<name>.hint               how to choose (else ui.picker.clickOne)
//	list.<name>.names.window       names typed where ids are taken, in the window
//	list.<name>.names.noSignIn     …on the command line without a sign-in ({{.Flag}})
//	list.<name>.names.needScope    …on the command line, with the command that allows it ({{.Flag}}, {{.Cmd}})
//
// the last three for a list that turns names into ids (IsID).

// ListTitle is the title of a picker of list.
func (l *Lang) ListTitle(list *dest.List) string { return l.Say("list."+list.Name+".title", nil) }

// ListEmpty says that the account has nothing in list.
func (l *Lang) ListEmpty(list *dest.List) string { return l.Say("list."+list.Name+".empty", nil) }

// ListSignIn says why the picker of list asks for a sign-in.
func (l *Lang) ListSignIn(list *dest.List) string {
	if key := "list." + list.Name + ".signIn"; has(key) {
		return l.Say(key, nil)
	}
	return l.Say("ui.picker.signIn", nil)
}

// ListHint says how to choose from list.
func (l *Lang) ListHint(list *dest.List) string {
	if key := "list." + list.Name + ".hint"; has(key) {
		return l.Say(key, nil)
	}
	return l.Say("ui.picker.clickOne", nil)
}

// ListNames says that names typed where list's ids are taken cannot be
// turned into ids as things stand: where is "window", "noSignIn" or
// "needScope".
func (l *Lang) ListNames(list *dest.List, where string, args Args) string {
	return l.Say("list."+list.Name+".names."+where, args)
}

// listKeys are the catalogue keys a list needs.
func listKeys(list *dest.List) []string {
	keys := []string{"list." + list.Name + ".title", "list." + list.Name + ".empty"}
	if list.IsID != nil {
		for _, w := range []string{"window", "noSignIn", "needScope"} {
			keys = append(keys, "list."+list.Name+".names."+w)
		}
	}
	return keys
}

// Either is "a, b or c" in l's language, each value kept whole inside the
// sentence (isolated) as it is typed or named.
func (l *Lang) Either(values ...string) string {
	kept := make([]string, len(values))
	for i, v := range values {
		kept[i] = l.Isolate(v)
	}
	if len(kept) < 2 {
		return strings.Join(kept, "")
	}
	return l.Say("words.or", Args{"List": strings.Join(kept[:len(kept)-1], l.Say("ui.comma", nil)), "Last": kept[len(kept)-1]})
}

// APIs names the Google APIs Hoist's kinds send to, as Google Cloud
// Console's library lists them: each kind's kind.<kind>.api, once for a
// family, in the kinds' order, for the kinds that say they have one
// (KindInfo.API).
func (l *Lang) APIs() string {
	var names []string
	for _, k := range dest.Kinds() {
		if key := kindKey(k.Kind, "api"); k.API && has(key) {
			if s := l.Say(key, nil); !slices.Contains(names, s) {
				names = append(names, s)
			}
		}
	}
	return l.Either(names...)
}
