package dest

import (
	"reflect"
	"strconv"

	"hoist/engine/media"
)

// A kind's settings are typed: each kind reads them into a struct of its
// own, whose fields name the settings' keys in a `key` tag (as rclone's
// backends read their Options), and then speaks of s.Title, not of
// d.Param("title"). Destination.Params stays the settings as they are
// kept (presets, the journal, the form): text by key.
//
// typed reads d's settings into the struct s points to: each field tagged
// key:"…" takes that setting — trimmed, its default when unset, a number's
// digits made ASCII, a choice spelled as the API wants it — as a string, a
// bool, an int64 (a number or a size) or a []string (values separated by
// commas). The settings are valid (Validate) by the time a kind reads them;
// a value that does not parse is the type's zero.
func typed(d Destination, s any) {
	v := reflect.ValueOf(s).Elem()
	t := v.Type()
	for i := range t.NumField() {
		key := t.Field(i).Tag.Get("key")
		if key == "" {
			continue
		}
		raw := d.Param(key)
		if f, ok := d.Kind.field(key); ok && f.Kind == ChoiceField {
			raw = canonicalChoice(f, raw)
		}
		field := v.Field(i)
		switch field.Interface().(type) {
		case string:
			field.SetString(raw)
		case bool:
			b, _ := strconv.ParseBool(raw)
			field.SetBool(b)
		case int64:
			n, err := strconv.ParseInt(raw, 10, 64)
			if err != nil {
				n, _ = media.ParseSize(raw)
			}
			field.SetInt(n)
		case []string:
			field.Set(reflect.ValueOf(splitList(raw)))
		default:
			panic("dest: a setting of type " + field.Type().String() + " (" + key + ")")
		}
	}
}

// settingKeys are the keys a kind's typed settings read.
func settingKeys(s any) []string {
	t := reflect.TypeOf(s)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	for i := range t.NumField() {
		if key := t.Field(i).Tag.Get("key"); key != "" {
			out = append(out, key)
		}
	}
	return out
}
