package dest

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"hoist/engine/media"
	"hoist/words/digits"
)

// ErrInvalid is matched (errors.Is) by FieldErrors.
var ErrInvalid = errors.New("the destination's settings are not valid")

// FieldError is a problem with one setting, said so a form can show it beside the field.
type FieldError struct {
	Field   string // a Field.Key, or "kind", "name", "baseURL"
	Message string // a plain sentence
}

// FieldErrors are all the problems found in a destination's settings.
type FieldErrors []FieldError

func (e FieldErrors) Error() string {
	msgs := make([]string, len(e))
	for i, f := range e {
		msgs[i] = f.Message
	}
	return strings.Join(msgs, " ")
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e FieldErrors) Is(target error) bool { return target == ErrInvalid }

// For is the message about field, or "".
func (e FieldErrors) For(field string) string {
	for _, f := range e {
		if f.Field == field {
			return f.Message
		}
	}
	return ""
}

var (
	apiVersion  = regexp.MustCompile(`^v[0-9]+(beta[0-9]*)?$`)
	mediaRange  = regexp.MustCompile(`^([a-z0-9][a-z0-9!#$&^_.+-]*|\*)/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$`)
	badIDLetter = " \t\r\n/?#%\\"
)

// Validate checks the settings as a whole; it returns FieldErrors, one per
// setting that is wrong, or nil. It is cheap enough to call on every keystroke.
func (d Destination) Validate() error {
	var errs FieldErrors
	add := func(field, format string, args ...any) {
		errs = append(errs, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if d.Kind == "" {
		add("kind", "Choose where the files go.")
		return errs
	}
	k, ok := byKind[d.Kind]
	if !ok {
		add("kind", "%q is not a kind of destination Hoist knows.", string(d.Kind))
		return errs
	}
	if d.BaseURL != "" {
		if msg := baseProblem(d.BaseURL); msg != "" {
			add("baseURL", "Server address %s", msg)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(d.Params)) {
		if _, ok := d.Kind.field(key); !ok {
			add(key, "%q is not a setting of %s.", key, k.info().Label)
		}
	}
	for _, f := range k.info().Fields {
		v := d.Param(f.Key)
		if v == "" {
			if f.Required {
				add(f.Key, "%s is required.", f.Label)
			}
			continue
		}
		if msg := checkField(f, v); msg != "" {
			add(f.Key, "%s", msg)
		}
	}
	errs = append(errs, k.validate(d)...)
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkField checks one value by the field's kind.
func checkField(f Field, v string) string {
	switch f.Kind {
	case NumberField:
		n, err := strconv.ParseInt(digits.ASCII(v), 10, 64)
		if err != nil || n <= 0 {
			return fmt.Sprintf("%s must be a number, like 1234567.", f.Label)
		}
	case BoolField:
		if _, err := strconv.ParseBool(v); err != nil {
			return fmt.Sprintf("%s must be true or false.", f.Label)
		}
	case ChoiceField:
		if canonicalChoice(f, v) == "" {
			return fmt.Sprintf("%s must be one of %s.", f.Label, strings.Join(f.Choices, ", "))
		}
	case SizeField:
		if _, err := media.ParseSize(v); err != nil {
			return fmt.Sprintf("%s must be a size like 8MiB, 16MB or 1048576.", f.Label)
		}
	case JSONField:
		if msg := checkJSONObject(f.Label, v); msg != "" {
			return msg
		}
	}
	switch f.Key {
	case "user", "threadId", "draftId", "resourceId":
		if strings.ContainsAny(v, badIDLetter) {
			return fmt.Sprintf("%s cannot contain spaces or any of / ? # %% \\.", f.Label)
		}
	case "apiVersion":
		if !apiVersion.MatchString(v) {
			return fmt.Sprintf("%s must look like v4.", f.Label)
		}
	case "metadata":
		if mt := MetadataType([]byte(v)); mt != "" && (!mediaRange.MatchString(mt) || strings.Contains(mt, "*")) {
			return fmt.Sprintf("%s names the type %q, which is not a media type like image/png.", f.Label, mt)
		}
	case "accept":
		for _, p := range splitList(v) {
			if !mediaRange.MatchString(strings.ToLower(p)) {
				return fmt.Sprintf("%s must be media types like image/* or application/pdf, separated by commas; %q is not one.", f.Label, p)
			}
		}
	}
	return ""
}

func checkJSONObject(label, v string) string {
	var obj map[string]any
	err := json.Unmarshal([]byte(v), &obj)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		return fmt.Sprintf("%s is not valid JSON (the problem is near character %d).", label, syntax.Offset)
	case err != nil || obj == nil:
		return fmt.Sprintf("%s must be a JSON object, like {\"name\": \"photo.png\"}.", label)
	}
	return ""
}

// baseProblem says what is wrong with a base address (http or https, a
// host, no query), as the end of a sentence, or "".
func baseProblem(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return "must be a web address starting with https:// or http://, like http://127.0.0.1:8080."
	}
	if msg := hostProblem(u); msg != "" {
		return msg
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "must not have anything after ? or #."
	}
	return ""
}

// hostProblem says what is wrong with a web address's host and port, as
// the end of a sentence, or "": a port is a number from 1 to 65535.
func hostProblem(u *url.URL) string {
	if u.Hostname() == "" {
		return "has no server name or address."
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("has the port %s; a port is a number from 1 to 65535.", p)
		}
	}
	return ""
}

// canonicalChoice is the choice v names, ignoring case, or "".
func canonicalChoice(f Field, v string) string {
	for _, c := range f.Choices {
		if strings.EqualFold(c, v) {
			return c
		}
	}
	return ""
}

// choice is the setting key of a ChoiceField, spelled as the API wants it.
func (d Destination) choice(key string) string {
	f, _ := d.Kind.field(key)
	return canonicalChoice(f, d.Param(key))
}

// flag is a BoolField's value.
func (d Destination) flag(key string) bool {
	b, _ := strconv.ParseBool(d.Param(key))
	return b
}

// splitList splits a comma-separated setting, dropping empty items.
func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// googleHost reports whether a host is Google's API front end, the only
// place a Google sign-in is ever sent.
func googleHost(host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	return host == "googleapis.com" || strings.HasSuffix(host, ".googleapis.com")
}
