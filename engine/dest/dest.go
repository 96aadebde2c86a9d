// Package dest knows where files go: Gmail, Campaign Manager 360, Play Games,
// any Google upload URL and the built-in sandbox. For each destination it
// checks a file against the destination's rules before a byte is sent, builds
// the upload request, reads the server's answer and explains errors in plain
// sentences. It also keeps the user's saved destinations (presets).
package dest

import (
	"slices"
	"strings"
	"time"

	"hoist/engine/fact"
	"hoist/words/digits"
)

// Kind is a kind of destination. Each kind is defined in a file of its own
// (its constant, fields, rules and words) and listed in registry (kind.go).
type Kind string

// Destination is where a batch of files goes. It is stored in presets and
// in the journal as JSON.
type Destination struct {
	Name    string `json:"name,omitempty"`    // the user's name for it; may be empty
	Kind    Kind   `json:"kind"`              //
	Account string `json:"account,omitempty"` // the Google account to sign in as
	// BaseURL, when set, replaces the scheme and host (and prefixes the path)
	// of every request, so any destination can point at the sandbox or a test
	// server. Google sign-in is attached only to Google hosts (see NeedsAuth).
	BaseURL string `json:"baseURL,omitempty"`
	// BuiltinSandbox says the files go to the sandbox built into Hoist,
	// wherever it listens now: BaseURL is its address when last used, and the
	// address of the running sandbox takes its place (see the engine's Queue).
	BuiltinSandbox bool              `json:"builtinSandbox,omitempty"`
	Params         map[string]string `json:"params,omitempty"` // settings of the kind; see Kinds
	// SessionLifetime is how long an upload session of this destination can be
	// resumed; 0 means the app's setting (Google's sessions last one week).
	SessionLifetime time.Duration `json:"sessionLifetime,omitempty"`
}

// Param is the setting key, trimmed, or the kind's default when it is not set.
func (d Destination) Param(key string) string {
	if v := strings.TrimSpace(d.Params[key]); v != "" {
		if f, ok := d.Kind.field(key); ok && f.Kind == NumberField {
			return digits.ASCII(v) // typed with Persian or Arabic-Indic digits
		}
		return v
	}
	if f, ok := d.Kind.field(key); ok {
		return f.Default
	}
	return ""
}

// Title is how the destination is named to the user: its name, or its kind.
func (d Destination) Title() string {
	if strings.TrimSpace(d.Name) != "" {
		return strings.TrimSpace(d.Name)
	}
	if k, ok := byKind[d.Kind]; ok {
		return k.info().Label
	}
	return string(d.Kind)
}

// FieldKind says how a setting is entered and checked.
type FieldKind string

const (
	TextField   FieldKind = "text"
	NumberField FieldKind = "number"
	BoolField   FieldKind = "bool"
	ChoiceField FieldKind = "choice"
	JSONField   FieldKind = "json"
	SizeField   FieldKind = "size"
)

// Field describes one setting of a kind of destination, for forms and help.
type Field struct {
	Key      string
	Label    string
	Help     string
	Required bool
	Choices  []string // for ChoiceField: the values Google takes
	Words    []string // the same choices in plain words, for forms; nil: the values themselves
	Default  string
	Kind     FieldKind
	// Advanced settings are rarely changed: forms keep them out of the way.
	Advanced bool
	// Flag is the command line's flag for the setting: "" for the key in
	// kebab case (threadId: --thread-id), "-" for none.
	Flag string
	// List is what Google lists for the value to be chosen from; "": none.
	List List
}

// List is a list Google keeps of the values a setting takes: forms offer
// to choose from it, and names in it are turned into ids.
type List string

// The lists Hoist can ask Google for.
const (
	ProfileList    List = "cm360.profiles"    // Campaign Manager 360's user profiles
	AdvertiserList List = "cm360.advertisers" // a profile's advertisers
	LabelList      List = "gmail.labels"      // a mailbox's labels
)

// ListOf is the list the kind's setting key is chosen from; "" for none.
func (k Kind) ListOf(key string) List {
	f, _ := k.field(key)
	return f.List
}

// FlagName is the command line's flag for the setting (without dashes);
// "" when it has none.
func (f Field) FlagName() string {
	switch f.Flag {
	case "-":
		return ""
	case "":
		var b strings.Builder
		for i, r := range f.Key {
			if 'A' <= r && r <= 'Z' {
				if i > 0 {
					b.WriteByte('-')
				}
				r += 'a' - 'A'
			}
			b.WriteRune(r)
		}
		return b.String()
	}
	return f.Flag
}

// ChoiceWords is how a form shows the choice v: its plain words, or v.
func (f Field) ChoiceWords(v string) string {
	if i := slices.Index(f.Choices, v); i >= 0 && i < len(f.Words) {
		return f.Words[i]
	}
	return v
}

// ChoiceValue is the value behind words a form shows (see ChoiceWords).
func (f Field) ChoiceValue(words string) string {
	if i := slices.Index(f.Words, words); i >= 0 && i < len(f.Choices) {
		return f.Choices[i]
	}
	return words
}

// KindInfo describes a kind of destination for the window's forms and the
// command line's help.
type KindInfo struct {
	Kind    Kind
	Label   string
	Short   string // the destination in a word or two, for rows: "Gmail"
	IDLabel string // what the result's ID is called: "Message ID"; "" for "ID"
	Fields  []Field
	Accepts string // in plain words, e.g. "email files (.eml)"
	MaxSize int64  // 0 when there is no limit
	// Note is what a user must know before picking the kind, e.g. that
	// Google has removed the method; "" when nothing.
	Note string
}

// FactWords name, by their keys in the words catalogue, the sentences that
// say a kind's facts: where its files go, who answers, and the facts it
// says its own way. What is left empty is said as for any destination.
type FactWords struct {
	Where string // the place files go, "dest.gmail"; "": the destination's own name
	Who   string // who answers, "who.google"; "": the server (Google when the fact says so)
	// Keys are the facts the kind says its own way, e.g. fact.TooLarge:
	// "fact.refused.tooLarge.drive".
	Keys map[fact.Code]string
	// NotType is the fact of a file of a type the kind does not take; "":
	// only the English sentence says it.
	NotType fact.Code
	// Version is the API version Hoist uses now, named beside the one
	// Google switched off; "" for a kind without versions.
	Version string
}

// Kinds lists every kind of destination, in the order a form offers them.
func Kinds() []KindInfo {
	out := make([]KindInfo, 0, len(order))
	for _, k := range order {
		out = append(out, k.Info())
	}
	return out
}

// Info describes the kind; a zero KindInfo for an unknown kind.
func (k Kind) Info() KindInfo {
	s, ok := byKind[k]
	if !ok {
		return KindInfo{}
	}
	info := s.info()
	info.Kind = k
	fields := info.Fields
	info.Fields = make([]Field, len(fields))
	for i, f := range fields {
		f.Choices = slices.Clone(f.Choices)
		f.Words = slices.Clone(f.Words)
		info.Fields[i] = f
	}
	return info
}

// FactWords names the sentences that say the kind's facts; all empty for an
// unknown kind, which is said as any destination.
func (k Kind) FactWords() FactWords {
	if s, ok := byKind[k]; ok {
		return s.facts()
	}
	return FactWords{}
}

// Known reports whether Hoist knows this kind.
func (k Kind) Known() bool {
	_, ok := byKind[k]
	return ok
}

func (k Kind) field(key string) (Field, bool) {
	s, ok := byKind[k]
	if !ok {
		return Field{}, false
	}
	for _, f := range s.info().Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}
