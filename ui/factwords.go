package ui

import "hoist/engine"

// worded is v with its reason and next step made by the words catalogue
// from their facts, in the window's language; a job an older Hoist
// stopped keeps the sentence its list of uploads held.
func worded(v engine.JobView) engine.JobView {
	l := speaking()
	if v.Reason == "" && v.Fact != nil {
		v.Reason = l.Fact(*v.Fact)
	}
	if v.Next == "" && v.NextFact != nil {
		v.Next = l.Fact(*v.NextFact)
	}
	return v
}

// resultSaid is what the server made of a file, in the window's language;
// a result an older Hoist kept without a fact keeps its sentence.
func resultSaid(r *engine.Result) string {
	if r.Fact != nil {
		return speaking().Fact(*r.Fact)
	}
	return r.Summary
}

// eventWords is what the window says of an event, in its language.
func eventWords(ev engine.Event) string {
	if ev.Fact == nil {
		return ""
	}
	return speaking().Fact(*ev.Fact)
}
