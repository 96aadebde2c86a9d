package engine

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"syscall"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/journal"
	"hoist/engine/media"
	"hoist/engine/proxy"
	"hoist/engine/upload"
)

// said is f as a job's reason or next step; nil says nothing.
func said(f *fact.Fact) fact.Said {
	if f == nil {
		return fact.Said{}
	}
	return fact.Said{Fact: f}
}

// savedReason is the reason the journal kept: its fact, or the sentence an
// older Hoist wrote (also shown when this version cannot read the fact).
func savedReason(rec journal.Record) fact.Said {
	if f := factFrom(rec.LastFact); f != nil {
		return said(f)
	}
	return fact.Said{Legacy: rec.LastError}
}

// stopFacts are the facts of an upload failLocked has just stopped for
// err, read from what it decided: the reason and the next step.
func stopFacts(jb *job, err error) (reason, next *fact.Fact) {
	switch {
	case jb.changed:
		return jb.fact(fact.FileChanged), &fact.Fact{Code: fact.StartOver}
	case jb.locked:
		return jb.fact(fact.KeychainLocked), &fact.Fact{Code: fact.UnlockKeychain}
	case jb.doubt != doubtNone:
		return doubtFacts(jb, err)
	case errors.Is(err, proxy.ErrOfficeProxy):
		return errFact(jb, err), nil // what mends it is the proxy's, which its sentence says
	case jb.state == Attention && scopesRefused(err):
		return errFact(jb, err), nil // the next step names the Sign in action
	case jb.state == Attention:
		return jb.fact(fact.SignInToSend), nil // the next step names the Sign in action
	case jb.state == Refused:
		return errFact(jb, err), nil
	case errors.Is(err, media.ErrMissing):
		return jb.fact(fact.FileMissing), &fact.Fact{Code: fact.PutBack}
	}
	return errFact(jb, err), failNext(jb, err)
}

// failNext is what to do about a failed upload, by the kind of failure:
// try again where that may help; where the same file would be refused the
// same way (the settings or the file are wrong, it is too large, the
// account may not upload there), what must change first.
func failNext(jb *job, err error) *fact.Fact {
	var api *upload.APIError
	if errors.As(err, &api) && !upload.Retryable(err) {
		if dest.RefusalPassesLater(jb.dest, api) {
			return &fact.Fact{Code: fact.PressRetryAgain} // the bytes were damaged on the way
		}
		if api.Status == http.StatusPreconditionFailed && dest.RefusalFact(jb.dest, api) != "" {
			// The name was taken meanwhile: a refusal until the user
			// chooses to replace, or renames (never resumed on its own).
			return jb.fact(fact.ChangeAndSend)
		}
		switch api.Class() {
		case upload.ClassInvalid, upload.ClassNotFound, upload.ClassRetired, upload.ClassProtocol:
			return jb.fact(fact.ChangeAndSend)
		case upload.ClassTooLarge:
			return jb.fact(fact.TooLargeThere)
		case upload.ClassPermission:
			return jb.fact(fact.AskAccess)
		}
	}
	return &fact.Fact{Code: fact.PressRetryAgain}
}

// scopesRefused reports Google's refusal of a request whose sign-in lacks a
// permission (scope) it needs: about the sign-in, not about the place.
func scopesRefused(err error) bool {
	var api *upload.APIError
	if !errors.As(err, &api) || api.Status != http.StatusForbidden {
		return false
	}
	switch strings.ToLower(api.Reason) {
	case "insufficientpermissions", "access_token_scope_insufficient":
		return true
	}
	return false
}

// shortScopes are scopes as people read them: gmail.insert, not its URL.
func shortScopes(scopes []string) []string {
	out := make([]string, len(scopes))
	for i, s := range scopes {
		out[i] = strings.TrimPrefix(s, "https://www.googleapis.com/auth/")
	}
	return out
}

// fact is a fact of this code about jb's file and destination.
func (jb *job) fact(code fact.Code) *fact.Fact {
	f := jb.dest.Fact(code)
	f.File = jb.info.Name
	return &f
}

// failCodes are the facts of errors that end an upload, checked in order.
var failCodes = []struct {
	errs []error
	code fact.Code
}{
	{[]error{dest.ErrNoSandbox}, fact.NoSandbox},
	{[]error{upload.ErrAnswerLost}, fact.AnswerLost},
	{[]error{upload.ErrNoID}, fact.NoID},
	{[]error{upload.ErrSessionExpired}, fact.SessionExpired},
	{[]error{upload.ErrForeignHost}, fact.ForeignHost},
	{[]error{upload.ErrStalled}, fact.Stalled},
	{[]error{upload.ErrBadResponse}, fact.BadResponse},
	{[]error{upload.ErrInvalid, dest.ErrInvalid}, fact.InvalidSettings},
	{[]error{context.Canceled}, fact.Stopped},
	{[]error{syscall.ECONNREFUSED}, fact.NothingAnswered},
	{[]error{syscall.ENETUNREACH, syscall.EHOSTUNREACH}, fact.Unreachable},
	{[]error{context.DeadlineExceeded}, fact.TimedOut},
	{[]error{syscall.ECONNRESET, syscall.EPIPE}, fact.Dropped},
}

// errFact is the fact of err, which stopped or delays jb's upload. It is
// never nil: an error no fact names yet is said with its own (redacted)
// words.
func errFact(jb *job, err error) *fact.Fact {
	var (
		refusal *dest.Refusal
		problem *media.Problem
		api     *upload.APIError
		short   *upload.IncompleteError
		differs *upload.MismatchError
		said    interface{ Fact() fact.Fact }
		waiting *upload.SettlingError
		f       *fact.Fact
	)
	switch {
	case errors.As(err, &waiting):
		f = jb.fact(fact.Settling)
		f.Args = mergeArgs(f.Args, map[string]string{"at": waiting.Sent.Format(time.RFC3339)})
	case errors.As(err, &refusal):
		rf := refusal.Fact()
		f = &rf
	case errors.As(err, &problem):
		pf := problem.Fact()
		f = &pf
	case errors.As(err, &said): // e.g. the sign-in's: several accounts and none named
		sf := said.Fact()
		f = jb.fact(sf.Code)
		f.Args = mergeArgs(f.Args, sf.Args)
	case errors.Is(err, upload.ErrFileChanged):
		f = jb.fact(fact.ChangedWhileSent)
	case errors.As(err, &short):
		f = jb.fact(fact.Incomplete)
		f.Size, f.Received = short.Size, short.Received
	case errors.As(err, &differs):
		f = jb.fact(fact.Mismatch)
		f.Args = mergeArgs(f.Args, map[string]string{"check": differs.Check, "server": differs.Server, "file": differs.File})
	case errors.As(err, &api) && !errors.Is(err, dest.ErrNoSandbox):
		f = apiFact(jb, api)
	default:
		f = netFact(jb, err)
	}
	if f == nil {
		f = jb.fact(fact.Failed)
		f.Google = dest.Redact(err.Error())
	}
	if errors.Is(err, upload.ErrTooManyRetries) {
		f.GaveUp = true
	}
	return f
}

// mergeArgs is a with b's values added.
func mergeArgs(a, b map[string]string) map[string]string {
	if a == nil {
		return b
	}
	for k, v := range b {
		a[k] = v
	}
	return a
}

// netFact is the fact of an error about the connection, or nil.
func netFact(jb *job, err error) *fact.Fact {
	for _, c := range failCodes {
		for _, e := range c.errs {
			if errors.Is(err, e) {
				return jb.fact(c.code)
			}
		}
	}
	if code := dest.NetworkFact(err); code != "" {
		return jb.fact(code)
	}
	return nil
}

// apiFact is the fact of a server's refusal, by its class and the
// destination; Google's own words are its Google parameter, shown as they are.
func apiFact(jb *job, e *upload.APIError) *fact.Fact {
	reason := strings.ToLower(e.Reason)
	var f *fact.Fact
	switch class, own := e.Class(), dest.RefusalFact(jb.dest, e); {
	case class == upload.ClassRetired:
		f = jb.fact(fact.Retired)
		f.Args = mergeArgs(f.Args, map[string]string{"version": e.RetiredVersion()})
		if key := jb.dest.Kind.Info().VersionKey; key != "" {
			if field, ok := jb.dest.Kind.Field(key); ok && field.Default != "" {
				f.Args["current"] = field.Default
			}
		}
	case own != "": // what the destination's own refusals mean
		f = jb.fact(own)
	case scopesRefused(e):
		// About the sign-in's permissions, not about the place: signing in again gives them.
		f = jb.fact(fact.MoreAccess)
		f.Args = mergeArgs(f.Args, map[string]string{"scopes": strings.Join(shortScopes(jb.dest.Scopes()), ", ")})
	case class == upload.ClassQuota:
		f = jb.fact(fact.ServerLimit)
	case class == upload.ClassAuth || reason == "autherror" || reason == "unauthenticated" || reason == "invalid_grant":
		f = jb.fact(fact.SignInExpired)
	case reason == "accessnotconfigured" || reason == "service_disabled":
		f = jb.fact(fact.ServiceOff)
	case class == upload.ClassPermission && dest.BlamesAccess(reason):
		f = jb.fact(fact.Forbidden)
		f.Args = mergeArgs(f.Args, dest.FactArgs(jb.dest))
	case class == upload.ClassPermission:
		f = jb.fact(fact.RefusedUpload)
	case class == upload.ClassNotFound:
		f = jb.fact(fact.NotFound)
		f.Args = mergeArgs(f.Args, dest.FactArgs(jb.dest))
	case class == upload.ClassTooLarge || reason == "uploadtoolarge":
		f = jb.fact(fact.ServerTooLarge)
	case class == upload.ClassServer:
		f = jb.fact(fact.ServerTrouble)
	case e.Status == http.StatusBadRequest || e.Status == http.StatusPreconditionFailed:
		f = jb.fact(fact.RefusedFile)
	default:
		f = jb.fact(fact.RefusedUpload)
	}
	f.Status = e.Status
	f.Google = dest.GoogleWords(e)
	return f
}

// SaveFact says why the list of uploads could not be written: the disk that
// holds it is full (File: the list's folder), or the system's own words.
func SaveFact(err error) fact.Fact {
	var full *journal.DiskFullError
	if errors.As(err, &full) {
		return fact.Fact{Code: fact.ListDiskFull, File: full.Dir}
	}
	return fact.Fact{Code: fact.ListNotSaved, Google: dest.Redact(err.Error())}
}

// RecoveryFact is what Open of the list of uploads did about a damaged one
// (see journal.RecoveryError), as a fact.
func RecoveryFact(e *journal.RecoveryError) fact.Fact { return e.Fact() }

// restartFact says why an upload starts again from the beginning.
func restartFact(jb *job, reason error) *fact.Fact {
	if errors.Is(reason, upload.ErrSessionExpired) {
		return &fact.Fact{Code: fact.RestartExpired}
	}
	return jb.fact(fact.RestartLost)
}

// refusedFact is the fact of a file refused before any byte was sent, as
// look found it.
func refusedFact(jb *job, look *inspection) *fact.Fact {
	f := errFact(jb, look.err)
	if f.Code == fact.TooLarge && look.read {
		f.Size = look.info.Size
	}
	return f
}

// sayLocked puts a reason and a next step on jb (nil for none), dropping
// the server's words of an earlier reason; list.mu must be held.
func (jb *job) sayLocked(reason, next *fact.Fact) {
	jb.reason, jb.next, jb.details = said(reason), said(next), ""
}

// resumeFact is a paused job's next step.
func resumeFact(jb *job) *fact.Fact { return jb.fact(fact.ResumeFrom) }

// factJSON is f as the journal keeps it; nil for no fact.
func factJSON(f *fact.Fact) json.RawMessage {
	if f == nil {
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	return b
}

// factFrom reads a fact the journal kept; nil for none, or for one this
// version cannot read (its sentence is shown then).
func factFrom(b json.RawMessage) *fact.Fact {
	if len(b) == 0 {
		return nil
	}
	var f fact.Fact
	if json.Unmarshal(b, &f) != nil || f.Code == "" {
		return nil
	}
	return &f
}
