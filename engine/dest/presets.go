package dest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"hoist/dirs"
	"hoist/engine/fact"
)

// PresetsFile is the name of the saved destinations file in Hoist's config folder.
const PresetsFile = "destinations.json"

// ErrNoPreset is matched by the error for a name no saved destination has.
var ErrNoPreset = errors.New("dest: no saved destination of that name")

// noPreset is the error for a name no saved destination has.
func noPreset(name string) error {
	return &Problem{fact: fact.Fact{Code: fact.NoPreset, Args: map[string]string{"name": name}}, err: ErrNoPreset}
}

// ErrDamaged is matched when the saved destinations file cannot be read.
var ErrDamaged = errors.New("dest: saved destinations damaged")

// DefaultPresetsPath is where the saved destinations live:
// destinations.json in Hoist's settings folder (see dirs); "" when the
// system has no folder for settings (OpenPresets then refuses).
func DefaultPresetsPath() string {
	dir, err := dirs.Config()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, PresetsFile)
}

// Presets are the user's saved destinations, kept in a JSON file written
// atomically with mode 0600. Every change reads the file again first, so the
// window and the command line can both change it. Safe for concurrent use.
type Presets struct {
	path   string
	mu     sync.Mutex
	list   []Destination
	notice *fact.Fact
}

// presetsFile is the file's layout.
type presetsFile struct {
	Version      int           `json:"version"`
	Destinations []Destination `json:"destinations"`
}

// OpenPresets reads the saved destinations at path; a missing file is an
// empty list. A file that cannot be read as destinations is an error
// wrapping ErrDamaged, and is left untouched.
func OpenPresets(path string) (*Presets, error) {
	if path == "" {
		return nil, ErrNoFolder
	}
	p := &Presets{path: path}
	list, err := p.load()
	if err != nil {
		return nil, err
	}
	p.list = list
	p.upgrade(countUpgrades(list))
	return p, nil
}

// upgrade saves the saved destinations that load moved off API versions
// Google switched off, and keeps a notice to show once.
func (p *Presets) upgrade(moved int) {
	if moved == 0 {
		return
	}
	if err := p.change(func(list []Destination) ([]Destination, error) { return list, nil }); err != nil {
		// Still used upgraded (load upgrades them); saved at the next change.
		p.list = upgradeAll(p.list)
	}
	f := UpgradeFact(fact.UpgradedSaved, moved)
	p.notice = &f
}

// Notice is what to tell the user once after OpenPresets, e.g. that saved
// destinations moved to a current API version; nil when nothing.
func (p *Presets) Notice() *fact.Fact { return p.notice }

// Path is the file the presets are kept in.
func (p *Presets) Path() string { return p.path }

// List is every saved destination, by name.
func (p *Presets) List() []Destination {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]Destination, len(p.list))
	for i, d := range p.list {
		out[i] = cloned(d)
	}
	return out
}

// Get finds a saved destination by name, ignoring case.
func (p *Presets) Get(name string) (Destination, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if i := indexOf(p.list, name); i >= 0 {
		return cloned(p.list[i]), true
	}
	return Destination{}, false
}

// Put saves d under its name, replacing a saved destination of the same
// name (ignoring case). d must be valid and have a name that is not a kind's.
func (p *Presets) Put(d Destination) error {
	d = tidied(d)
	if err := checkPreset(d); err != nil {
		return err
	}
	return p.change(func(list []Destination) ([]Destination, error) {
		if i := indexOf(list, d.Name); i >= 0 {
			list[i] = d
			return list, nil
		}
		return append(list, d), nil
	})
}

// Add saves d only when no saved destination has its name yet.
func (p *Presets) Add(d Destination) error {
	d = tidied(d)
	if err := checkPreset(d); err != nil {
		return err
	}
	return p.change(func(list []Destination) ([]Destination, error) {
		if indexOf(list, d.Name) >= 0 {
			return nil, nameUsed(d, d.Name)
		}
		return append(list, d), nil
	})
}

// Rename gives the saved destination from the name to; only case may change
// when to is the same name.
func (p *Presets) Rename(from, to string) error {
	to = strings.TrimSpace(to)
	return p.change(func(list []Destination) ([]Destination, error) {
		i := indexOf(list, from)
		if i < 0 {
			return nil, noPreset(from)
		}
		d := list[i]
		d.Name = to
		if err := checkPreset(d); err != nil {
			return nil, err
		}
		if j := indexOf(list, to); j >= 0 && j != i {
			return nil, nameUsed(d, to)
		}
		list[i] = d
		return list, nil
	})
}

// Delete removes the saved destination called name (ignoring case).
func (p *Presets) Delete(name string) error {
	return p.change(func(list []Destination) ([]Destination, error) {
		i := indexOf(list, name)
		if i < 0 {
			return nil, fmt.Errorf("%w: %s", ErrNoPreset, name)
		}
		return slices.Delete(list, i, i+1), nil
	})
}

// change applies edit to the list as it is on disk now, then saves it.
func (p *Presets) change(edit func([]Destination) ([]Destination, error)) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	list, err := p.load()
	if err != nil {
		return err
	}
	list, err = edit(upgradeAll(list))
	if err != nil {
		return err
	}
	sortByName(list)
	if err := p.save(list); err != nil {
		return err
	}
	p.list = list
	return nil
}

func (p *Presets) load() ([]Destination, error) {
	data, err := os.ReadFile(p.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the saved destinations: %w", err)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	var f presetsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, &Problem{fact: fact.Fact{Code: fact.PresetsDamaged, File: p.path, Google: err.Error()}, err: ErrDamaged}
	}
	sortByName(f.Destinations)
	return f.Destinations, nil
}

// countUpgrades counts the destinations Upgraded would move.
func countUpgrades(list []Destination) int {
	n := 0
	for _, d := range list {
		if _, ok := d.Upgraded(); ok {
			n++
		}
	}
	return n
}

// upgradeAll moves every destination off API versions Google switched off.
func upgradeAll(list []Destination) []Destination {
	for i, d := range list {
		list[i], _ = d.Upgraded()
	}
	return list
}

// save writes the list to a temporary file beside the real one and renames
// it over, so a crash never leaves half a file.
func (p *Presets) save(list []Destination) error {
	if list == nil {
		list = []Destination{}
	}
	data, err := json.MarshalIndent(presetsFile{Version: 1, Destinations: list}, "", "  ")
	if err != nil {
		return fmt.Errorf("writing the saved destinations: %w", err)
	}
	dir := filepath.Dir(p.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("making the settings folder: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".destinations-*.tmp")
	if err != nil {
		return fmt.Errorf("writing the saved destinations: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		tmp.Close()
		return fmt.Errorf("writing the saved destinations: %w", err)
	}
	_, werr := tmp.Write(append(data, '\n'))
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return fmt.Errorf("writing the saved destinations: %w", err)
	}
	if err := os.Rename(tmp.Name(), p.path); err != nil {
		return fmt.Errorf("writing the saved destinations: %w", err)
	}
	return nil
}

// nameUsed is the refusal of a second destination called name.
func nameUsed(d Destination, name string) FieldErrors {
	e := fieldError(d, "name", fact.NameUsed)
	e.Fact.Args = map[string]string{"name": name}
	return FieldErrors{e}
}

// checkPreset checks what a saved destination needs beyond valid settings.
func checkPreset(d Destination) error {
	var errs FieldErrors
	switch {
	case d.Name == "":
		errs = append(errs, fieldError(d, "name", fact.NameMissing))
	case Kind(strings.ToLower(d.Name)).Known():
		e := fieldError(d, "name", fact.NameTaken)
		e.Fact.Args = map[string]string{"name": d.Name}
		errs = append(errs, e)
	}
	if err := d.Validate(); err != nil {
		var fe FieldErrors
		if errors.As(err, &fe) {
			errs = append(errs, fe...)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

func indexOf(list []Destination, name string) int {
	name = strings.TrimSpace(name)
	for i, d := range list {
		if strings.EqualFold(d.Name, name) {
			return i
		}
	}
	return -1
}

func sortByName(list []Destination) {
	sort.SliceStable(list, func(i, j int) bool { return strings.ToLower(list[i].Name) < strings.ToLower(list[j].Name) })
}

// tidied trims the name and drops empty settings.
func tidied(d Destination) Destination {
	d = cloned(d)
	d.Name = strings.TrimSpace(d.Name)
	d.Account = strings.TrimSpace(d.Account)
	d.BaseURL = strings.TrimSpace(d.BaseURL)
	for k, v := range d.Params {
		if strings.TrimSpace(v) == "" {
			delete(d.Params, k)
		}
	}
	if len(d.Params) == 0 {
		d.Params = nil
	}
	return d
}

// cloned is d with maps and lists of its own, so a change to it leaves d as it was.
func cloned(d Destination) Destination {
	if d.Params != nil {
		params := make(map[string]string, len(d.Params))
		for k, v := range d.Params {
			params[k] = v
		}
		d.Params = params
	}
	return d
}

// FromFlags builds a destination of a kind (e.g. "gmail-insert") from the
// command line's settings. The settings "name", "account" and "baseURL" set
// those fields; the rest are the kind's settings. The result is validated.
func FromFlags(kind string, params map[string]string) (Destination, error) {
	var nothing *Presets
	return nothing.FromFlags(kind, params)
}

// FromFlags is the package's FromFlags that also accepts the name of a saved
// destination, whose settings the given ones add to or override (the saved
// one is not changed). A kind's name wins over a saved name. p may be nil.
func (p *Presets) FromFlags(kindOrPreset string, params map[string]string) (Destination, error) {
	name := strings.TrimSpace(kindOrPreset)
	var d Destination
	if k := Kind(strings.ToLower(name)); k.Known() {
		d = Destination{Kind: k}
	} else if saved, ok := p.get(name); ok {
		d = saved
	} else {
		known := make([]string, len(order))
		for i, k := range order {
			known[i] = string(k)
		}
		kinds := strings.Join(known, ", ")
		if name == "" {
			e := fieldError(d, "kind", fact.NoDest)
			e.Fact.Args = map[string]string{"example": "--to gmail-insert", "kinds": kinds}
			return Destination{}, FieldErrors{e}
		}
		e := fieldError(d, "kind", fact.UnknownDest)
		e.Fact.Args = map[string]string{"name": strconv.Quote(name), "kinds": kinds}
		return Destination{}, FieldErrors{e}
	}
	for k, v := range params {
		switch k {
		case "name":
			d.Name = v
		case "account":
			d.Account = v
		case "baseURL", "base-url", "baseurl":
			d.BaseURL = v
		default:
			if d.Params == nil {
				d.Params = map[string]string{}
			}
			d.Params[k] = v
		}
	}
	d = tidied(d)
	if err := d.Validate(); err != nil {
		return Destination{}, err
	}
	return d, nil
}

// get is Get that accepts a nil store.
func (p *Presets) get(name string) (Destination, bool) {
	if p == nil || name == "" {
		return Destination{}, false
	}
	return p.Get(name)
}
