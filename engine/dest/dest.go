// Package dest knows where files go: Gmail, Campaign Manager 360, Play Games,
// Google Drive, YouTube, any Google upload URL and the built-in sandbox. For
// each destination it checks a file against the destination's rules before
// a byte is sent, builds the upload request, reads the server's answer and
// says what happened as facts (package words makes their sentences). It
// also keeps the user's saved destinations (presets).
package dest

import (
	"slices"
	"strings"
	"time"

	"hoist/digits"
	"hoist/engine/fact"
)

// Kind is a kind of destination. Each kind is defined in a file of its own
// (its constant, fields, rules and facts) and registers itself (kind.go).
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

// Title names the destination: the name its user gave it, or its kind's
// name as --to takes it (package words says a kind in words).
func (d Destination) Title() string {
	if strings.TrimSpace(d.Name) != "" {
		return strings.TrimSpace(d.Name)
	}
	return string(d.Kind)
}

// Server is who answers a destination's uploads, as a fact's sentence
// names it: Google, the sandbox, or a server named by its address.
type Server string

const (
	GoogleServer  Server = "google"
	SandboxServer Server = "sandbox"
	OtherServer   Server = "server"
)

// Server is who answers d's uploads now: the sandbox (the built-in one, or
// the sandbox kind), Google when the sign-in goes with them, else the
// server at the address.
func (d Destination) Server() Server {
	switch {
	case d.BuiltinSandbox, d.Kind.Info().Server == SandboxServer:
		return SandboxServer
	case d.NeedsAuth():
		return GoogleServer
	}
	return OtherServer
}

// NamedByUser is the name that says where d's files go when its kind does
// not (any upload URL): the name its user gave it; "" for the other kinds.
func (d Destination) NamedByUser() string {
	if d.Kind.Info().Server != "" {
		return ""
	}
	return strings.TrimSpace(d.Name)
}

// Fact is a fact of this code about d: its kind, and, where the kind alone
// does not say it, the name that says where files go (a destination named
// by its user) and who answers (Google, or a server other than the kind's).
func (d Destination) Fact(code fact.Code) fact.Fact {
	f := fact.Fact{Code: code, Dest: string(d.Kind)}
	switch server := d.Kind.Info().Server; {
	case server == "": // any upload URL: named by its user
		f.Args = map[string]string{"name": d.Name}
		if d.NeedsAuth() {
			f.Args["who"] = string(GoogleServer)
		}
	case server == GoogleServer && !d.NeedsAuth(): // a Google kind sent elsewhere (--base-url)
		f.Args = map[string]string{"who": string(OtherServer)}
	}
	return f
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

// Field describes one setting of a kind of destination, for forms, flags
// and help. Its words are in the catalogue by rule (package words):
// kind.<kind>.field.<key>.label and .help, and, for each choice,
// kind.<kind>.choice.<value>.
type Field struct {
	Key      string
	Required bool
	Choices  []string // for ChoiceField: the values Google takes
	Default  string
	Kind     FieldKind
	// Advanced settings are rarely changed: forms keep them out of the way.
	Advanced bool
	// Flag is the command line's flag for the setting: "" for the key in
	// kebab case (threadId: --thread-id), "-" for none.
	Flag string
	// List is what Google lists for the value to be chosen from; nil: none.
	List *List
}

// ListOf is the list the kind's setting key is chosen from; nil for none.
func (k Kind) ListOf(key string) *List {
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

// KindInfo describes a kind of destination for the window's forms and the
// command line's flags and help, by keys only: its words are in the words
// catalogue under keys named by a rule (package words): kind.<kind>.name,
// .short, .where, .accepts, .id, .note, .api, .field.<key>.label and .help,
// .choice.<value>, and fact.<code>.<kind> for a fact it says its own way;
// a kind of a family looks under the family's name where its own has none.
type KindInfo struct {
	Kind Kind
	// Family is the name of the kinds that share words and flags with this
	// one ("gmail" for Gmail's four methods); "": the kind alone.
	Family string
	// Rank orders the kinds in a form: lower first.
	Rank int
	// Server is who answers: GoogleServer, SandboxServer, or "" for
	// whatever the settings' address is (the destination is then named
	// by its user).
	Server Server
	Fields []Field
	// Note says the kind has something a user must know before picking it
	// (kind.<kind>.note), e.g. that Google removed the method.
	Note bool
	// API says the kind sends to a Google API that an organisation turns on
	// in Google Cloud Console (kind.<kind>.api names it as the console's
	// library does); false for the sandbox, an upload address and a
	// method Google removed.
	API     bool
	MaxSize int64 // 0 when there is no limit
	// TypeFact is the fact of a file of a type the kind does not take; "":
	// it takes any.
	TypeFact fact.Code
	// VersionKey is the setting that holds the API version, whose default
	// is the version Hoist uses now; "" for a kind without versions.
	VersionKey string
	// Emails: the kind takes emails one at a time, so a mailbox file
	// (.mbox) is sent as its emails, each an upload of its own.
	Emails bool
	// Cost is what one upload costs of the account's quota at Google, in
	// its units, and PerSecond how many units an account may spend in a
	// second (Gmail: 250; 25 per import); 0 for a kind Google paces by
	// bytes, not by requests. The queue spaces uploads to stay under it.
	Cost, PerSecond int
}

// Kinds lists every kind of destination, in the order a form offers them.
func Kinds() []KindInfo {
	out := make([]KindInfo, 0, len(order))
	for _, k := range order {
		out = append(out, k.Info())
	}
	return out
}

// FirstGoogle is the first kind a form offers that goes to Google: the
// window's choice on its first start.
func FirstGoogle() Kind {
	for _, k := range registry {
		if k.info().Server == GoogleServer {
			return k.info().Kind
		}
	}
	return Custom
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
		info.Fields[i] = f
	}
	return info
}

// Field is the kind's setting with this key; ok false when it has none.
func (k Kind) Field(key string) (Field, bool) { return k.field(key) }

// Family is the name of the kinds that share words and flags with k
// ("gmail" for Gmail's four methods), or k's own name.
func (k Kind) Family() string {
	if s, ok := byKind[k]; ok && s.info().Family != "" {
		return s.info().Family
	}
	return string(k)
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
