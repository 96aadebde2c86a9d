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

var customInfo = KindInfo{
	Kind:    Custom,
	Label:   "Any Google upload URL",
	Short:   "Upload URL",
	Accepts: "any file, or the types you list",
	Fields: []Field{
		{
			Key: "url", Label: "Upload URL", Required: true, Kind: TextField, Flag: "-", // --to URL
			Help: "The method's media upload address, e.g. https://storage.googleapis.com/upload/storage/v1/b/BUCKET/o?name=FILE. " +
				"Hoist signs in only to Google addresses (*.googleapis.com); any other server gets the files without your Google sign-in.",
		},
		{
			Key: "httpMethod", Label: "HTTP method", Default: "POST", Kind: ChoiceField,
			Choices: []string{"POST", "PUT", "PATCH"},
			Help:    "POST makes something new; PUT or PATCH updates something that exists (Drive's files.update is PATCH).",
		},
		{
			Key: "metadata", Label: "Metadata (JSON)", Kind: JSONField, Flag: "-", // --metadata, for every kind
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
}

func (customKind) info() KindInfo { return customInfo }

// facts: the destination is named by its user; a file of a type it does
// not take is said with its type and the types taken.
func (customKind) facts() FactWords { return FactWords{NotType: fact.WrongType} }

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

func (customKind) check(d Destination, file media.Info, name string) error {
	if accept := AcceptList(d); len(accept) > 0 && !matchAny(accept, file.MIME) {
		return refuse(RuleType, "%s is %s file; %s accepts only %s.", name, article(typeWords(file.MIME)), d.called(), joinAnd(accept))
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
		return FieldErrors{fieldError("url", labelled(fact.BadURL, "Upload URL"),
			"Upload URL must be a web address starting with https:// (or http:// for a server on this computer or network).")}
	}
	if e, bad := hostProblem("url", "Upload URL", u); bad {
		return FieldErrors{e}
	}
	var errs FieldErrors
	if googleHost(u.Hostname()) {
		if u.Scheme != "https" {
			errs = append(errs, fieldError("url", labelled(fact.GoogleHTTPS, "Upload URL"), "Upload URL must start with https:// for a Google address."))
		}
		if !strings.HasPrefix(u.EscapedPath(), "/upload/") {
			errs = append(errs, fieldError("url", labelled(fact.GooglePath, "Upload URL"),
				"A Google upload URL has /upload/ at the start of its path, like https://storage.googleapis.com/upload/storage/v1/b/BUCKET/o."))
		}
		if len(d.Scopes()) == 0 {
			errs = append(errs, fieldError("scope", labelled(fact.ScopeNeeded, "Permission (scope)"),
				"Enter the permission (scope) this Google API needs, like https://www.googleapis.com/auth/devstorage.read_write."))
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

func (customKind) emptyAnswer(Destination) (Result, bool) {
	return Result{Fact: fact.Fact{Code: fact.Uploaded}}, true
}

// findable: an address of Cloud Storage's JSON API is sent exactly once
// (storage_object.go); other addresses offer no way to look.
func (customKind) findable(_ Destination, _ media.Info, _ string, p *Plan) {
	exactlyOnce(&p.Target, p)
}
