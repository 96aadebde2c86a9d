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
	Limit   int64 // RuleSize: the limit the file is over
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
	k := d.of()
	info.MIME = k.fileType(d, info.MIME)
	if err := d.check(info); err != nil {
		return Plan{}, err
	}
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

// MaxSize is the largest file the destination takes; 0 when there is no limit.
func (d Destination) MaxSize() int64 {
	k := d.of()
	if n := k.maxSize(d); n > 0 {
		return n
	}
	return k.info().MaxSize
}

// refuse is a *Refusal for the rule, its sentence made from format.
func refuse(rule Rule, format string, args ...any) error {
	return &Refusal{Rule: rule, Message: fmt.Sprintf(format, args...)}
}

// check applies the destination's rules to the file: the kind's (type,
// email, empty), then its size limit.
func (d Destination) check(info media.Info) error {
	name := info.Name
	if name == "" {
		name = "The file"
	}
	k := d.of()
	if err := k.check(d, info, name); err != nil {
		return err
	}
	limit := d.MaxSize()
	if limit <= 0 || info.Size <= limit {
		return nil
	}
	size, max := sizesApart(info.Size, limit)
	where := d.called()
	if strings.TrimSpace(d.Name) == "" && d.Kind != Custom && d.Kind.Info().Short != "" {
		where = d.Kind.Info().Short
	}
	return &Refusal{Rule: RuleSize, Message: fmt.Sprintf("%s is %s; %s takes files of at most %s.", name, size, where, max), Limit: limit}
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
	case n >= 1<<40 && n%(1<<40) == 0:
		return fmt.Sprintf("%d TB", n>>40)
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
