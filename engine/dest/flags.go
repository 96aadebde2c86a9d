package dest

import "strings"

// Flag is a command-line flag that sets a destination's setting, made
// from the kinds' fields: a field's key and help are written once.
type Flag struct {
	Name string // without dashes, e.g. "thread-id"
	Key  string // the setting it sets, e.g. "threadId"
	Help string // "Gmail: The ID of an existing conversation …"
}

// Flags are the flags of every kind's settings, in the order of the kinds
// and their fields. Kinds that share a setting share its flag.
func Flags() []Flag {
	var out []Flag
	at := map[string]int{}
	said := map[string]bool{} // flag name + help, so that Gmail's four kinds say it once
	for _, info := range Kinds() {
		who := info.Short
		if who == "" {
			who = info.Label
		}
		for _, f := range info.Fields {
			name := f.FlagName()
			if name == "" {
				continue
			}
			help := who + ": " + f.Help
			if f.Kind == ChoiceField && len(f.Choices) > 0 && !strings.Contains(f.Help, f.Choices[0]) {
				help += " (" + strings.Join(f.Choices, ", ") + ")"
			}
			i, ok := at[name]
			if !ok {
				at[name] = len(out)
				out = append(out, Flag{Name: name, Key: f.Key, Help: help})
				said[name+"\x00"+help] = true
				continue
			}
			if !said[name+"\x00"+help] {
				said[name+"\x00"+help] = true
				out[i].Help += " " + help
			}
		}
	}
	return out
}

// KindNames are the kinds' names, as --to takes them.
func KindNames() string {
	names := make([]string, len(order))
	for i, k := range order {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}
