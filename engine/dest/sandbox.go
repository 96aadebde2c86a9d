package dest

import (
	"net/url"
	"strings"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Sandbox is the built-in emulator: try Hoist without Google.
const Sandbox Kind = "sandbox"

// SandboxPath is where the sandbox takes uploads, under its base URL.
const SandboxPath = "/upload/sandbox/v1/files"

type sandboxKind struct{ base }

var sandboxInfo = KindInfo{
	Kind:    Sandbox,
	Label:   "Sandbox (try Hoist without Google)",
	Short:   "Sandbox",
	Accepts: "any file",
	Fields: []Field{{
		Key: "url", Label: "Sandbox address", Kind: TextField, Flag: "-",
		Help: "The address of a running sandbox, e.g. http://127.0.0.1:8080. Leave empty to use the one built into Hoist.",
	}},
}

func (sandboxKind) info() KindInfo { return sandboxInfo }

// refusalFact: the sandbox refuses what its settings tell it to, as Google
// refuses an account.
func (sandboxKind) refusalFact(_ Destination, e *upload.APIError) fact.Code {
	if e.Class() == upload.ClassPermission {
		return fact.Forbidden
	}
	return ""
}

func (sandboxKind) facts() FactWords {
	return FactWords{
		Where: "dest.sandbox", Who: "who.sandbox",
		Keys: map[fact.Code]string{
			fact.Forbidden: "fact.google.forbidden.sandbox",
			fact.NotFound:  "fact.google.notFound.sandbox",
		},
	}
}

func (sandboxKind) validate(d Destination) FieldErrors {
	if raw := d.Param("url"); raw != "" {
		if e, bad := baseProblem("url", "Sandbox address", raw); bad {
			return FieldErrors{e}
		}
	}
	return nil
}

func (sandboxKind) target(d Destination, file media.Info, t *upload.Target) error {
	base := d.Param("url")
	if base == "" {
		base = d.BaseURL
	}
	if base == "" {
		return ErrNoSandbox
	}
	// The name goes in the query too, so that a simple upload (media),
	// which carries no metadata, keeps it.
	t.URL = strings.TrimRight(base, "/") + SandboxPath + "?" + url.Values{"name": {file.Name}}.Encode()
	t.Metadata = marshal(map[string]string{"name": file.Name})
	return nil
}

func (sandboxKind) result(_ Destination, a answer, r *Result) {
	genericResult(a, r)
}

func (sandboxKind) emptyAnswer(Destination) (Result, bool) {
	return Result{Fact: fact.Fact{Code: fact.Uploaded}}, true
}
