package dest

import (
	"bytes"
	"encoding/json"
	"strings"

	"hoist/engine/fact"
)

// ShareExtension ends the name of an exported destination's file.
const ShareExtension = ".hoist-destination"

// shareMark tells a shared destination's file from any other JSON.
const shareMark = "hoist-destination"

// shareVersion is the newest layout of shared destinations Hoist reads.
const shareVersion = 1

// ErrNotShared matches a file that is not an exported destination.
var ErrNotShared error = &Problem{fact: fact.Fact{Code: fact.SharedNotHoist}}

// sharedFile is the layout of an exported destination. It holds what a
// colleague needs to send files to the same place: never an account,
// token or secret — each person signs in as themselves.
type sharedFile struct {
	Format      string      `json:"format"`
	Version     int         `json:"version"`
	Destination Destination `json:"destination"`
}

// Export writes d as a small file to give to someone else; the account
// and the built-in sandbox's address of the moment are left out.
func Export(d Destination) ([]byte, error) {
	d = tidied(d)
	if d.Name == "" {
		return nil, FieldErrors{fieldError(d, "name", fact.NameMissing)}
	}
	if err := d.Validate(); err != nil {
		return nil, err
	}
	d.Account = ""
	if d.BuiltinSandbox {
		d.BaseURL = ""
	}
	b, err := json.MarshalIndent(sharedFile{Format: shareMark, Version: shareVersion, Destination: d}, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// IsShared reports whether data looks like an exported destination, so a
// dropped file can be told from one to upload.
func IsShared(data []byte) bool {
	var probe struct {
		Format string `json:"format"`
	}
	return json.Unmarshal(data, &probe) == nil && probe.Format == shareMark
}

// Import reads an exported destination. A file from a newer Hoist, one
// that is not an exported destination, or one whose destination is not
// complete is refused with a sentence saying so.
func Import(data []byte) (Destination, error) {
	var f struct {
		Format      string          `json:"format"`
		Version     int             `json:"version"`
		Destination json.RawMessage `json:"destination"`
	}
	if err := json.Unmarshal(data, &f); err != nil || f.Format != shareMark {
		return Destination{}, ErrNotShared
	}
	if f.Version > shareVersion {
		return Destination{}, &Problem{fact: fact.Fact{Code: fact.SharedNewer, Count: f.Version}}
	}
	var d Destination
	if err := json.Unmarshal(f.Destination, &d); err != nil {
		why := jsonFact(data, bytes.Index(data, f.Destination), err)
		why.Code = fact.SharedUnreadable
		return Destination{}, &Problem{fact: why, err: err}
	}
	d = tidied(d)
	d.Account = ""
	if err := checkPreset(d); err != nil {
		return Destination{}, &Problem{fact: fact.Fact{Code: fact.SharedIncomplete}, err: err}
	}
	if strings.TrimSpace(d.Name) == "" {
		return Destination{}, &Problem{fact: fact.Fact{Code: fact.SharedNoName}}
	}
	return d, nil
}

// SplitList splits a comma-separated setting such as Gmail's labels,
// dropping empty items.
func SplitList(v string) []string { return splitList(v) }
