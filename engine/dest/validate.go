package dest

import (
	"encoding/json"
	"errors"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"hoist/digits"
	"hoist/engine/fact"
	"hoist/engine/media"
)

// ErrInvalid is matched (errors.Is) by FieldErrors.
var ErrInvalid = errors.New("dest: invalid settings")

// FieldError is a problem with one setting, said as a fact so a form can
// show it beside the field and the command line after the flag.
type FieldError struct {
	Field string    // a Field.Key, or "kind", "name", "baseURL"
	Fact  fact.Fact // its Field is the setting's key, its Dest the kind
}

// fieldError is a problem of this code with d's setting key.
func fieldError(d Destination, key string, code fact.Code) FieldError {
	return FieldError{Field: key, Fact: fact.Fact{Code: code, Field: key, Dest: string(d.Kind)}}
}

// FieldErrors are all the problems found in a destination's settings.
type FieldErrors []FieldError

// Error lists the problems' facts, for logs.
func (e FieldErrors) Error() string {
	msgs := make([]string, len(e))
	for i, f := range e {
		msgs[i] = f.Fact.String()
	}
	return strings.Join(msgs, "; ")
}

// Is makes errors.Is(err, ErrInvalid) true.
func (e FieldErrors) Is(target error) bool { return target == ErrInvalid }

// For is the code of the first problem with field; "" when it has none.
func (e FieldErrors) For(field string) fact.Code {
	f, _ := e.FactFor(field)
	return f.Fact.Code
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
	if d.Kind == "" {
		errs = append(errs, fieldError(d, "kind", fact.ChooseKind))
		return errs
	}
	k, ok := byKind[d.Kind]
	if !ok {
		e := fieldError(d, "kind", fact.UnknownKind)
		e.Fact.Args = map[string]string{"kind": string(d.Kind)}
		errs = append(errs, e)
		return errs
	}
	if d.BaseURL != "" {
		if e, bad := baseProblem(d, "baseURL", d.BaseURL); bad {
			errs = append(errs, e)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(d.Params)) {
		if _, ok := d.Kind.field(key); !ok {
			errs = append(errs, fieldError(d, key, fact.NotSetting))
		}
	}
	for _, f := range k.info().Fields {
		v := d.Param(f.Key)
		if v == "" {
			if f.Required {
				errs = append(errs, fieldError(d, f.Key, fact.Required))
			}
			continue
		}
		if e, bad := checkField(d, f, v); bad {
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
func checkField(d Destination, f Field, v string) (FieldError, bool) {
	bad := func(code fact.Code) (FieldError, bool) { return fieldError(d, f.Key, code), true }
	switch f.Kind {
	case NumberField:
		n, err := strconv.ParseInt(digits.ASCII(v), 10, 64)
		if err != nil || n <= 0 {
			return bad(fact.NotNumber)
		}
	case BoolField:
		if _, err := strconv.ParseBool(v); err != nil {
			return bad(fact.NotBool)
		}
	case ChoiceField:
		if canonicalChoice(f, v) == "" {
			e, _ := bad(fact.NotChoice)
			e.Fact.Args = map[string]string{"choices": strings.Join(f.Choices, ", ")}
			return e, true
		}
	case SizeField:
		if _, err := media.ParseSize(v); err != nil {
			return bad(fact.NotSize)
		}
	case JSONField:
		if e, wrong := checkJSONObject(d, f, v); wrong {
			return e, true
		}
	}
	switch f.Key {
	case "user", "threadId", "draftId", "resourceId":
		if strings.ContainsAny(v, badIDLetter) {
			return bad(fact.BadID)
		}
	case "apiVersion":
		if !apiVersion.MatchString(v) {
			return bad(fact.BadVersion)
		}
	case "metadata":
		if mt := MetadataType([]byte(v)); mt != "" && (!mediaRange.MatchString(mt) || strings.Contains(mt, "*")) {
			e, _ := bad(fact.BadType)
			e.Fact.Google = mt
			return e, true
		}
	case "accept":
		for _, p := range splitList(v) {
			if !mediaRange.MatchString(strings.ToLower(p)) {
				e, _ := bad(fact.BadMediaTypes)
				e.Fact.Google = p
				return e, true
			}
		}
	}
	return FieldError{}, false
}

func checkJSONObject(d Destination, f Field, v string) (FieldError, bool) {
	var obj map[string]any
	err := json.Unmarshal([]byte(v), &obj)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		e := fieldError(d, f.Key, fact.BadJSON)
		e.Fact.Count = int(syntax.Offset)
		return e, true
	case err != nil || obj == nil:
		return fieldError(d, f.Key, fact.NotObject), true
	}
	return FieldError{}, false
}

// baseProblem says what is wrong with the base address raw (http or https,
// a host, no query) of d's setting key; false when nothing is.
func baseProblem(d Destination, key, raw string) (FieldError, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fieldError(d, key, fact.NotAddress), true
	}
	if e, bad := hostProblem(d, key, u); bad {
		return e, true
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fieldError(d, key, fact.HasQuery), true
	}
	return FieldError{}, false
}

// hostProblem says what is wrong with a web address's host and port, or
// false when nothing is: a port is a number from 1 to 65535.
func hostProblem(d Destination, key string, u *url.URL) (FieldError, bool) {
	if u.Hostname() == "" {
		return fieldError(d, key, fact.NoHost), true
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			e := fieldError(d, key, fact.BadPort)
			e.Fact.Args = map[string]string{"port": p}
			return e, true
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

// isSet reports whether the setting key was given, not left to its default.
func isSet(d Destination, key string) bool { return strings.TrimSpace(d.Params[key]) != "" }

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
