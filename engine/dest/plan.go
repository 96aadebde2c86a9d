package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"path"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Plan is how one file goes to a destination.
type Plan struct {
	Target  upload.Target
	Method  upload.Method // Auto: the uploader chooses by size
	MaxSize int64         // 0 when there is no limit
	Scopes  []string      // what the sign-in must allow; none for the sandbox
	// Find says how to look for what the upload made, best way first; nil
	// when the destination cannot be asked (see PlanFor).
	Find []FindWay
	// Unmarked: the kind finds its uploads by a mark this file lacks (an
	// email without a Message-ID), so Find is nil for the file alone.
	Unmarked bool
	// Since is where the destination stood just before this upload was
	// first sent, as Destination.Mark noted it; set by the caller before
	// Findable, so that Find considers only what was added since.
	Since string
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
// sent. Its fact says which rule failed (package words says it); Error
// prints the fact for logs. A RuleEmpty refusal matches media.ErrEmpty
// with errors.Is.
type Refusal struct {
	Rule Rule
	fact fact.Fact // File, Dest; Size and Limit for RuleSize
}

func (r *Refusal) Error() string { return r.fact.String() }

// Fact says the refusal: the rule's fact about the file and the destination.
func (r *Refusal) Fact() fact.Fact { return r.fact }

// Limit is the largest size the destination takes, for a RuleSize refusal.
func (r *Refusal) Limit() int64 { return r.fact.Limit }

func (r *Refusal) Unwrap() error {
	if r.Rule == RuleEmpty {
		return media.ErrEmpty
	}
	return nil
}

// ErrNoSandbox: a sandbox destination with no address to send to.
var ErrNoSandbox = errors.New("dest: no sandbox address")

// Plan checks the settings and info against the destination's rules and
// says how to upload it: Validate, Check and Build in one. Invalid settings
// return FieldErrors; a file the destination cannot take returns a
// *Refusal. Nothing is sent.
func (d Destination) Plan(info media.Info) (Plan, error) {
	if err := d.Validate(); err != nil {
		return Plan{}, err
	}
	if err := d.Check(info); err != nil {
		return Plan{}, err
	}
	return d.Build(info)
}

// Check applies the destination's rules to the file (its type, emptiness
// and size), for settings its caller has validated: nil or a *Refusal. The
// queue checks each file once, when it is added, and builds its request
// when it is sent (Build).
func (d Destination) Check(info media.Info) error {
	info.MIME = d.of().fileType(d, info.MIME)
	return checkRules(d, info)
}

// Build makes the request that sends info, for settings validated and a
// file checked (Validate, Check) earlier.
func (d Destination) Build(info media.Info) (Plan, error) {
	k := d.of()
	info.MIME = k.fileType(d, info.MIME)
	p := Plan{Method: upload.Auto, MaxSize: d.MaxSize(), Scopes: d.Scopes()}
	t := &p.Target
	t.ContentType = info.MIME
	if t.ContentType == "" {
		t.ContentType = "application/octet-stream"
	}
	if err := k.target(d, info, t); err != nil {
		return Plan{}, err
	}
	if t.HTTPMethod == "" {
		t.HTTPMethod = "POST"
	}
	return p, nil
}

// MetadataType is the media type metadata JSON names in contentType or
// mimeType (the first of them that is set and is not a Google Docs type),
// without parameters; "" when it names none or the JSON cannot be read.
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
		mt, _, err := mime.ParseMediaType(s)
		if err != nil {
			mt = strings.ToLower(s)
		}
		if googleType(mt) {
			continue // a Google Docs type names what Drive converts the file to, not its bytes
		}
		return mt
	}
	return ""
}

// googleType reports whether a media type is one of Google's own
// (application/vnd.google-apps.spreadsheet…): in Drive's mimeType it asks
// for a conversion, and the bytes sent keep the file's own type.
func googleType(mt string) bool {
	return strings.HasPrefix(mt, "application/vnd.google-apps.")
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

// MaxSize is the largest file the destination takes; 0 when there is no limit.
func (d Destination) MaxSize() int64 {
	k := d.of()
	if n := k.maxSize(d); n > 0 {
		return n
	}
	return k.info().MaxSize
}

// refusal is d's refusal of file by the rule, said by the fact of this code.
func refusal(d Destination, rule Rule, code fact.Code, file media.Info) *Refusal {
	f := d.Fact(code)
	f.File = file.Name
	if f.Args == nil {
		f.Args = map[string]string{}
	}
	return &Refusal{Rule: rule, fact: f}
}

// checkRules applies the destination's rules to the file: the kind's (type,
// email, empty), then its size limit.
func checkRules(d Destination, info media.Info) error {
	k := d.of()
	if err := k.check(d, info); err != nil {
		return err
	}
	limit := d.MaxSize()
	if limit <= 0 || info.Size <= limit {
		return nil
	}
	r := refusal(d, RuleSize, fact.TooLarge, info)
	r.fact.Size, r.fact.Limit = info.Size, limit
	return r
}

// RefuseSimple is d's refusal of a simple upload (media) of file, which
// would carry the file alone, when the plan has details to send with it
// that would be lost without a word; nil when nothing would be lost (the
// sandbox's name travels in its address too).
func (d Destination) RefuseSimple(file media.Info, p Plan) error {
	if d.IsSandbox() || !MetadataMatters(p.Target.Metadata) {
		return nil
	}
	return refusal(d, RuleMethod, fact.NeedsDetails, file)
}

// typeRefusal is d's refusal of a file of a type its kind does not take.
func typeRefusal(d Destination, file media.Info) *Refusal {
	return refusal(d, RuleType, d.Kind.Info().TypeFact, file)
}

// emptyRefusal is d's refusal of an empty file.
func emptyRefusal(d Destination, file media.Info) *Refusal {
	return refusal(d, RuleEmpty, fact.Empty, file)
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

// joinURL puts an escaped path (and query) on the destination's base: BaseURL when set, else host.
func joinURL(d Destination, host, p string, q url.Values) (string, error) {
	base := host
	if d.BaseURL != "" {
		base = strings.TrimSpace(d.BaseURL)
	}
	u := strings.TrimRight(base, "/") + p
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	if _, err := url.Parse(u); err != nil {
		return "", fmt.Errorf("%w: url", ErrInvalid)
	}
	return u, nil
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
