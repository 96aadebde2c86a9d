package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"hoist/engine/fact"
)

// ManagedFile is the organisation's destinations in the system-wide
// configuration folder: the same layout as the user's saved destinations.
const ManagedFile = "destinations.json"

// ErrManaged matches the refusal to change or delete a destination that
// comes from the organisation.
var ErrManaged = errors.New("dest: from the organisation")

// readOnly is the refusal to change or delete the organisation's
// destination called name.
func readOnly(name string) error {
	return &Problem{fact: fact.Fact{Code: fact.ManagedReadOnly, Args: map[string]string{"name": name}}, err: ErrManaged}
}

// Problem is an error said by its fact (a file of destinations that
// cannot be read, a destination that may not change…): Error prints the
// fact for logs, Fact gives it to package words; it matches its cause.
type Problem struct {
	fact fact.Fact
	err  error
}

func (p *Problem) Error() string {
	if p.err != nil && p.fact.Code == "" {
		return p.err.Error()
	}
	return p.fact.String()
}
func (p *Problem) Unwrap() error   { return p.err }
func (p *Problem) Fact() fact.Fact { return p.fact }

// managedProblem is a problem of the file path, of this code.
func managedProblem(code fact.Code, path string, f fact.Fact, cause error) error {
	f.Code, f.File = code, path
	return &Problem{fact: f, err: cause}
}

// ErrNoFolder: the system has no folder for settings, so destinations
// cannot be saved.
var ErrNoFolder error = &Problem{fact: fact.Fact{Code: fact.NoSettingsFolder}}

// LoadManaged reads the organisation's destinations from dir. A missing
// folder or file is no destination and no problem. Each problem is a
// sentence that names the file and says what is wrong; the destinations
// that are complete are returned all the same.
func LoadManaged(dir string) ([]Destination, []error) {
	if dir == "" {
		return nil, nil
	}
	path := filepath.Join(dir, ManagedFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{managedProblem(fact.ManagedUnreadable, path, fact.Fact{Google: err.Error()}, err)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var f struct {
		Version      int               `json:"version"`
		Destinations []json.RawMessage `json:"destinations"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, []error{managedProblem(fact.ManagedNotJSON, path, jsonFact(data, 0, err), nil)}
	}
	if f.Version > presetsVersion {
		return nil, []error{managedProblem(fact.ManagedNewer, path, fact.Fact{Count: f.Version}, nil)}
	}
	var list []Destination
	var problems []error
	for i, raw := range f.Destinations {
		var d Destination
		if err := json.Unmarshal(raw, &d); err != nil {
			why := jsonFact(data, bytes.Index(data, raw), err)
			why.Count = i + 1
			problems = append(problems, managedProblem(fact.ManagedEntryUnreadable, path, why, nil))
			continue
		}
		d = tidied(d)
		d.Account = "" // everyone signs in as themselves
		which := fact.Fact{Count: i + 1}
		if d.Name != "" {
			which.Args = map[string]string{"name": d.Name}
		}
		if err := checkPreset(d); err != nil {
			problems = append(problems, managedProblem(fact.ManagedInvalid, path, which, err))
			continue
		}
		if indexOf(list, d.Name) >= 0 {
			problems = append(problems, managedProblem(fact.ManagedSameName, path, which, nil))
			continue
		}
		list = append(list, d)
	}
	sortByName(list)
	return list, problems
}

// presetsVersion is the newest layout of destination files Hoist reads.
const presetsVersion = 1

// jsonFact says what is wrong with JSON data, as a fact's parameters: the
// field whose value has the wrong type (Args "field", and "want": string,
// object, list, number or boolean), or else the parser's own words
// (Google) and, for a syntax error, its line (Args "line"), counted in
// whole, inside which data starts at base.
func jsonFact(whole []byte, base int, err error) fact.Fact {
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		if want := jsonWant(typ.Type.Kind()); want != "" {
			return fact.Fact{Args: map[string]string{"field": typ.Field, "want": want}}
		}
	}
	f := fact.Fact{Google: strings.TrimPrefix(err.Error(), "json: ")}
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		at := min(max(base, 0)+int(syn.Offset), len(whole))
		f.Args = map[string]string{"line": strconv.Itoa(1 + bytes.Count(whole[:at], []byte("\n")))}
	}
	return f
}

// jsonWant names the kind of value a JSON field should hold, as the
// sentences about it do; "" for a kind they do not name.
func jsonWant(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Slice, reflect.Array:
		return "list"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	}
	return ""
}

// Library is every destination the user can choose by name: the
// organisation's (managed: read-only, shown "from your organisation") and
// the user's saved ones. A managed destination's name wins over a saved
// one's; the saved one stays in its file.
type Library struct {
	Saved   *Presets      // may be nil: nothing can be saved
	Managed []Destination // from LoadManaged
}

// List is the managed destinations, then the saved ones whose names are free.
func (l *Library) List() []Destination {
	out := make([]Destination, 0, len(l.Managed))
	for _, d := range l.Managed {
		out = append(out, cloned(d))
	}
	if l.Saved != nil {
		for _, d := range l.Saved.List() {
			if indexOf(l.Managed, d.Name) < 0 {
				out = append(out, d)
			}
		}
	}
	return out
}

// IsManaged reports whether name is a destination from the organisation.
func (l *Library) IsManaged(name string) bool { return indexOf(l.Managed, name) >= 0 }

// Notice is what the saved destinations have to tell once (see
// Presets.Notice); nil when nothing.
func (l *Library) Notice() *fact.Fact {
	if l.Saved == nil {
		return nil
	}
	return l.Saved.Notice()
}

// Get finds a destination by name, ignoring case.
func (l *Library) Get(name string) (Destination, bool) {
	if i := indexOf(l.Managed, name); i >= 0 {
		return cloned(l.Managed[i]), true
	}
	return l.Saved.get(name)
}

// Put saves d, unless its name is a managed destination's.
func (l *Library) Put(d Destination) error {
	if l.IsManaged(d.Name) {
		return readOnly(strings.TrimSpace(d.Name))
	}
	if l.Saved == nil {
		return ErrNoFolder
	}
	return l.Saved.Put(d)
}

// Add saves d only when no destination, managed or saved, has its name.
func (l *Library) Add(d Destination) error {
	if l.IsManaged(d.Name) {
		name := strings.TrimSpace(d.Name)
		e := fieldError(d, "name", fact.ManagedName)
		e.Fact.Args = map[string]string{"name": name}
		return FieldErrors{e}
	}
	if l.Saved == nil {
		return ErrNoFolder
	}
	return l.Saved.Add(d)
}

// Delete forgets a saved destination; managed ones are refused.
func (l *Library) Delete(name string) error {
	if i := indexOf(l.Managed, name); i >= 0 {
		return readOnly(l.Managed[i].Name)
	}
	if l.Saved == nil {
		return noPreset(name)
	}
	return l.Saved.Delete(name)
}

// FromFlags is Presets.FromFlags over every destination of the library.
func (l *Library) FromFlags(kindOrPreset string, params map[string]string) (Destination, error) {
	if i := indexOf(l.Managed, kindOrPreset); i >= 0 && !Kind(strings.ToLower(strings.TrimSpace(kindOrPreset))).Known() {
		one := &Presets{list: []Destination{cloned(l.Managed[i])}}
		return one.FromFlags(kindOrPreset, params)
	}
	return l.Saved.FromFlags(kindOrPreset, params)
}
