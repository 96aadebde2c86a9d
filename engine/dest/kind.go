package dest

import (
	"cmp"
	"slices"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// kind is everything Hoist knows of one kind of destination. Each kind lives
// in a file of its own (sandbox.go, gmail.go, cm360.go, …) and registers
// itself there (register, from the file's init); the rest of the package,
// the window's forms and the command line's flags ask it through these
// methods, so adding a kind touches no list or switch elsewhere. Kinds
// embed base, which answers as a plain upload URL does, and say only what
// differs. A kind holds no words: its info names keys, and package words
// finds its sentences in the catalogue by rule (kind.<kind>.name, …).
type kind interface {
	// info is what forms and help show, by keys: fields, server, limit.
	info() KindInfo
	// settings is the kind's typed settings, empty: a pointer to the struct
	// its methods read d's settings into (typed), whose key tags name
	// exactly its fields; nil for a kind without settings.
	settings() any
	// host is the scheme and host requests go to when the destination sets
	// no BaseURL; Google sign-in is attached only when it is Google's. ""
	// means requests never go to Google (the sandbox).
	host(d Destination) string
	// scopes are the narrowest OAuth scopes uploads need.
	scopes(d Destination) []string
	// validate checks what depends on more than one field.
	validate(d Destination) FieldErrors
	// maxSize is the largest file taken when it depends on the settings;
	// 0: the one info gives.
	maxSize(d Destination) int64
	// fileType is the type the file is checked and sent as, given the one
	// its content shows ("" when unknown).
	fileType(d Destination, sniffed string) string
	// checkRules applies the kind's rules on the file (type, empty) before a byte
	// is sent; nil or a *Refusal. The size limit is checked for every kind.
	check(d Destination, file media.Info) error
	// target fills in the request: URL, HTTP method, metadata, content type.
	target(d Destination, file media.Info, t *upload.Target) error
	// result reads the server's answer into r; body is never empty here.
	result(d Destination, a answer, r *Result)
	// emptyAnswer is the result of an empty answer; ok false when an empty
	// answer means something went wrong.
	emptyAnswer(d Destination) (r Result, ok bool)
	// refusalFact is the fact of a refusal by the server that means
	// something of its own for the kind (no channel yet, a method removed);
	// "" when the common facts say it.
	refusalFact(d Destination, e *upload.APIError) fact.Code
	// factArgs are the settings a sentence about the server's refusal
	// names (the advertiser, the mailbox, the draft…), by the names the
	// sentences use; a fact naming one that has a sentence of its own
	// (fact.<code>.<kind>.<name>) is said by that sentence.
	factArgs(d Destination) map[string]string
	// upgraded moves settings off an API version Google switched off; ok
	// false when nothing changed.
	upgraded(d Destination) (moved Destination, ok bool)
}

// registry holds every kind of destination, in the order a form offers
// them (KindInfo.Rank); byKind finds one by its name.
var (
	registry []kind
	byKind   = map[Kind]kind{}
	order    []Kind
)

// register adds a kind; each kind's file calls it from its init.
func register(k kind) {
	info := k.info()
	if _, dup := byKind[info.Kind]; dup || info.Kind == "" {
		panic("dest: kind " + string(info.Kind) + " registered twice or without a name")
	}
	registry = append(registry, k)
	slices.SortStableFunc(registry, func(a, b kind) int { return cmp.Compare(a.info().Rank, b.info().Rank) })
	byKind[info.Kind] = k
	order = order[:0]
	for _, r := range registry {
		order = append(order, r.info().Kind)
	}
}

// of is the destination's kind; a plain upload URL's for an unknown kind.
func (d Destination) of() kind {
	if k, ok := byKind[d.Kind]; ok {
		return k
	}
	return base{}
}

// base answers for a kind as a plain upload URL does.
type base struct{}

func (base) info() KindInfo                                       { return KindInfo{} }
func (base) settings() any                                        { return nil }
func (base) host(Destination) string                              { return "" }
func (base) scopes(Destination) []string                          { return nil }
func (base) validate(Destination) FieldErrors                     { return nil }
func (base) fileType(_ Destination, s string) string              { return s }
func (base) check(Destination, media.Info) error                  { return nil }
func (base) target(Destination, media.Info, *upload.Target) error { return nil }
func (base) factArgs(Destination) map[string]string               { return nil }
func (base) refusalFact(Destination, *upload.APIError) fact.Code  { return "" }

// RefusalFact is the fact of the server's refusal e when it means something
// of its own for d's kind; "" when the common facts say it.
func RefusalFact(d Destination, e *upload.APIError) fact.Code { return d.of().refusalFact(d, e) }

// passer is a kind whose server refuses some uploads for what sending the
// same file again may mend: bytes damaged on the way, which the server
// refused by the checksum the upload named.
type passer interface {
	passesLater(d Destination, e *upload.APIError) bool
}

// RefusalPassesLater reports whether the server's refusal e of an upload
// to d may pass when the same file is sent again as it is; false for most
// refusals, which the same file meets again.
func RefusalPassesLater(d Destination, e *upload.APIError) bool {
	p, ok := d.of().(passer)
	return ok && p.passesLater(d, e)
}
func (base) emptyAnswer(Destination) (Result, bool)     { return Result{}, false }
func (base) upgraded(d Destination) (Destination, bool) { return d, false }

func (base) maxSize(Destination) int64 { return 0 } // 0: the limit in info

// result names what was made: its name, id and link.
func (base) result(d Destination, a answer, r *Result) {
	genericResult(a, r)
}

// genericResult reads an answer that names an object.
func genericResult(a answer, r *Result) {
	r.ID = string(a.ID)
	r.Name = firstOf(a.Name, a.Title)
	if a.Snippet != nil {
		r.Name = firstOf(r.Name, a.Snippet.Title)
	}
	r.URL = firstOf(a.MediaLink, a.SelfLink, a.WebView, a.URL)
	r.Fact = resultFact(fact.Uploaded, r)
	if r.Name == r.ID {
		delete(r.Fact.Args, "title")
	}
	delete(r.Fact.Args, "url") // an API address, not a page to open
}

// FactArgs are the settings of d a sentence about the server's refusal
// names (the advertiser, the mailbox…), by the names the sentences use;
// settings left empty are left out.
func FactArgs(d Destination) map[string]string {
	args := d.of().factArgs(d)
	for k, v := range args {
		if v == "" {
			delete(args, k)
		}
	}
	return args
}
