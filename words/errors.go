package words

import (
	"errors"
	"strings"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// Error says err in l's language by the facts it carries: a destination's
// settings (dest.FieldErrors, each beside its setting's label), or any
// error with a Fact method (a file's problem, a refusal, a file of
// destinations, the queue's own), followed by the settings that are
// wrong when those are its cause. ok is false for an error
// that carries no fact: the caller says it its own way.
func (l *Lang) Error(err error) (string, bool) {
	var (
		said   interface{ Fact() fact.Fact }
		fields dest.FieldErrors
	)
	switch {
	case errors.As(err, &said):
		s := l.Fact(said.Fact())
		if errors.As(err, &fields) {
			s = l.Join(s, l.FieldErrors(fields))
		}
		return s, true
	case errors.As(err, &fields):
		return l.FieldErrors(fields), true
	}
	return "", false
}

// FieldErrors says each problem with a destination's settings.
func (l *Lang) FieldErrors(errs dest.FieldErrors) string {
	parts := make([]string, 0, len(errs))
	for _, e := range errs {
		parts = append(parts, l.Fact(e.Fact))
	}
	return strings.Join(parts, " ")
}
