package words

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"hoist/engine/dest"
	"hoist/engine/fact"
)

// specialKinds name what a special file is.
var specialKinds = map[string]string{
	"pipe": "special.pipe", "socket": "special.socket", "device": "special.device",
	"link": "special.link", "": "special.file",
}

// factKey is the catalogue key of f's sentence, by rule: fact.<code>, or
// the destination's own, fact.<code>.<kind> (or its family's), or the one
// for a setting the fact names, fact.<code>.<kind>.<name>; "" when the
// catalogue has none (a fact from a newer Hoist).
func factKey(f fact.Fact) string {
	codes := []string{string(f.Code)}
	if f.Code == fact.Retired {
		codes = append([]string{retiredCode(f)}, codes...)
	}
	for _, code := range codes {
		var keys []string
		if f.Dest != "" {
			k := dest.Kind(f.Dest)
			for _, name := range slices.Sorted(maps.Keys(f.Args)) {
				keys = append(keys, "fact."+code+"."+f.Dest+"."+name, "fact."+code+"."+k.Family()+"."+name)
			}
			keys = append(keys, "fact."+code+"."+f.Dest, "fact."+code+"."+k.Family())
		}
		keys = append(keys, "fact."+code)
		for _, key := range keys {
			if has(key) {
				return key
			}
		}
	}
	return ""
}

// retiredCode is the code of a retired API version's sentence: one for no
// version named, one for Hoist's own version retired (the kind's current),
// else the fact's own.
func retiredCode(f fact.Fact) string {
	version, current := f.Arg("version"), f.Arg("current")
	switch {
	case version == "":
		return "google.retired.noVersion"
	case current != "" && version == current:
		return "google.retired.current"
	}
	return string(f.Code)
}

// Fact is the sentence (or sentences) that say f in this language.
func (l *Lang) Fact(f fact.Fact) string {
	key := factKey(f)
	if key == "" {
		// A fact from a newer Hoist, read from the journal: say what can be said.
		return l.Say("fact.unknown", Args{"Code": string(f.Code)})
	}
	kind := dest.Kind(f.Dest)
	args := Args{
		"File":   l.Isolate(f.File),
		"Field":  l.Isolate(l.FieldLabel(kind, f.Field)),
		"Where":  l.where(f),
		"Who":    l.who(f),
		"Wait":   l.Duration(f.Wait),
		"N":      f.Count,
		"Status": l.Digits(strconv.Itoa(f.Status)), // a number in the sentence, as Google's own error pages write it
		"Google": l.Isolate(f.Google),
	}
	args["KindName"] = l.Say("dest.this", nil)
	if kind.Known() {
		args["KindName"] = l.Isolate(l.KindName(kind))
	}
	switch f.Code {
	case fact.TooLarge:
		args["Size"], args["Limit"] = l.sizesApart(f.Size, f.Limit)
	case fact.Incomplete:
		args["Received"], args["Size"] = l.sizesApart(f.Received, f.Size)
	default:
		args["Size"], args["Limit"] = l.Size(f.Size), l.Size(f.Limit)
	}
	if f.Code == fact.FileSpecial || f.Code == fact.SkippedSpecial {
		args["Kind"] = l.Say(specialKinds[f.Arg("kind")], nil)
	}
	for k, v := range f.Args {
		if k == "who" { // a code, not a value
			args[k] = v
		} else {
			args[k] = l.Isolate(v) // a version, a checksum, an id kept whole in a right-to-left sentence
		}
	}
	if a := f.Arg("action"); a != "" {
		args["Action"] = l.Action(a) // as its button says it
	}
	if st := f.Arg("state"); st != "" {
		args["State"] = l.State(st)
	}
	if o, ok := f.Args["origin"]; ok {
		args["From"] = l.ProxyOrigin(o) // where the proxy's setting was found
	}
	if n := f.Arg("name"); n != "" && (f.Code == fact.ManagedInvalid || f.Code == fact.ManagedSameName || f.Code == fact.ManagedEntryUnreadable) {
		args["N"] = l.Say("fact.managed.named", Args{"Name": l.Isolate(n)}) // its name, not its place in the file
	}
	if field, ok := kind.Field("replace"); ok {
		args["ReplaceFlag"] = l.Isolate("--" + field.FlagName() + " true") // the setting that replaces a name's object
	}
	args["Precondition"] = l.Isolate("ifGenerationMatch=0") // Cloud Storage's own words for "a name that holds nothing"
	if key := kind.Info().VersionKey; key != "" {
		if field, ok := kind.Field(key); ok {
			args["Flag"] = l.Isolate("--" + field.FlagName()) // the flag that sets the version
		}
	}
	switch f.Code {
	case fact.ManagedNotJSON, fact.ManagedEntryUnreadable, fact.SharedUnreadable:
		args["Problem"] = l.jsonProblem(f)
	}
	l.doubtArgs(f, args)
	s := l.Say(key, args)
	s = l.Join(s, l.copySentence(f, args["Who"].(string)))
	if who := args["Who"].(string); strings.HasPrefix(s, who) {
		s = CapitalFirst(s) // "The sandbox gave an answer…"
	}
	switch f.Code {
	case fact.ServiceOff:
		if f.Google != "" {
			s = l.Join(s, l.Say("fact.googleSays", Args{"Google": l.Isolate(f.Google)}))
		}
	case fact.BatchDone:
		if n, _ := strconv.Atoi(f.Arg("failed")); n > 0 {
			s = l.Join(s, l.Say("fact.batch.attention", Args{"N": n}))
		}
	case fact.ListMended:
		if n, _ := strconv.Atoi(f.Arg("dropped")); n > 0 {
			s = l.Join(s, l.Say("fact.journal.mended.lost", Args{"N": n}))
		}
	}
	if isResult(f) {
		s = l.Join(s, l.resultDetails(f))
	}
	if f.GaveUp {
		s = l.Join(s, l.Say("fact.gaveUp", nil))
	}
	return s
}

// Said is a reason or next step from the journal: a fact in this language,
// or the sentence an older Hoist stored, as it is.
func (l *Lang) Said(s fact.Said) string {
	if s.Fact != nil {
		return l.Fact(*s.Fact)
	}
	return s.Legacy
}

// Isolate marks s (a file name, a label, Google's own words) as a unit of
// its own direction inside a sentence (U+2068 … U+2069), so "דוח 2026.eml"
// keeps its order and its place there: in a right-to-left sentence, and in
// an English one when l is Marking (the window); the command line's English
// sentences carry no marks. The window's bidi text follows the marks and
// does not draw them.
func (l *Lang) Isolate(s string) string {
	if s == "" || (!l.RTL() && !l.marks) {
		return s
	}
	return "\u2068" + s + "\u2069"
}

// Join puts two sentences one after the other.
func (l *Lang) Join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " " + b
}

// sizesApart writes a size and a limit so that they read differently: in
// exact bytes when rounding makes them look the same.
func (l *Lang) sizesApart(size, limit int64) (string, string) {
	s, m := l.Size(size), l.limit(limit)
	if s == m {
		return l.Say("unit.bytes", Args{"N": size}), l.Say("unit.bytes", Args{"N": limit})
	}
	return s, m
}

// limit writes a limit as Google's documentation does, and as the
// engine's English does: 15 MiB is "15 MB".
func (l *Lang) limit(n int64) string {
	for _, u := range []struct {
		shift uint
		key   string
	}{{30, "unit.gb"}, {20, "unit.mb"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return l.Say(u.key, Args{"N": n >> u.shift})
		}
	}
	return l.Size(n)
}

// where names the place a file was going: the name its user gave a
// destination named by its user, else the kind's place.
func (l *Lang) where(f fact.Fact) string {
	if n := strings.TrimSpace(f.Arg("name")); n != "" {
		return l.Isolate(n)
	}
	return l.KindWhere(dest.Kind(f.Dest))
}

// who is the server that answered: Google, the sandbox, or the server.
func (l *Lang) who(f fact.Fact) string {
	if f.Arg("who") == string(dest.OtherServer) {
		return l.Who(dest.OtherServer)
	}
	if s := dest.Kind(f.Dest).Info().Server; s != "" {
		return l.Who(s)
	}
	if f.Arg("who") == string(dest.GoogleServer) {
		return l.Who(dest.GoogleServer)
	}
	return l.Who(dest.OtherServer)
}

// Who names who answers uploads, inside a sentence: Google, the sandbox,
// or the server.
func (l *Lang) Who(s dest.Server) string {
	switch s {
	case dest.GoogleServer:
		return l.Say("who.google", nil)
	case dest.SandboxServer:
		return l.Say("who.sandbox", nil)
	}
	return l.Say("who.server", nil)
}

// CapitalFirst starts a sentence with a capital letter, for the languages
// that have them.
func CapitalFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError || !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// jsonWants are the sentences of a JSON field holding the wrong kind of
// value, by the kind it should hold.
var jsonWants = map[string]string{
	"string":  "json.want.string",
	"object":  "json.want.object",
	"list":    "json.want.list",
	"number":  "json.want.number",
	"boolean": "json.want.boolean",
}

// jsonProblem says what is wrong with a JSON file the user was given: the
// field whose value has the wrong type (json.want.<kind>), or the parser's
// own words, after the line they are about (json.line).
func (l *Lang) jsonProblem(f fact.Fact) string {
	if key, ok := jsonWants[f.Arg("want")]; ok && f.Arg("field") != "" {
		return l.Say(key, Args{"Field": l.Isolate(f.Arg("field"))})
	}
	s := l.Isolate(f.Google)
	if line := f.Arg("line"); line != "" {
		s = l.Say("json.line", Args{"Line": l.Digits(line), "Google": s})
	}
	return s
}

// ProxyOrigin says where a proxy setting was found (a proxy.Origin):
// "from Windows settings".
func (l *Lang) ProxyOrigin(origin string) string {
	key, ok := proxyOrigins[origin]
	if !ok {
		key = "proxy.from.none"
	}
	return l.Say(key, nil)
}

// proxyOrigins are the words of each place a proxy setting is found.
var proxyOrigins = map[string]string{
	"environment":   "proxy.from.environment",
	"organisation":  "proxy.from.organisation",
	"windows":       "proxy.from.windows",
	"windowsPolicy": "proxy.from.windowsPolicy",
	"winhttp":       "proxy.from.winhttp",
	"gnome":         "proxy.from.gnome",
	"kde":           "proxy.from.kde",
}
