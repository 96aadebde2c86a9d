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

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/words/digits"
)

// ErrInvalid is matched (errors.Is) by FieldErrors.
var ErrInvalid = errors.New("the destination's settings are not valid")

// FieldError is a problem with one setting, said so a form can show it beside the field.
type FieldError struct {
	Field   string    // a Field.Key, or "kind", "name", "baseURL"
	Message string    // a plain sentence, in English
	Fact    fact.Fact // the same as a fact, for the words catalogue; its Field is the field's label
}

// fieldError is a problem with field, as a fact and in English.
func fieldError(field string, f fact.Fact, format string, args ...any) FieldError {
	return FieldError{Field: field, Message: fmt.Sprintf(format, args...), Fact: f}
}

// labelled is a fact of this code about the field labelled label.
func labelled(code fact.Code, label string) fact.Fact {
	return fact.Fact{Code: code, Field: label}
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
	f, _ := e.FactFor(field)
	return f.Message
}

// FactFor is the first problem with field; ok false when it has none.
func (e FieldErrors) FactFor(field string) (FieldError, bool) {
	for _, f := range e {
		if f.Field == field {
			return f, true
		}
	}
	return FieldError{}, false
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
	add := func(field string, f fact.Fact, format string, args ...any) {
		errs = append(errs, fieldError(field, f, format, args...))
	}
	if d.Kind == "" {
		add("kind", fact.Fact{Code: fact.ChooseKind}, "Choose where the files go.")
		return errs
	}
	k, ok := byKind[d.Kind]
	if !ok {
		add("kind", fact.Fact{Code: fact.UnknownKind, Args: map[string]string{"kind": string(d.Kind)}},
			"%q is not a kind of destination Hoist knows.", string(d.Kind))
		return errs
	}
	if d.BaseURL != "" {
		if e, bad := baseProblem("baseURL", "Server address", d.BaseURL); bad {
			errs = append(errs, e)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(d.Params)) {
		if _, ok := d.Kind.field(key); !ok {
			add(key, labelled(fact.NotSetting, key), "%q is not a setting of %s.", key, k.info().Label)
		}
	}
	for _, f := range k.info().Fields {
		v := d.Param(f.Key)
		if v == "" {
			if f.Required {
				add(f.Key, labelled(fact.Required, f.Label), "%s is required.", f.Label)
			}
			continue
		}
		if e, bad := checkField(f, v); bad {
			errs = append(errs, e)
		}
	}
	errs = append(errs, k.validate(d)...)
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// checkField checks one value by the field's kind.
func checkField(f Field, v string) (FieldError, bool) {
	bad := func(code fact.Code, format string, args ...any) (FieldError, bool) {
		return fieldError(f.Key, labelled(code, f.Label), format, append([]any{f.Label}, args...)...), true
	}
	switch f.Kind {
	case NumberField:
		n, err := strconv.ParseInt(digits.ASCII(v), 10, 64)
		if err != nil || n <= 0 {
			return bad(fact.NotNumber, "%s must be a number, like 1234567.")
		}
	case BoolField:
		if _, err := strconv.ParseBool(v); err != nil {
			return bad(fact.NotBool, "%s must be true or false.")
		}
	case ChoiceField:
		if canonicalChoice(f, v) == "" {
			e, _ := bad(fact.NotChoice, "%s must be one of %s.", strings.Join(f.Choices, ", "))
			e.Fact.Args = map[string]string{"choices": strings.Join(f.Choices, ", ")}
			return e, true
		}
	case SizeField:
		if _, err := media.ParseSize(v); err != nil {
			return bad(fact.NotSize, "%s must be a size like 8MiB, 16MB or 1048576.")
		}
	case JSONField:
		if e, wrong := checkJSONObject(f, v); wrong {
			return e, true
		}
	}
	switch f.Key {
	case "user", "threadId", "draftId", "resourceId":
		if strings.ContainsAny(v, badIDLetter) {
			return bad(fact.BadID, "%s cannot contain spaces or any of / ? # %% \\.")
		}
	case "apiVersion":
		if !apiVersion.MatchString(v) {
			return bad(fact.BadVersion, "%s must look like v4.")
		}
	case "metadata":
		if mt := MetadataType([]byte(v)); mt != "" && (!mediaRange.MatchString(mt) || strings.Contains(mt, "*")) {
			e, _ := bad(fact.BadType, "%s names the type %q, which is not a media type like image/png.", mt)
			e.Fact.Google = mt
			return e, true
		}
	case "accept":
		for _, p := range splitList(v) {
			if !mediaRange.MatchString(strings.ToLower(p)) {
				e, _ := bad(fact.BadMediaTypes, "%s must be media types like image/* or application/pdf, separated by commas; %q is not one.", p)
				e.Fact.Google = p
				return e, true
			}
		}
	}
	return FieldError{}, false
}

func checkJSONObject(f Field, v string) (FieldError, bool) {
	var obj map[string]any
	err := json.Unmarshal([]byte(v), &obj)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		at := labelled(fact.BadJSON, f.Label)
		at.Count = int(syntax.Offset)
		return fieldError(f.Key, at, "%s is not valid JSON (the problem is near character %d).", f.Label, syntax.Offset), true
	case err != nil || obj == nil:
		return fieldError(f.Key, labelled(fact.NotObject, f.Label), "%s must be a JSON object, like {\"name\": \"photo.png\"}.", f.Label), true
	}
	return FieldError{}, false
}

// baseProblem says what is wrong with the base address raw (http or https,
// a host, no query) of the field key labelled label; false when nothing is.
func baseProblem(key, label, raw string) (FieldError, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fieldError(key, labelled(fact.NotAddress, label),
			"%s must be a web address starting with https:// or http://, like http://127.0.0.1:8080.", label), true
	}
	if e, bad := hostProblem(key, label, u); bad {
		return e, true
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fieldError(key, labelled(fact.HasQuery, label), "%s must not have anything after ? or #.", label), true
	}
	return FieldError{}, false
}

// hostProblem says what is wrong with a web address's host and port, or
// false when nothing is: a port is a number from 1 to 65535.
func hostProblem(key, label string, u *url.URL) (FieldError, bool) {
	if u.Hostname() == "" {
		return fieldError(key, labelled(fact.NoHost, label), "%s has no server name or address.", label), true
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			f := labelled(fact.BadPort, label)
			f.Args = map[string]string{"port": p}
			return fieldError(key, f, "%s has the port %s; a port is a number from 1 to 65535.", label, p), true
		}
	}
	return FieldError{}, false
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
