package cli

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"hoist/auth"
	"hoist/engine/dest"
	"hoist/engine/google"
	"hoist/words"
)

// resolveNames turns the names given where Google takes ids (Gmail's label
// names with --labels) into those ids, with the lists Google keeps, before
// any upload; a name the list lacks is refused as a fact. The window does
// the same with the same lister (google.Lister.Resolve).
func resolveNames(ctx context.Context, d *dest.Destination, noAuth bool) error {
	typed := d.NamesTyped()
	if len(typed) == 0 {
		return nil
	}
	l := &google.Lister{BaseURL: d.BaseURL}
	f, _ := d.Kind.Field(typed[0].Key)
	flag := "--" + f.FlagName()
	switch {
	case d.BaseURL != "" && !d.NeedsAuth():
		l.Client = &http.Client{}
	case noAuth:
		return &listSentence{typed[0].List, "noSignIn", words.Args{"Flag": flag}}
	default:
		scopes := google.Scopes(*d)
		c, err := (auth.Uploads{Service: sharedAuth()}).Client(ctx, d.Account, scopes)
		if errors.Is(err, auth.ErrSignInAgain) || errors.Is(err, auth.ErrNotSignedIn) {
			cmd := "hoist login --scopes " + strings.Join(auth.ScopeNames(scopes), ",") + accountFlag(d.Account)
			return &listSentence{typed[0].List, "needScope", words.Args{"Flag": flag, "Cmd": cmd}}
		}
		if err != nil {
			return err
		}
		l.Client = c
	}
	resolved, err := l.Resolve(ctx, *d)
	if err != nil {
		return err
	}
	*d = resolved
	return nil
}

// listSentence says that names typed where a list's ids are taken cannot be
// turned into ids as things stand.
type listSentence struct {
	list  *dest.List
	where string
	args  words.Args
}

func (s *listSentence) Error() string { return words.English().ListNames(s.list, s.where, s.args) }

func accountFlag(account string) string {
	if account == "" {
		return ""
	}
	return " --account " + account
}
