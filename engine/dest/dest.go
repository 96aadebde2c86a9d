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

	"hoist/words/digits"
)

// Kind is a kind of destination.
type Kind string

const (
	Sandbox     Kind = "sandbox"      // the built-in emulator: try Hoist without Google
	GmailInsert Kind = "gmail-insert" // users.messages.insert
	GmailImport Kind = "gmail-import" // users.messages.import
	GmailSend   Kind = "gmail-send"   // users.messages.send
	GmailDraft  Kind = "gmail-draft"  // users.drafts.create, or update with draftId
	CM360       Kind = "cm360"        // Campaign Manager 360 creativeAssets.insert
	PlayGames   Kind = "playgames"    // Play Games Services Publishing imageConfigurations.upload
	Custom      Kind = "custom"       // any upload URL
)

// Maximum sizes Google publishes for each method.
const (
	GmailMaxSize     int64 = 150 << 20 // insert and import
	GmailSendMaxSize int64 = 35 << 20  // send and drafts
	CM360MaxSize     int64 = 1 << 30
	PlayGamesMaxSize int64 = 15 << 20
)

// CM360Version is the Campaign Manager 360 API version Hoist uses unless a
// destination says otherwise. Google switched v4 off on 26 February 2026.
const CM360Version = "v5"

// PlayGamesRemoved says, where a user picks Play Games, that Google removed
// the method behind it.
const PlayGamesRemoved = "Google has removed image uploads from the Play Games Services Publishing API: " +
	"uploads to Google fail, so set icons in Play Console. The sandbox still imitates the method."

// SandboxPath is where the sandbox takes uploads, under its base URL.
const SandboxPath = "/upload/sandbox/v1/files"

// Default hosts, replaced by Destination.BaseURL when it is set.
const (
	GmailHost     = "https://gmail.googleapis.com"
	CM360Host     = "https://dfareporting.googleapis.com"
	PlayGamesHost = "https://www.googleapis.com"
)

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
	if s, ok := kinds[d.Kind]; ok {
		return s.info.Label
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
	Fields  []Field
	Accepts string // in plain words, e.g. "email files (.eml)"
	MaxSize int64  // 0 when there is no limit
	// Note is what a user must know before picking the kind, e.g. that
	// Google has removed the method; "" when nothing.
	Note string
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
	s, ok := kinds[k]
	if !ok {
		return KindInfo{}
	}
	info := s.info
	info.Kind = k
	info.Fields = make([]Field, len(s.info.Fields))
	for i, f := range s.info.Fields {
		f.Choices = append([]string(nil), f.Choices...)
		f.Words = slices.Clone(f.Words)
		info.Fields[i] = f
	}
	return info
}

// Known reports whether Hoist knows this kind.
func (k Kind) Known() bool {
	_, ok := kinds[k]
	return ok
}

// IsGmail reports whether the kind is one of Gmail's.
func (k Kind) IsGmail() bool {
	switch k {
	case GmailInsert, GmailImport, GmailSend, GmailDraft:
		return true
	}
	return false
}

func (k Kind) field(key string) (Field, bool) {
	for _, f := range kinds[k].info.Fields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// spec is what Hoist knows of a kind beyond what forms show.
type spec struct {
	info   KindInfo
	host   string   // default scheme and host
	scopes []string // narrowest first; only the first is asked for
}

var order = []Kind{Sandbox, GmailInsert, GmailImport, GmailSend, GmailDraft, CM360, PlayGames, Custom}

// Settings shared by the Gmail kinds.
var (
	userField = Field{
		Key: "user", Label: "Mailbox", Default: "me", Kind: TextField,
		Help: "Whose mailbox: \"me\" is the account you sign in with; an administrator may give another address.",
	}
	labelsField = Field{
		Key: "labels", Label: "Labels", Kind: TextField,
		Help: "Label IDs to put on every email, separated by commas, e.g. INBOX, UNREAD, IMPORTANT. Optional.",
	}
	threadField = Field{
		Key: "threadId", Label: "Conversation ID", Kind: TextField,
		Help: "The ID of an existing conversation (thread) the emails belong to. Optional.",
	}
	deletedField = Field{
		Key: "deleted", Label: "Mark as deleted", Default: "false", Kind: BoolField,
		Help: "Put the emails in the mailbox as deleted: only Google Vault administrators will see them.",
	}
)

func dateSourceField(def string) Field {
	return Field{
		Key: "internalDateSource", Label: "Date Gmail shows", Default: def, Kind: ChoiceField,
		Choices: []string{"receivedTime", "dateHeader"},
		Words:   []string{"When it is uploaded", "The date written in the email"},
		Help:    "Which date Gmail shows for each email (receivedTime or dateHeader on the command line).",
	}
}

var kinds = map[Kind]spec{
	Sandbox: {
		info: KindInfo{
			Label:   "Sandbox (try Hoist without Google)",
			Accepts: "any file",
			Fields: []Field{{
				Key: "url", Label: "Sandbox address", Kind: TextField,
				Help: "The address of a running sandbox, e.g. http://127.0.0.1:8080. Leave empty to use the one built into Hoist.",
			}},
		},
	},
	GmailInsert: {
		info: KindInfo{
			Label:   "Gmail — put emails into a mailbox",
			Accepts: "email files (.eml)",
			MaxSize: GmailMaxSize,
			Fields:  []Field{userField, labelsField, threadField, dateSourceField("receivedTime"), deletedField},
		},
		host:   GmailHost,
		scopes: []string{"https://www.googleapis.com/auth/gmail.insert"},
	},
	GmailImport: {
		info: KindInfo{
			Label:   "Gmail — import emails",
			Accepts: "email files (.eml)",
			MaxSize: GmailMaxSize,
			Fields: []Field{userField, labelsField, threadField, dateSourceField("dateHeader"), deletedField,
				{
					Key: "neverMarkSpam", Label: "Never mark as spam", Default: "false", Kind: BoolField,
					Help: "Skip Gmail's spam check for these emails.",
				},
				{
					Key: "processForCalendar", Label: "Add invitations to Calendar", Default: "false", Kind: BoolField,
					Help: "Add the meeting invitations found in the emails to Google Calendar.",
				},
			},
		},
		host:   GmailHost,
		scopes: []string{"https://www.googleapis.com/auth/gmail.insert"},
	},
	GmailSend: {
		info: KindInfo{
			Label:   "Gmail — send emails",
			Accepts: "email files (.eml)",
			MaxSize: GmailSendMaxSize,
			Fields:  []Field{userField, threadField},
		},
		host:   GmailHost,
		scopes: []string{"https://www.googleapis.com/auth/gmail.send"},
	},
	GmailDraft: {
		info: KindInfo{
			Label:   "Gmail — save as drafts",
			Accepts: "email files (.eml)",
			MaxSize: GmailSendMaxSize,
			Fields: []Field{userField, labelsField, threadField, {
				Key: "draftId", Label: "Draft to replace", Kind: TextField,
				Help: "The ID of an existing draft to replace with the file. Leave empty to make new drafts.",
			}},
		},
		host:   GmailHost,
		scopes: []string{"https://www.googleapis.com/auth/gmail.compose"},
	},
	CM360: {
		info: KindInfo{
			Label:   "Campaign Manager 360 — creative assets",
			Accepts: "images, videos, audio, HTML5 zips and other creative files",
			MaxSize: CM360MaxSize,
			Fields: []Field{
				{
					Key: "profileId", Label: "User profile ID", Required: true, Kind: NumberField,
					Help: "The number of your Campaign Manager 360 user profile.",
				},
				{
					Key: "advertiserId", Label: "Advertiser ID", Required: true, Kind: NumberField,
					Help: "The number of the advertiser the assets belong to.",
				},
				{
					Key: "assetType", Label: "Asset type", Kind: ChoiceField,
					Choices: []string{"HTML_IMAGE", "VIDEO", "HTML", "AUDIO"},
					Words:   []string{"Image (HTML_IMAGE)", "Video (VIDEO)", "HTML page or zip (HTML)", "Audio (AUDIO)"},
					Help:    "Leave empty to choose from each file: videos as VIDEO, audio as AUDIO, HTML pages and zips as HTML, everything else as HTML_IMAGE.",
				},
				{
					Key: "apiVersion", Label: "API version", Default: CM360Version, Kind: TextField, Advanced: true,
					Help: "The Campaign Manager 360 API version. Leave " + CM360Version + " unless Google announces a newer one: Google switches old versions off (v4 on 26 February 2026).",
				},
			},
		},
		host:   CM360Host,
		scopes: []string{"https://www.googleapis.com/auth/dfatrafficking"},
	},
	PlayGames: {
		info: KindInfo{
			Label:   "Play Games — achievement and leaderboard icons",
			Accepts: "images",
			Note:    PlayGamesRemoved,
			MaxSize: PlayGamesMaxSize,
			Fields: []Field{
				{
					Key: "resourceId", Label: "Achievement or leaderboard ID", Required: true, Kind: TextField,
					Help: "The ID of the achievement or leaderboard whose icon the image becomes.",
				},
				{
					Key: "imageType", Label: "Image type", Required: true, Kind: ChoiceField,
					Choices: []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"},
					Words:   []string{"Achievement icon", "Leaderboard icon"},
					Help:    "Whether the image is an achievement's icon or a leaderboard's.",
				},
			},
		},
		host:   PlayGamesHost,
		scopes: []string{"https://www.googleapis.com/auth/androidpublisher"},
	},
	Custom: {
		info: KindInfo{
			Label:   "Any Google upload URL",
			Accepts: "any file, or the types you list",
			Fields: []Field{
				{
					Key: "url", Label: "Upload URL", Required: true, Kind: TextField,
					Help: "The method's media upload address, e.g. https://storage.googleapis.com/upload/storage/v1/b/BUCKET/o?name=FILE. " +
						"Hoist signs in only to Google addresses (*.googleapis.com); any other server gets the files without your Google sign-in.",
				},
				{
					Key: "httpMethod", Label: "HTTP method", Default: "POST", Kind: ChoiceField,
					Choices: []string{"POST", "PUT", "PATCH"},
					Help:    "POST makes something new; PUT or PATCH updates something that exists (Drive's files.update is PATCH).",
				},
				{
					Key: "metadata", Label: "Metadata (JSON)", Kind: JSONField,
					Help: "A JSON object sent with each file, e.g. {\"name\": \"photo.png\"}. Optional. A contentType (or mimeType) in it is the type the file is sent as.",
				},
				{
					Key: "scope", Label: "Permission (scope)", Kind: TextField,
					Help: "The OAuth scope the API needs, e.g. https://www.googleapis.com/auth/devstorage.read_write. Needed for Google addresses.",
				},
				{
					Key: "maxSize", Label: "Largest file", Kind: SizeField,
					Help: "Refuse files bigger than this, e.g. 5GiB or 100MB. Optional.",
				},
				{
					Key: "accept", Label: "Accepted types", Kind: TextField,
					Help: "Media types the destination takes, separated by commas, e.g. image/*, application/pdf. Empty means any file.",
				},
			},
		},
	},
}
