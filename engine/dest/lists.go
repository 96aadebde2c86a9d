package dest

import (
	"net/url"
	"strings"
)

// List is a list Google keeps of the values a setting takes, so that people
// choose names instead of typing ids: the window's pickers offer it, and
// names typed by hand become ids before any upload (IsID). A kind declares
// its lists in its own file, beside the fields whose values they hold;
// package google fetches them and package words says them (list.<name>.…).
type List struct {
	// Name names the list in the catalogue: list.<name>.title, .empty…
	Name string
	// Host is Google's scheme and host; a destination's BaseURL replaces it.
	Host string
	// Scope is what the sign-in must allow to read the list.
	Scope string
	// Path is where the list is read for d's settings, with a query of
	// its own where the settings go there (?project=…); needs is the key
	// of a setting to choose first, when one the list depends on is empty.
	Path func(d Destination) (path, needs string)
	// Query is sent with every request for the list.
	Query url.Values
	// Items is the field of Google's answer that holds the items, ID the
	// item's field that is the value, and Words the item's fields that name
	// it for people, in order.
	Items string
	ID    string
	Words []string
	// Pages: the list comes in pages (nextPageToken, pageToken).
	Pages bool
	// Many: the setting takes several values, separated by commas.
	Many bool
	// IsID reports whether a value typed by hand is an id already; nil
	// means every value is taken as it is typed. A value that is not an id
	// is a name, turned into its id before any upload.
	IsID func(v string) bool
}

// Typed are values of one setting that its list turns from names into ids.
type Typed struct {
	Key    string   // the setting
	List   *List    // its list
	Values []string // what was typed, names and ids alike
}

// NamesTyped are d's settings that hold names where Google takes ids,
// with the lists that turn them into ids; none when every value is an id.
func (d Destination) NamesTyped() []Typed {
	var out []Typed
	for _, f := range d.Kind.Info().Fields {
		if f.List == nil || f.List.IsID == nil {
			continue
		}
		values := splitList(d.Params[f.Key])
		for _, v := range values {
			if !f.List.IsID(v) {
				out = append(out, Typed{Key: f.Key, List: f.List, Values: values})
				break
			}
		}
	}
	return out
}

// WithParam is d with the setting key set to value.
func (d Destination) WithParam(key, value string) Destination {
	d = cloned(d)
	if d.Params == nil {
		d.Params = map[string]string{}
	}
	if strings.TrimSpace(value) == "" {
		delete(d.Params, key)
	} else {
		d.Params[key] = value
	}
	return d
}

// Values are the values a setting of a Many list holds: "INBOX, Label_1".
func Values(v string) []string { return splitList(v) }

// JoinValues writes the values of a Many list's setting as a form shows them.
func JoinValues(values []string) string { return strings.Join(values, ", ") }
