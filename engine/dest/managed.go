package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"hoist/engine/fact"
)

// ManagedFile is the organisation's destinations in the system-wide
// configuration folder: the same layout as the user's saved destinations.
const ManagedFile = "destinations.json"

// ErrManaged matches the refusal to change or delete a destination that
// comes from the organisation.
var ErrManaged = errors.New("this destination comes from your organisation")

// ManagedError says that a destination from the organisation cannot be
// changed or deleted here.
type ManagedError struct{ Name string }

func (e *ManagedError) Error() string {
	return fmt.Sprintf("%s comes from your organisation, so it cannot be changed or deleted here. Save your changes under another name.", e.Name)
}

func (e *ManagedError) Is(target error) bool { return target == ErrManaged }

// FileProblem is a problem with a file of destinations (the
// organisation's, or one someone shared): the English sentence of Error,
// and its fact for the words catalogue.
type FileProblem struct {
	msg  string
	fact fact.Fact
	err  error
}

func (p *FileProblem) Error() string   { return p.msg }
func (p *FileProblem) Unwrap() error   { return p.err }
func (p *FileProblem) Fact() fact.Fact { return p.fact }

// managedProblem is a problem of the file path, of this code.
func managedProblem(code fact.Code, path string, f fact.Fact, cause error, format string, args ...any) error {
	f.Code, f.File = code, path
	return &FileProblem{msg: fmt.Sprintf(format, args...), fact: f, err: cause}
}

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
		return nil, []error{managedProblem(fact.ManagedUnreadable, path, fact.Fact{Google: err.Error()}, err,
			"Hoist could not read the destinations your organisation set up (%s); check that everyone may read the file: %v", path, err)}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var f struct {
		Version      int               `json:"version"`
		Destinations []json.RawMessage `json:"destinations"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, []error{managedProblem(fact.ManagedNotJSON, path, fact.Fact{Google: jsonProblem(data, err)}, nil,
			"The destinations your organisation set up (%s) are not valid JSON (%s), so none of them is offered. Ask whoever set Hoist up to correct the file.", path, jsonProblem(data, err))}
	}
	if f.Version > presetsVersion {
		return nil, []error{managedProblem(fact.ManagedNewer, path, fact.Fact{Count: f.Version}, nil,
			"The destinations your organisation set up (%s) were written for a newer Hoist (format %d), so none of them is offered. Update Hoist.", path, f.Version)}
	}
	var list []Destination
	var problems []error
	for i, raw := range f.Destinations {
		var d Destination
		if err := json.Unmarshal(raw, &d); err != nil {
			problems = append(problems, managedProblem(fact.ManagedEntryUnreadable, path, fact.Fact{Count: i + 1, Google: jsonProblem(raw, err)}, nil,
				"Destination %d in %s cannot be read (%s), so it is left out.", i+1, path, jsonProblem(raw, err)))
			continue
		}
		d = d.tidy()
		d.Account = "" // everyone signs in as themselves
		label := fmt.Sprintf("Destination %d in %s", i+1, path)
		which := fact.Fact{Count: i + 1}
		if d.Name != "" {
			label = fmt.Sprintf("The destination %s in %s", d.Name, path)
			which.Args = map[string]string{"name": d.Name}
		}
		if err := checkPreset(d); err != nil {
			problems = append(problems, managedProblem(fact.ManagedInvalid, path, which, err, "%s is left out: %v", label, err))
			continue
		}
		if indexOf(list, d.Name) >= 0 {
			problems = append(problems, managedProblem(fact.ManagedSameName, path, which, nil,
				"%s is left out: another destination in the file has the same name.", label))
			continue
		}
		list = append(list, d)
	}
	sortByName(list)
	return list, problems
}

// presetsVersion is the newest layout of destination files Hoist reads.
const presetsVersion = 1

// jsonProblem says where JSON is broken, in a few words.
func jsonProblem(data []byte, err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		line := 1 + bytes.Count(data[:min(int(syn.Offset), len(data))], []byte("\n"))
		return fmt.Sprintf("line %d: %s", line, syn.Error())
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) && typ.Field != "" {
		return fmt.Sprintf("%s should be %s", typ.Field, jsonTypeWords(typ.Type.Kind().String()))
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

func jsonTypeWords(kind string) string {
	switch kind {
	case "string":
		return "text in quotes"
	case "map", "struct":
		return "an object in braces"
	case "slice":
		return "a list in brackets"
	}
	return "a " + kind
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
		out = append(out, d.clone())
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
		return l.Managed[i].clone(), true
	}
	return l.Saved.get(name)
}

// Put saves d, unless its name is a managed destination's.
func (l *Library) Put(d Destination) error {
	if l.IsManaged(d.Name) {
		return &ManagedError{Name: strings.TrimSpace(d.Name)}
	}
	if l.Saved == nil {
		return errors.New("there is no folder for settings on this computer, so destinations cannot be saved")
	}
	return l.Saved.Put(d)
}

// Add saves d only when no destination, managed or saved, has its name.
func (l *Library) Add(d Destination) error {
	if l.IsManaged(d.Name) {
		name := strings.TrimSpace(d.Name)
		return FieldErrors{fieldError("name", fact.Fact{Code: fact.ManagedName, Args: map[string]string{"name": name}},
			"Your organisation already offers a destination called %s. Rename the other one, then add it.", name)}
	}
	if l.Saved == nil {
		return errors.New("there is no folder for settings on this computer, so destinations cannot be saved")
	}
	return l.Saved.Add(d)
}

// Delete forgets a saved destination; managed ones are refused.
func (l *Library) Delete(name string) error {
	if i := indexOf(l.Managed, name); i >= 0 {
		return &ManagedError{Name: l.Managed[i].Name}
	}
	if l.Saved == nil {
		return fmt.Errorf("%w: %s", ErrNoPreset, name)
	}
	return l.Saved.Delete(name)
}

// FromFlags is Presets.FromFlags over every destination of the library.
func (l *Library) FromFlags(kindOrPreset string, params map[string]string) (Destination, error) {
	if i := indexOf(l.Managed, kindOrPreset); i >= 0 && !Kind(strings.ToLower(strings.TrimSpace(kindOrPreset))).Known() {
		one := &Presets{list: []Destination{l.Managed[i].clone()}}
		return one.FromFlags(kindOrPreset, params)
	}
	return l.Saved.FromFlags(kindOrPreset, params)
}
