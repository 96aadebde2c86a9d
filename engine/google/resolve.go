package google

import (
	"context"
	"strings"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// Scopes are what reading the lists d's typed names need; none when every
// value is an id already.
func Scopes(d dest.Destination) []string {
	var out []string
	for _, t := range d.NamesTyped() {
		out = append(out, t.List.Scope)
	}
	return out
}

// Resolve turns the names typed by hand in d's settings into the ids
// Google takes, with each list they are in, before any upload: an id is
// kept as it is, a name (ignoring case) becomes its item's id. A value
// that is neither is refused with a fact naming it.
func (l *Lister) Resolve(ctx context.Context, d dest.Destination) (dest.Destination, error) {
	for _, t := range d.NamesTyped() {
		items, err := l.List(ctx, t.List, d)
		if err != nil {
			return d, err
		}
		ids, err := resolve(items, t, d)
		if err != nil {
			return d, err
		}
		d = d.WithParam(t.Key, dest.JoinValues(ids))
	}
	return d, nil
}

// resolve is the ids of the values typed for t, with items.
func resolve(items []Item, t dest.Typed, d dest.Destination) ([]string, error) {
	byID := make(map[string]string, len(items))
	byName := make(map[string]string, len(items))
	for _, it := range items {
		byID[it.ID] = it.ID
		for _, n := range it.Names {
			byName[strings.ToLower(n)] = it.ID
		}
	}
	var ids, unknown []string
	seen := map[string]bool{}
	for _, v := range t.Values {
		id, ok := byID[v]
		if !ok {
			id, ok = byName[strings.ToLower(v)]
		}
		if !ok {
			unknown = append(unknown, "\u201c"+v+"\u201d")
			continue
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if len(unknown) > 0 {
		e := listError(fact.UnknownNames, t.List, d, nil).(*Error)
		e.fact.Count, e.fact.Field = len(unknown), t.Key
		e.fact.Args["names"] = strings.Join(unknown, ", ")
		return ids, e
	}
	return ids, nil
}
