package engine

import (
	"errors"
	"strings"
	"time"

	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/upload"
)

// doubtFacts are the reason and next step of a job stopped in doubt: when
// it last went out, what to look for, the copy the destination holds.
func doubtFacts(jb *job, err error) (reason, next *fact.Fact) {
	var lost *upload.AnswerLostError
	var short *upload.IncompleteError
	var differs *upload.MismatchError
	look := map[doubt]string{doubtLook: "look", doubtAsk: "ask", doubtAccess: "allow"}[jb.doubt]
	switch {
	case errors.As(err, &short), errors.As(err, &differs):
		reason = errFact(jb, err)
		body := []byte(nil)
		if short != nil {
			body = short.Body
		} else {
			body = differs.Body
		}
		if r, perr := dest.ParseResult(jb.dest, body); perr == nil {
			reason.Args = mergeArgs(reason.Args, nonEmpty("id", r.ID, "url", r.URL))
		}
		next = jb.fact(fact.WrongCopy)
	case errors.Is(err, upload.ErrNoID):
		reason = jb.fact(fact.NoID)
		next = doubtNext(jb)
	default:
		code := map[doubt]fact.Code{doubtLook: fact.LostLook, doubtAsk: fact.LostAsk, doubtAccess: fact.LostAllow}[jb.doubt]
		if code == fact.LostLook && jb.unmarked {
			code = fact.LostUnmarked // the destination could be asked, were the file marked
		}
		reason = jb.fact(code)
		if errors.As(err, &lost) && !lost.Sent.IsZero() {
			reason.Args = mergeArgs(reason.Args, map[string]string{"at": lost.Sent.Format(time.RFC3339)})
		}
		var trouble *upload.APIError
		if lost != nil && errors.As(lost.Cause, &trouble) && trouble.Status >= 500 {
			reason.Status = trouble.Status // the server's answer after the whole file went out
		}
		next = doubtNext(jb)
		if at := reason.Arg("at"); at != "" {
			next.Args = mergeArgs(next.Args, map[string]string{"at": at})
		}
	}
	reason.Args = mergeArgs(reason.Args, map[string]string{"look": look})
	if jb.doubt == doubtAccess {
		reason.Args["scopes"] = strings.Join(jb.peek().looks, " ")
	}
	reason.Google = dest.GoogleWords(err)
	return reason, next
}

// doubtNext is what to do about a job in doubt, by how it can be settled.
func doubtNext(jb *job) *fact.Fact {
	switch jb.doubt {
	case doubtAsk:
		return jb.fact(fact.AskAgain)
	case doubtAccess:
		return jb.fact(fact.AllowLook)
	}
	f := jb.fact(fact.LookFor)
	f.Args = mergeArgs(f.Args, map[string]string{"item": jb.dest.ItemName(jb.info)})
	return f
}

// doubtFrom is the doubt a job reopened from the list stopped in, read
// from its reason.
func doubtFrom(s State, reason *fact.Fact) (doubt, []string) {
	if s != Attention || reason == nil {
		return doubtNone, nil
	}
	switch reason.Code {
	case fact.LostLook, fact.LostUnmarked, fact.LostAsk, fact.LostAllow, fact.NoID, fact.Incomplete, fact.Mismatch:
	default:
		return doubtNone, nil
	}
	switch reason.Arg("look") {
	case "ask":
		return doubtAsk, nil
	case "allow":
		return doubtAccess, strings.Fields(reason.Arg("scopes"))
	}
	return doubtLook, nil
}

// nonEmpty is the pairs of names and values whose value is not "".
func nonEmpty(kv ...string) map[string]string {
	out := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

// retryAtFact says when a job told to wait tries again, by the clock:
// asked, the server asked for the wait; else it is Hoist's own backoff.
func retryAtFact(at time.Time, asked bool) *fact.Fact {
	code := fact.RetryLater
	if asked {
		code = fact.RetryAt
	}
	return &fact.Fact{Code: code, Args: map[string]string{"at": at.Format(time.RFC3339)}}
}

// canceledLocked forgets jb's session, but not its doubt: a one-request
// upload canceled while its answer was awaited may have arrived, so when
// it went out is kept (in the list too), the row says so, and Retry asks
// the destination before it sends the file again. A resumable upload whose
// last byte went out at wholeOut (zero: it did not) may have arrived too:
// it keeps its session, which Retry asks before it sends anything.
// list.mu must be held.
func (jb *job) canceledLocked(wholeOut time.Time) {
	s := jb.peek().session
	sent := s.Sent
	if jb.run != nil {
		jb.run.wholeOut = time.Time{}
	}
	if s.URI != "" && !wholeOut.IsZero() {
		sent = wholeOut
	} else {
		jb.live().session = upload.Session{Sent: sent}
	}
	if sent.IsZero() {
		jb.sayLocked(&fact.Fact{Code: fact.Canceled}, &fact.Fact{Code: fact.PressRetry})
		return
	}
	reason := jb.fact(fact.CanceledInDoubt)
	reason.Args = mergeArgs(reason.Args, map[string]string{"at": sent.Format(time.RFC3339)})
	jb.sayLocked(reason, jb.fact(fact.CheckFirst))
}
