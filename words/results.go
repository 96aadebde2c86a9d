package words

import (
	"strings"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// resultDetails are the sentences after a result's own: what the server
// named the file, its id, the choices it was made with (YouTube's privacy,
// with the setting's words), its address and Google's notes, each as the
// server wrote it.
func (l *Lang) resultDetails(f fact.Fact) string {
	var s string
	for _, d := range []struct{ arg, key string }{
		{"title", "fact.result.name"}, {"id", "fact.result.id"},
	} {
		if v := f.Arg(d.arg); v != "" {
			s = l.Join(s, l.Say(d.key, Args{d.arg: l.Isolate(v)}))
		}
	}
	kind := dest.Kind(f.Dest)
	for _, field := range kind.Info().Fields {
		if v := f.Arg(field.Key); v != "" && field.Kind == dest.ChoiceField {
			s = l.Join(s, l.Say("fact.result.setting", Args{"Label": l.FieldLabel(kind, field.Key), "Value": l.Choice(kind, v)}))
		}
	}
	if v := f.Arg("url"); v != "" {
		s = l.Join(s, l.Say("fact.result.url", Args{"url": l.Isolate(v)}))
	}
	if v := f.Arg("warned"); v != "" {
		s = l.Join(s, l.Say("fact.result.warned", Args{"warned": l.Isolate(v)}))
	}
	return s
}

// isResult reports whether f says what a destination made of a file.
func isResult(f fact.Fact) bool {
	return strings.HasPrefix(string(f.Code), "result.")
}

// QuotesGoogle reports whether f's sentence holds Google's own words, so
// that whoever shows it need not quote them a second time.
func (l *Lang) QuotesGoogle(f fact.Fact) bool {
	if f.Google == "" {
		return false
	}
	switch f.Code {
	case fact.Failed, fact.FileUnreadable,
		fact.ConsentFailed, fact.ServiceOff, fact.NotNoted, fact.ListNotSaved,
		fact.ListRefused, fact.ListSignInAgain, fact.ListForbidden:
		return true
	}
	return false
}

// Sentence is Say's text starting with a capital letter, for the languages
// that have them: "The server said: …".
func (l *Lang) Sentence(key string, args Args) string { return CapitalFirst(l.Say(key, args)) }
