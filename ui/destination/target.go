package destination

import (
	"encoding/json"
	"maps"
	"reflect"

	"fyne.io/fyne/v2"

	"hoist/engine/dest"
)

// Target is where files added now go, kept in the preferences for the next
// start. Another destination (not only another account) is told to changed.
type Target struct {
	Dest    dest.Destination
	Prefs   fyne.Preferences
	Changed func()
}

func (t *Target) Destination() dest.Destination { return t.Dest }

// SetDestination makes to the destination of files added from now on, and
// keeps it for the next start.
func (t *Target) SetDestination(to dest.Destination) {
	if to.Params == nil {
		to.Params = map[string]string{}
	}
	was := t.Dest
	t.Dest = to
	if raw, err := json.Marshal(to); err == nil {
		t.Prefs.SetString(PrefDestination, string(raw))
	}
	if !SameButAccount(was, to) && t.Changed != nil {
		t.Changed()
	}
}

// SameButAccount reports whether a and b differ at most in their account
// (settings left empty and settings not given are the same).
func SameButAccount(a, b dest.Destination) bool {
	if !maps.Equal(a.Params, b.Params) {
		return false
	}
	a.Account, a.Params = b.Account, nil
	b.Params = nil
	return reflect.DeepEqual(a, b)
}

// Load restores the last destination, or, in sandbox mode, the sandbox.
func (t *Target) Load(sandbox bool) {
	t.Dest = dest.SandboxDestination()
	if sandbox {
		return
	}
	if raw := t.Prefs.String(PrefDestination); raw != "" {
		var saved dest.Destination
		if json.Unmarshal([]byte(raw), &saved) == nil && saved.Kind.Known() {
			t.Dest = saved
		}
		return
	}
	// A first start: Gmail, or, with Google not set up yet, the offer to try the sandbox.
	t.Dest = dest.Destination{Kind: dest.FirstGoogle()}
}
