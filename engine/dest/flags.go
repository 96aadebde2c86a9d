package dest

import "strings"

// Flag is a command-line flag that sets a destination's setting, made
// from the kinds' fields: a field's key is written once.
type Flag struct {
	Name string    // without dashes, e.g. "thread-id"
	Key  string    // the setting it sets, e.g. "threadId"
	Uses []FlagUse // the kinds' fields it sets, one per family of kinds
}

// FlagUse is one family of kinds' field a flag sets: its help is that
// field's help, said after the kind's short name (package words).
type FlagUse struct {
	Kind  Kind
	Field Field
}

// Flags are the flags of every kind's settings, in the order of the kinds
// and their fields. Kinds that share a setting share its flag; Gmail's four
// kinds, one family, say it once.
func Flags() []Flag {
	var out []Flag
	at := map[string]int{}
	said := map[string]bool{} // flag name + family
	for _, info := range Kinds() {
		for _, f := range info.Fields {
			name := f.FlagName()
			if name == "" {
				continue
			}
			use := FlagUse{Kind: info.Kind, Field: f}
			i, ok := at[name]
			if !ok {
				at[name] = len(out)
				out = append(out, Flag{Name: name, Key: f.Key, Uses: []FlagUse{use}})
				said[name+"\x00"+info.Kind.Family()] = true
				continue
			}
			if !said[name+"\x00"+info.Kind.Family()] {
				said[name+"\x00"+info.Kind.Family()] = true
				out[i].Uses = append(out[i].Uses, use)
			}
		}
	}
	return out
}

// ChoicesUnsaid are a choice field's values when its help does not name
// them already, for a help text that must list them; nil otherwise.
func (f Field) ChoicesUnsaid(help string) []string {
	if f.Kind != ChoiceField || len(f.Choices) == 0 || strings.Contains(help, f.Choices[0]) {
		return nil
	}
	return f.Choices
}

// KindNames are the kinds' names, as --to takes them.
func KindNames() string {
	names := make([]string, len(order))
	for i, k := range order {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
