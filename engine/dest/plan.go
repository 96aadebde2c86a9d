package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"hoist/engine/media"
	"hoist/engine/upload"
)

// Plan is how one file goes to a destination.
type Plan struct {
	Target  upload.Target
	Method  upload.Method // Auto: the uploader chooses by size
	MaxSize int64         // 0 when there is no limit
	Scopes  []string      // what the sign-in must allow; none for the sandbox
}

// Rule names the rule a file breaks.
type Rule string

const (
	RuleType   Rule = "type"   // the destination does not take this kind of file
	RuleEmail  Rule = "email"  // named like an email file, but not one
	RuleEmpty  Rule = "empty"  // zero bytes where the destination needs some
	RuleSize   Rule = "size"   // over the destination's limit
	RuleMethod Rule = "method" // the chosen upload type cannot carry what the destination needs
)

// Refusal is a file the destination cannot take, found before any byte is
// sent. Its message says which rule failed, in plain words. A RuleEmpty
// refusal matches media.ErrEmpty with errors.Is.
type Refusal struct {
	Rule    Rule
	Message string
}

func (r *Refusal) Error() string { return r.Message }

func (r *Refusal) Unwrap() error {
	if r.Rule == RuleEmpty {
		return media.ErrEmpty
	}
	return nil
}

// ErrNoSandbox: a sandbox destination with no address to send to.
var ErrNoSandbox = errors.New("the sandbox is not running, so there is nowhere to send the file")

// Plan checks info against the destination's rules and says how to upload
// it. Invalid settings return FieldErrors; a file the destination cannot take
// returns a *Refusal. Nothing is sent.
func (d Destination) Plan(info media.Info) (Plan, error) {
	if err := d.Validate(); err != nil {
		return Plan{}, err
	}
	if named := d.namedType(); named != "" {
		info.MIME = named // the metadata's word wins over what the content looks like
	}
	if err := d.check(info); err != nil {
		return Plan{}, err
	}
	p := Plan{Method: upload.Auto, MaxSize: d.MaxSize(), Scopes: d.Scopes()}
	t := &p.Target
	t.ContentType = info.MIME
	if t.ContentType == "" {
		t.ContentType = "application/octet-stream"
	}
	var err error
	switch d.Kind {
	case GmailInsert, GmailImport, GmailSend:
		t.ContentType = emailType
		q := url.Values{}
		if v := d.choice("internalDateSource"); v != "" && strings.TrimSpace(d.Params["internalDateSource"]) != "" {
			q.Set("internalDateSource", v)
		}
		for _, key := range []string{"deleted", "neverMarkSpam", "processForCalendar"} {
			if _, ok := d.Kind.field(key); ok && d.flag(key) {
				q.Set(key, "true")
			}
		}
		suffix := map[Kind]string{GmailInsert: "", GmailImport: "/import", GmailSend: "/send"}[d.Kind]
		t.URL, err = d.join(GmailHost, "/upload/gmail/v1/users/"+url.PathEscape(d.Param("user"))+"/messages"+suffix, q)
		if m := d.message(); m.LabelIDs != nil || m.ThreadID != "" {
			t.Metadata = marshal(m)
		}
	case GmailDraft:
		t.ContentType = emailType
		route := "/upload/gmail/v1/users/" + url.PathEscape(d.Param("user")) + "/drafts"
		if id := d.Param("draftId"); id != "" {
			route += "/" + url.PathEscape(id)
			t.HTTPMethod = "PUT"
		}
		t.URL, err = d.join(GmailHost, route, nil)
		t.Metadata = marshal(struct {
			Message message `json:"message"`
		}{d.message()})
	case CM360:
		route := fmt.Sprintf("/upload/dfareporting/%s/userprofiles/%s/creativeAssets/%s/creativeAssets",
			url.PathEscape(d.Param("apiVersion")), d.Param("profileId"), d.Param("advertiserId"))
		t.URL, err = d.join(CM360Host, route, nil)
		t.Metadata = marshal(map[string]any{"assetIdentifier": map[string]string{
			"name": AssetName(info.Name),
			"type": d.assetType(info.MIME),
		}})
		t.FallbackToMultipart = true
	case PlayGames:
		route := fmt.Sprintf("/upload/games/v1configuration/images/%s/imageType/%s",
			url.PathEscape(d.Param("resourceId")), d.choice("imageType"))
		t.URL, err = d.join(PlayGamesHost, route, nil)
		t.FallbackToMultipart = true
	case Custom:
		t.URL, err = d.customURL()
		t.HTTPMethod = d.choice("httpMethod")
		if m := d.Param("metadata"); m != "" {
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(m)); err == nil {
				t.Metadata = b.Bytes()
			}
		}
	case Sandbox:
		base := d.Param("url")
		if base == "" {
			base = d.BaseURL
		}
		if base == "" {
			return Plan{}, ErrNoSandbox
		}
		// The name goes in the query too, so that a simple upload (media),
		// which carries no metadata, keeps it.
		t.URL = strings.TrimRight(base, "/") + SandboxPath + "?" + url.Values{"name": {info.Name}}.Encode()
		t.Metadata = marshal(map[string]string{"name": info.Name})
	}
	if err != nil {
		return Plan{}, err
	}
	if t.HTTPMethod == "" {
		t.HTTPMethod = "POST"
	}
	return p, nil
}

// namedType is the media type the metadata JSON of a custom destination
// names (contentType as Cloud Storage spells it, or mimeType as Drive does),
// lower-cased and without parameters; "" when it names none.
func (d Destination) namedType() string {
	if d.Kind != Custom {
		return ""
	}
	return MetadataType([]byte(d.Param("metadata")))
}

// MetadataType is the media type metadata JSON names in contentType or
// mimeType (the first of them that is set), without parameters; "" when
// it names none or the JSON cannot be read.
func MetadataType(metadata []byte) string {
	var fields struct {
		ContentType any `json:"contentType"`
		MimeType    any `json:"mimeType"`
	}
	if len(bytes.TrimSpace(metadata)) == 0 || json.Unmarshal(metadata, &fields) != nil {
		return ""
	}
	for _, v := range []any{fields.ContentType, fields.MimeType} {
		s, _ := v.(string)
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		if mt, _, err := mime.ParseMediaType(s); err == nil {
			return mt
		}
		return strings.ToLower(s)
	}
	return ""
}

// MetadataMatters reports whether metadata says anything: a simple upload
// (media) cannot carry it, and what it says would be lost. Empty objects,
// lists and strings say nothing, so {"message":{}} does not matter. (The
// sandbox's name also travels in its address.)
func MetadataMatters(metadata []byte) bool {
	if metadata == nil {
		return false
	}
	var v any
	if json.Unmarshal(metadata, &v) != nil {
		return true
	}
	var says func(v any) bool
	says = func(v any) bool {
		switch x := v.(type) {
		case nil:
			return false
		case string:
			return x != ""
		case map[string]any:
			for _, e := range x {
				if says(e) {
					return true
				}
			}
			return false
		case []any:
			for _, e := range x {
				if says(e) {
					return true
				}
			}
			return false
		}
		return true
	}
	return says(v)
}

const emailType = "message/rfc822"

// message is the part of Gmail's Message resource Hoist sets.
type message struct {
	LabelIDs []string `json:"labelIds,omitempty"`
	ThreadID string   `json:"threadId,omitempty"`
}

func (d Destination) message() message {
	var m message
	if _, ok := d.Kind.field("labels"); ok {
		m.LabelIDs = splitList(d.Param("labels"))
	}
	m.ThreadID = d.Param("threadId")
	return m
}

// MaxSize is the largest file the destination takes; 0 when there is no limit.
func (d Destination) MaxSize() int64 {
	if d.Kind == Custom {
		n, _ := media.ParseSize(d.Param("maxSize"))
		return n
	}
	return kinds[d.Kind].info.MaxSize
}

// assetType is the CM360 asset type set, or the one the file's type calls for.
func (d Destination) assetType(mime string) string {
	if t := d.choice("assetType"); t != "" {
		return t
	}
	switch {
	case strings.HasPrefix(mime, "video/"):
		return "VIDEO"
	case strings.HasPrefix(mime, "audio/"):
		return "AUDIO"
	case mime == "text/html", mime == "application/zip", mime == "application/x-zip-compressed":
		return "HTML"
	}
	return "HTML_IMAGE"
}

// notEmail refuses a file that is named or typed as an email but is not one.
const notEmail = "%s does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml)."

// check applies the destination's rules to the file: type, email, empty, size.
func (d Destination) check(info media.Info) error {
	name := info.Name
	if name == "" {
		name = "The file"
	}
	refuse := func(rule Rule, format string, args ...any) error {
		return &Refusal{Rule: rule, Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case d.Kind.IsGmail():
		if !matchType("message/*", info.MIME) {
			if strings.EqualFold(filepath.Ext(info.Name), ".eml") {
				return refuse(RuleEmail, notEmail, name)
			}
			return refuse(RuleType, "%s is not an email file; Gmail accepts only email files (.eml).", name)
		}
		if info.Size == 0 {
			return refuse(RuleEmpty, "%s is empty (0 bytes); Gmail cannot take an empty email.", name)
		}
		if info.Email == nil {
			return refuse(RuleEmail, notEmail, name)
		}
	case d.Kind == PlayGames:
		if !matchType("image/*", info.MIME) {
			return refuse(RuleType, "%s is not an image; Play Games accepts only images.", name)
		}
		if info.Size == 0 {
			return refuse(RuleEmpty, "%s is empty (0 bytes); Play Games cannot take an empty image.", name)
		}
	case d.Kind == CM360:
		if info.Size == 0 {
			return refuse(RuleEmpty, "%s is empty (0 bytes); Campaign Manager 360 cannot take an empty file.", name)
		}
	case d.Kind == Custom:
		if accept := splitList(d.Param("accept")); len(accept) > 0 && !matchAny(accept, info.MIME) {
			return refuse(RuleType, "%s is %s file; %s accepts only %s.", name, article(typeWords(info.MIME)), d.called(), joinAnd(accept))
		}
	}
	limit := d.MaxSize()
	if limit <= 0 || info.Size <= limit {
		return nil
	}
	size, max := sizesApart(info.Size, limit)
	switch d.Kind {
	case GmailInsert, GmailImport:
		return refuse(RuleSize, "%s is %s; Gmail can take emails of at most %s.", name, size, max)
	case GmailSend:
		return refuse(RuleSize, "%s is %s; Gmail can send emails of at most %s.", name, size, max)
	case GmailDraft:
		return refuse(RuleSize, "%s is %s; Gmail drafts can be at most %s.", name, size, max)
	case CM360:
		return refuse(RuleSize, "%s is %s; Campaign Manager 360 assets can be at most %s.", name, size, max)
	case PlayGames:
		return refuse(RuleSize, "%s is %s; Play Games images can be at most %s.", name, size, max)
	default:
		return refuse(RuleSize, "%s is %s; %s takes files of at most %s.", name, size, d.called(), max)
	}
}

// called names the destination inside a sentence.
func (d Destination) called() string {
	if n := strings.TrimSpace(d.Name); n != "" {
		return n
	}
	return "this destination"
}

// typeWords names a media type for a sentence.
func typeWords(mime string) string {
	if mime == "" {
		return "an unknown type of"
	}
	return mime
}

func article(s string) string {
	if strings.HasPrefix(s, "an ") {
		return s
	}
	if s != "" && strings.ContainsRune("aeiouAEIOU", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

func joinAnd(items []string) string {
	if len(items) == 1 {
		return items[0] + " files"
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1] + " files"
}

// matchType reports whether a media type falls under a pattern like image/* or */*.
func matchType(pattern, mime string) bool {
	pattern, mime = strings.ToLower(pattern), strings.ToLower(mime)
	switch {
	case pattern == "*/*":
		return true
	case mime == "":
		return false
	case pattern == mime:
		return true
	}
	if prefix, ok := strings.CutSuffix(pattern, "/*"); ok {
		return strings.HasPrefix(mime, prefix+"/")
	}
	return false
}

func matchAny(patterns []string, mime string) bool {
	for _, p := range patterns {
		if matchType(p, mime) {
			return true
		}
	}
	return false
}

// sizesApart writes a file's size and a limit so that they read differently.
func sizesApart(size, limit int64) (string, string) {
	s, l := media.FormatSize(size), formatLimit(limit)
	if s == l {
		return media.FormatBytes(size), media.FormatBytes(limit)
	}
	return s, l
}

// formatLimit writes a limit as Google's documentation does: 150 MiB is "150 MB".
func formatLimit(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return media.FormatSize(n)
}

// join puts an escaped path (and query) on the destination's base: BaseURL when set, else host.
func (d Destination) join(host, p string, q url.Values) (string, error) {
	base := host
	if d.BaseURL != "" {
		base = strings.TrimSpace(d.BaseURL)
	}
	u := strings.TrimRight(base, "/") + p
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	if _, err := url.Parse(u); err != nil {
		return "", fmt.Errorf("%w: the upload address cannot be built", ErrInvalid)
	}
	return u, nil
}

// customURL is the custom destination's URL, on BaseURL's server when that is set.
func (d Destination) customURL() (string, error) {
	u, err := url.Parse(d.Param("url"))
	if err != nil {
		return "", fmt.Errorf("%w: the upload URL cannot be read", ErrInvalid)
	}
	if d.BaseURL == "" {
		return u.String(), nil
	}
	b, err := url.Parse(strings.TrimSpace(d.BaseURL))
	if err != nil {
		return "", fmt.Errorf("%w: the server address cannot be read", ErrInvalid)
	}
	u.Scheme, u.Host, u.User = b.Scheme, b.Host, nil
	u.Path = strings.TrimRight(b.Path, "/") + u.Path
	u.RawPath = ""
	return u.String(), nil
}

func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // names like "Tom & Jerry.png" stay readable
	if err := enc.Encode(v); err != nil {
		panic(err) // only maps and structs of strings reach here
	}
	return bytes.TrimRight(b.Bytes(), "\n")
}

// AssetName cleans a file name into what Campaign Manager 360 accepts as an
// asset name: letters, digits, '.', '-', '_' and spaces. The name is composed
// first (macOS writes "é" as "e" and an accent); accents and vowel marks left
// over, brackets and quotes are dropped and other characters become '_'; a
// name left with nothing before its extension becomes "asset" plus the extension.
func AssetName(name string) string {
	name = norm.NFC.String(name)
	ext := path.Ext(name)
	base := strings.TrimSuffix(name, ext)
	if base == "" { // ".png": a name that is all extension
		base, ext = ext, ""
	}
	clean := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			switch {
			case unicode.IsLetter(r), unicode.IsDigit(r), r == '.', r == '-', r == '_':
				b.WriteRune(r)
			case unicode.IsSpace(r):
				b.WriteByte(' ')
			case unicode.IsMark(r), strings.ContainsRune("()[]{}<>'\"`«»“”‘’", r):
			default:
				b.WriteByte('_')
			}
		}
		out := strings.Join(strings.Fields(b.String()), " ")
		for strings.Contains(out, "__") {
			out = strings.ReplaceAll(out, "__", "_")
		}
		return out
	}
	base = strings.Trim(clean(base), " ._-")
	ext = strings.TrimRight(clean(ext), " ")
	if ext == "." {
		ext = ""
	}
	if base == "" {
		base = "asset"
	}
	return base + ext
}
