package dest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Custom is any upload URL.
const Custom Kind = "custom"

type customKind struct{ base }

func init() { register(customKind{}) }

// The facts of a file of a type the destination's list of accepted types
// leaves out: File, Args["type"] (wrongType), Args["accept"].
const (
	wrongType   fact.Code = "refused.type"
	unknownType fact.Code = "refused.unknownType" // a type Hoist cannot tell
)

var customInfo = KindInfo{
	Kind:     Custom,
	Rank:     1000, // last: the way to any other Google API
	TypeFact: wrongType,
	Fields: []Field{
		{Key: "url", Required: true, Kind: TextField, Flag: "-"}, // --to URL
		{Key: "httpMethod", Default: "POST", Kind: ChoiceField, Choices: []string{"POST", "PUT", "PATCH"}},
		{Key: "metadata", Kind: JSONField, Flag: "-"}, // --metadata, for every kind
		{Key: "scope", Kind: TextField},
		{Key: "maxSize", Kind: SizeField},
		{Key: "accept", Kind: TextField},
	},
}

// customSettings are an upload URL's settings, typed.
type customSettings struct {
	URL        string   `key:"url"`
	HTTPMethod string   `key:"httpMethod"`
	Metadata   string   `key:"metadata"` // a JSON object, as typed
	Scope      string   `key:"scope"`    // space or comma separated
	MaxSize    int64    `key:"maxSize"`  // 0: no limit
	Accept     []string `key:"accept"`   // media types taken; none: any
}

func (customKind) settings() any { return &customSettings{} }

func customOf(d Destination) (s customSettings) { typed(d, &s); return s }

func (customKind) info() KindInfo { return customInfo }

// FromUploadURL is a destination for any upload URL (params["url"]), with
// the other settings params holds (see FromFlags).
func FromUploadURL(params map[string]string) (Destination, error) {
	return FromFlags(string(Custom), params)
}

func (customKind) host(d Destination) string { return customOf(d).URL }

// scopes are the "scope" setting (space or comma separated; a short name
// gets Google's prefix).
func (customKind) scopes(d Destination) []string {
	var out []string
	for _, s := range strings.FieldsFunc(customOf(d).Scope, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		switch {
		case strings.Contains(s, "://"), s == "openid", s == "email", s == "profile":
		default:
			s = googleScopePrefix + s
		}
		out = append(out, s)
	}
	return out
}

func (customKind) maxSize(d Destination) int64 { return customOf(d).MaxSize }

// fileType: the metadata's word wins over what the content looks like.
func (customKind) fileType(d Destination, sniffed string) string {
	if named := MetadataType([]byte(customOf(d).Metadata)); named != "" {
		return named
	}
	return sniffed
}

func (customKind) check(d Destination, file media.Info) error {
	if accept := customOf(d).Accept; len(accept) > 0 && !matchAny(accept, file.MIME) {
		r := refusal(d, RuleType, wrongType, file)
		if file.MIME == "" {
			r = refusal(d, RuleType, unknownType, file)
		} else {
			r.fact.Args["type"] = file.MIME
		}
		r.fact.Args["accept"] = strings.Join(accept, ", ")
		return r
	}
	return nil
}

func (customKind) validate(d Destination) FieldErrors {
	raw := customOf(d).URL
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return FieldErrors{fieldError(d, "url", fact.BadURL)}
	}
	if e, bad := hostProblem(d, "url", u); bad {
		return FieldErrors{e}
	}
	var errs FieldErrors
	if googleHost(u.Hostname()) {
		if u.Scheme != "https" {
			errs = append(errs, fieldError(d, "url", fact.GoogleHTTPS))
		}
		if !strings.HasPrefix(u.EscapedPath(), "/upload/") {
			errs = append(errs, fieldError(d, "url", fact.GooglePath))
		}
		if len(d.Scopes()) == 0 {
			errs = append(errs, fieldError(d, "scope", fact.ScopeNeeded))
		}
	}
	return errs
}

func (customKind) target(d Destination, _ media.Info, t *upload.Target) error {
	s := customOf(d)
	var err error
	t.URL, err = customURL(d, s.URL)
	t.HTTPMethod = s.HTTPMethod
	if m := s.Metadata; m != "" {
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(m)); err == nil {
			t.Metadata = b.Bytes()
		}
	}
	return err
}

// customURL is the upload URL raw, on BaseURL's server when that is set.
func customURL(d Destination, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("%w: url", ErrInvalid)
	}
	if d.BaseURL == "" {
		return u.String(), nil
	}
	b, err := url.Parse(strings.TrimSpace(d.BaseURL))
	if err != nil {
		return "", fmt.Errorf("%w: baseURL", ErrInvalid)
	}
	u.Scheme, u.Host, u.User = b.Scheme, b.Host, nil
	u.Path = strings.TrimRight(b.Path, "/") + u.Path
	u.RawPath = ""
	return u.String(), nil
}

func (customKind) emptyAnswer(Destination) (Result, bool) {
	return Result{Fact: fact.Fact{Code: fact.Uploaded}}, true
}

// refusalFact: Cloud Storage refuses bytes damaged on the way by the
// checksum the upload named (storage_object.go), and, for an address that
// asks for a free name, a name taken while the file was on its way.
func (customKind) refusalFact(d Destination, e *upload.APIError) fact.Code {
	u := customOf(d).URL
	switch {
	case !storageAddress(u):
	case checksumRefused(e):
		return damagedOnWay
	case e.Status == http.StatusPreconditionFailed && strings.EqualFold(e.Reason, "conditionNotMet") && freeNameAsked(u):
		return nameTaken
	}
	return ""
}

// passesLater: bytes damaged on the way to Cloud Storage may arrive whole
// when sent again.
func (customKind) passesLater(d Destination, e *upload.APIError) bool {
	return storageAddress(customOf(d).URL) && checksumRefused(e)
}

// storageAddress reports an upload address of Cloud Storage's JSON API.
func storageAddress(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	_, ok := storagePath(u.Path)
	return ok
}

// findable: an address of Cloud Storage's JSON API is sent exactly once
// (storage_object.go); other addresses offer no way to look. An address
// that asks for a free name (ifGenerationMatch=0) is refused before a byte
// is sent when the name holds an object: Cloud Storage would refuse it.
func (customKind) findable(d Destination, file media.Info, _ string, p *Plan) {
	if !exactlyOnce(&p.Target, p) || !freeNameAsked(p.Target.URL) {
		return
	}
	o, _ := storageTarget(&p.Target)
	taken := refusal(d, ruleTaken, nameTaken, file)
	taken.fact.Args["bucket"], taken.fact.Args["object"] = o.bucket, o.name // "name" is the destination's
	p.Target.Pin = newObjectsOnly{taken: taken}
}
