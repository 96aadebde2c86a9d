package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"hoist/engine/dest"
	"hoist/engine/upload"
)

// lookup asks a destination for what an upload made (upload.Lookup), by
// the first of the destination's ways whose permission the sign-in has.
type lookup struct {
	accounts Accounts // nil: no sign-in
	d        dest.Destination
	ways     []dest.FindWay
}

func (l *lookup) Find(ctx context.Context, c *http.Client) (upload.Found, error) {
	var missing error
	for _, w := range l.ways {
		client := c
		if w.Scopes != nil && l.d.NeedsAuth() && l.accounts != nil {
			var err error
			client, err = l.accounts.Client(ctx, l.d.Account, w.Scopes)
			if err != nil {
				if l.accounts.NeedsSignIn(err) {
					missing = err
					continue
				}
				return upload.Found{}, err
			}
			client = named(client)
		}
		return w.Find(ctx, client)
	}
	last := l.ways[len(l.ways)-1]
	return upload.Found{}, &LookAccessError{Scopes: last.Scopes, Err: missing}
}

// LookAccessError says that looking for an upload needs a permission the
// sign-in does not have yet (Scopes); the user may give it, or decline.
type LookAccessError struct {
	Scopes []string
	Err    error // the sign-in's own error
}

func (e *LookAccessError) Error() string {
	return fmt.Sprintf("looking for the upload needs the permission %s: %v", strings.Join(e.Scopes, " "), e.Err)
}

func (e *LookAccessError) Unwrap() error { return e.Err }

// doubt is why a job in Attention may have reached its destination, or
// holds a copy there that is not the file: only Restart sends it again.
type doubt uint8

const (
	doubtNone   doubt = iota
	doubtLook         // nothing can be asked: the user must look
	doubtAsk          // the destination can be asked again (Resume)
	doubtAccess       // asking needs a permission the user may give (SignIn)
)

// doubtOf is the doubt err leaves: an answer lost or naming nothing, a
// copy at the destination that is not the file; doubtNone for any other
// error. canAsk: the destination can be asked (a lookup, or a session).
func doubtOf(err error, canAsk bool) (doubt, []string) {
	var access *LookAccessError
	switch {
	case errors.As(err, &access):
		return doubtAccess, access.Scopes
	case !errors.Is(err, upload.ErrAnswerLost) && !errors.Is(err, upload.ErrNoID) &&
		!errors.Is(err, upload.ErrIncomplete) && !errors.Is(err, upload.ErrMismatch):
		return doubtNone, nil
	case canAsk:
		return doubtAsk, nil
	}
	return doubtLook, nil
}

// doubted reports whether err leaves the destination holding the file, or
// a copy of it, unknown or wrong.
func doubted(err error) bool {
	d, _ := doubtOf(err, false)
	return d != doubtNone
}

// lookScopes are the scopes a sign-in must grant for jb's upload and the
// look it waits for, the upload's own first.
func (jb *job) lookScopes() []string {
	out := slices.Clone(jb.dest.Scopes())
	for _, s := range jb.peek().looks {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
