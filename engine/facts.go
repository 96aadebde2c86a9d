package engine

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"syscall"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// saidFacts are a job's reason and next step as facts, in no language,
// beside the English sentences the engine still writes. Each holds only
// while the sentence it was set with is the one the job shows, so the many
// places that clear or replace a reason need not know about facts.
type saidFacts struct {
	reason, next       *fact.Fact
	reasonFor, nextFor string
}

// setReasonFact puts f beside the reason jb holds now; Queue.mu must be held.
func (jb *job) setReasonFact(f *fact.Fact) {
	jb.facts.reason, jb.facts.reasonFor = f, jb.reason
}

// setNextFact puts f beside the next step jb holds now; Queue.mu must be held.
func (jb *job) setNextFact(f *fact.Fact) {
	jb.facts.next, jb.facts.nextFor = f, jb.next
}

// reasonFact is the fact behind the reason shown now, or nil.
func (jb *job) reasonFact() *fact.Fact {
	if jb.reason == "" || jb.reason != jb.facts.reasonFor {
		return nil
	}
	return jb.facts.reason
}

// nextFact is the fact behind the next step shown now, or nil.
func (jb *job) nextFact() *fact.Fact {
	if jb.next == "" || jb.next != jb.facts.nextFor {
		return nil
	}
	return jb.facts.next
}

// stopFacts are the facts of an upload failLocked has just stopped for
// err, read from what it decided: the reason and the next step; nil where
// no fact says it yet (the English sentence is shown then).
func stopFacts(jb *job, err error) (reason, next *fact.Fact) {
	var refusal *dest.Refusal
	switch {
	case jb.changed:
		return jb.fact(fact.FileChanged), &fact.Fact{Code: fact.StartOver}
	case jb.locked:
		return jb.fact(fact.KeychainLocked), &fact.Fact{Code: fact.UnlockKeychain}
	case jb.state == Attention:
		return jb.fact(fact.SignInAgain), nil // the next step names the Sign in action: its sentence
	case jb.state == Refused && errors.As(err, &refusal):
		return refusalFact(jb, refusal), nil
	case jb.state != Failed, errors.Is(err, upload.ErrIncomplete), errors.Is(err, upload.ErrMismatch):
		return nil, nil
	case errors.Is(err, media.ErrMissing):
		return jb.fact(fact.FileMissing), &fact.Fact{Code: fact.PutBack}
	}
	f := failFact(jb, err)
	if f != nil {
		f.GaveUp = errors.Is(err, upload.ErrTooManyRetries)
	}
	return f, &fact.Fact{Code: fact.PressRetryAgain}
}

// fact is a fact of this code about jb's file and destination.
func (jb *job) fact(code fact.Code) *fact.Fact {
	f := &fact.Fact{Code: code, File: jb.info.Name, Dest: string(jb.dest.Kind)}
	if said := jb.dest.Kind.FactWords(); said.Where == "" { // named by the user: any URL
		f.Args = map[string]string{"name": jb.dest.Name}
		if said.Who == "" && jb.dest.NeedsAuth() {
			f.Args["who"] = "google"
		}
	}
	return f
}

// refusalFact is the fact of a destination's refusal of a file, or nil for
// a rule no fact says yet.
func refusalFact(jb *job, r *dest.Refusal) *fact.Fact {
	switch r.Rule {
	case dest.RuleSize:
		f := jb.fact(fact.TooLarge)
		f.Size, f.Limit = jb.info.Size, jb.dest.MaxSize()
		if f.Limit <= 0 {
			return nil
		}
		return f
	case dest.RuleEmpty:
		return jb.fact(fact.Empty)
	case dest.RuleEmail:
		return jb.fact(fact.NotEmail)
	case dest.RuleType:
		if code := jb.dest.Kind.FactWords().NotType; code != "" {
			return jb.fact(code)
		}
	}
	return nil
}

// failCodes are the facts of errors that end an upload, checked in order.
var failCodes = []struct {
	errs []error
	code fact.Code
}{
	{[]error{dest.ErrNoSandbox}, fact.NoSandbox},
	{[]error{upload.ErrAnswerLost}, fact.AnswerLost},
	{[]error{upload.ErrSessionExpired}, fact.SessionExpired},
	{[]error{upload.ErrForeignHost}, fact.ForeignHost},
	{[]error{upload.ErrStalled}, fact.Stalled},
	{[]error{upload.ErrBadResponse}, fact.BadResponse},
	{[]error{upload.ErrInvalid}, fact.InvalidSettings},
	{[]error{context.Canceled}, fact.Stopped},
	{[]error{syscall.ECONNREFUSED}, fact.NothingAnswered},
	{[]error{syscall.ENETUNREACH, syscall.EHOSTUNREACH}, fact.Unreachable},
	{[]error{context.DeadlineExceeded}, fact.TimedOut},
	{[]error{syscall.ECONNRESET, syscall.EPIPE}, fact.Dropped},
}

// failFact is the fact of an upload that failed and may be tried again, or
// nil where only the English sentence says it.
func failFact(jb *job, err error) *fact.Fact {
	var api *upload.APIError
	if errors.As(err, &api) && !errors.Is(err, dest.ErrNoSandbox) {
		return apiFact(jb, api)
	}
	for _, c := range failCodes {
		for _, e := range c.errs {
			if errors.Is(err, e) {
				return jb.fact(c.code)
			}
		}
	}
	return nil
}

// apiFact is the fact of a server's refusal by its class; Google's own
// words travel apart from it (JobView.Details).
func apiFact(jb *job, e *upload.APIError) *fact.Fact {
	reason := strings.ToLower(e.Reason)
	var f *fact.Fact
	switch class := e.Class(); {
	case class == upload.ClassRetired, jb.dest.Kind.FactWords().OwnRefusals:
		return nil // said with the version or the kind's own words: the English sentence
	case class == upload.ClassQuota:
		f = jb.fact(fact.ServerLimit)
	case class == upload.ClassAuth || reason == "autherror" || reason == "unauthenticated" || reason == "invalid_grant":
		f = jb.fact(fact.SignInExpired)
	case reason == "accessnotconfigured" || reason == "service_disabled":
		f = jb.fact(fact.ServiceOff)
	case class == upload.ClassPermission, class == upload.ClassNotFound:
		return nil // named with the destination's settings: the English sentence
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
	return f
}

// restartFact says why an upload starts again from the beginning.
func restartFact(jb *job, reason error) *fact.Fact {
	if errors.Is(reason, upload.ErrSessionExpired) {
		return &fact.Fact{Code: fact.RestartExpired}
	}
	return jb.fact(fact.RestartLost)
}

// refusedFact is the fact of a file refused before any byte was sent, as
// look found it, or nil.
func refusedFact(jb *job, look *inspection) *fact.Fact {
	var refusal *dest.Refusal
	if !errors.As(look.err, &refusal) {
		return nil
	}
	f := refusalFact(jb, refusal)
	if f != nil && look.read {
		f.Size = look.info.Size
	}
	return f
}

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
