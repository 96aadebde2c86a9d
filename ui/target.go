package ui

import (
	"encoding/json"
	"maps"
	"reflect"

	"fyne.io/fyne/v2"

	"hoist/engine/dest"
)

// target is where files added now go, kept in the preferences for the next
// start. Another destination (not only another account) is told to changed.
type target struct {
	dest    dest.Destination
	prefs   fyne.Preferences
	changed func()
}

func (t *target) destination() dest.Destination { return t.dest }

// setDestination makes to the destination of files added from now on, and
// keeps it for the next start.
func (t *target) setDestination(to dest.Destination) {
	if to.Params == nil {
		to.Params = map[string]string{}
	}
	was := t.dest
	t.dest = to
	if raw, err := json.Marshal(to); err == nil {
		t.prefs.SetString(prefDestination, string(raw))
	}
	if !sameButAccount(was, to) && t.changed != nil {
		t.changed()
	}
}

// sameButAccount reports whether a and b differ at most in their account
// (settings left empty and settings not given are the same).
func sameButAccount(a, b dest.Destination) bool {
	if !maps.Equal(a.Params, b.Params) {
		return false
	}
	a.Account, a.Params = b.Account, nil
	b.Params = nil
	return reflect.DeepEqual(a, b)
}

// load restores the last destination, or, in sandbox mode, the sandbox.
func (t *target) load(sandbox bool) {
	t.dest = dest.SandboxDestination()
	if sandbox {
		return
	}
	if raw := t.prefs.String(prefDestination); raw != "" {
		var saved dest.Destination
		if json.Unmarshal([]byte(raw), &saved) == nil && saved.Kind.Known() {
			t.dest = saved
		}
		return
	}
	// A first start: Gmail, or, with Google not set up yet, the offer to try the sandbox.
	t.dest = dest.Destination{Kind: dest.FirstGoogle()}
}
