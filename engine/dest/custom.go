package dest

import (
	"bytes"
	"encoding/json"
	"fmt"
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

func (customKind) info() KindInfo { return customInfo }

// FromUploadURL is a destination for any upload URL (params["url"]), with
// the other settings params holds (see FromFlags).
func FromUploadURL(params map[string]string) (Destination, error) {
	return FromFlags(string(Custom), params)
}

func (customKind) host(d Destination) string { return d.Param("url") }

// scopes are the "scope" setting (space or comma separated; a short name
// gets Google's prefix).
func (customKind) scopes(d Destination) []string {
	var out []string
	for _, s := range strings.FieldsFunc(d.Param("scope"), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		switch {
		case strings.Contains(s, "://"), s == "openid", s == "email", s == "profile":
		default:
			s = googleScopePrefix + s
		}
		out = append(out, s)
	}
	return out
}

func (customKind) maxSize(d Destination) int64 {
	n, _ := media.ParseSize(d.Param("maxSize"))
	return n
}

// fileType: the metadata's word wins over what the content looks like.
func (customKind) fileType(d Destination, sniffed string) string {
	if named := MetadataType([]byte(d.Param("metadata"))); named != "" {
		return named
	}
	return sniffed
}

// AcceptList is the media types a custom destination accepts; none for any.
func AcceptList(d Destination) []string { return splitList(d.Param("accept")) }

func (customKind) check(d Destination, file media.Info) error {
	if accept := AcceptList(d); len(accept) > 0 && !matchAny(accept, file.MIME) {
		r := d.refuse(RuleType, wrongType, file)
		if file.MIME == "" {
			r = d.refuse(RuleType, unknownType, file)
		} else {
			r.fact.Args["type"] = file.MIME
		}
		r.fact.Args["accept"] = strings.Join(accept, ", ")
		return r
	}
	return nil
}

func (customKind) validate(d Destination) FieldErrors {
	raw := d.Param("url")
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
	var err error
	t.URL, err = d.customURL()
	t.HTTPMethod = d.choice("httpMethod")
	if m := d.Param("metadata"); m != "" {
		var b bytes.Buffer
		if err := json.Compact(&b, []byte(m)); err == nil {
			t.Metadata = b.Bytes()
		}
	}
	return err
}

// customURL is the custom destination's URL, on BaseURL's server when that is set.
func (d Destination) customURL() (string, error) {
	u, err := url.Parse(d.Param("url"))
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

// findable: an address of Cloud Storage's JSON API is sent exactly once
// (storage_object.go); other addresses offer no way to look.
func (customKind) findable(_ Destination, _ media.Info, _ string, p *Plan) {
	exactlyOnce(&p.Target, p)
}
