package dest

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
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

func init() { register(sandboxKind{}) }

var sandboxInfo = KindInfo{
	Kind:   Sandbox,
	Rank:   10,
	Server: SandboxServer,
	Fields: []Field{{Key: "url", Kind: TextField, Flag: "-"}}, // the address of a running sandbox; empty: the built-in one
}

// sandboxSettings are a sandbox destination's settings, typed.
type sandboxSettings struct {
	URL string `key:"url"` // the address of a running sandbox; "": the built-in one
}

func (sandboxKind) settings() any { return &sandboxSettings{} }

func sandboxOf(d Destination) (s sandboxSettings) { typed(d, &s); return s }

func (sandboxKind) info() KindInfo { return sandboxInfo }

// SandboxDestination is the sandbox as a destination: the one built into
// Hoist, wherever it listens (the queue gives it the address), unless a
// sandbox address is set.
func SandboxDestination() Destination { return Destination{Kind: Sandbox} }

// IsSandbox reports whether d is of the sandbox's kind.
func (d Destination) IsSandbox() bool { return d.Kind == Sandbox }

// ToSandbox reports whether d's files go to a sandbox: the built-in one, or
// one d names by its address.
func (d Destination) ToSandbox() bool { return d.BuiltinSandbox || d.IsSandbox() }

// FindsSandbox reports whether d goes to the built-in sandbox without an
// address of its own yet: whoever runs the queue must start or find it.
func (d Destination) FindsSandbox() bool {
	return d.Kind == Sandbox && d.BaseURL == "" && sandboxOf(d).URL == ""
}

// ForSandbox is d as the queue sends it while the built-in sandbox listens
// at running ("" when none does): a sandbox destination without an address
// of its own goes to the built-in sandbox, and keeps that it does (its
// address may change from one start to the next); one pointed at a server
// (BaseURL) keeps that as its own address, so it is never taken for the
// built-in one.
func (d Destination) ForSandbox(running string) Destination {
	if d.IsSandbox() && !d.BuiltinSandbox && sandboxOf(d).URL == "" {
		if d.BaseURL == "" {
			d.BuiltinSandbox = true
		} else {
			d = d.WithParam("url", d.BaseURL)
			d.BaseURL = ""
		}
	}
	if d.BuiltinSandbox && running != "" {
		d.BaseURL = strings.TrimRight(running, "/")
	}
	return d
}

// BuiltinBefore reports whether d, as an earlier Hoist recorded it, went
// to the built-in sandbox: a sandbox destination without an address of
// its own filled with the built-in sandbox's, always on this computer.
func (d Destination) BuiltinBefore() bool {
	if !d.IsSandbox() || d.BuiltinSandbox || sandboxOf(d).URL != "" || d.BaseURL == "" {
		return false
	}
	u, err := url.Parse(d.BaseURL)
	if err != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// refusalFact: the sandbox refuses what its settings tell it to, as Google
// refuses an account.
func (sandboxKind) refusalFact(_ Destination, e *upload.APIError) fact.Code {
	if e.Class() == upload.ClassPermission {
		return fact.Forbidden
	}
	return ""
}

func (sandboxKind) validate(d Destination) FieldErrors {
	if raw := sandboxOf(d).URL; raw != "" {
		if e, bad := baseProblem(d, "url", raw); bad {
			return FieldErrors{e}
		}
	}
	return nil
}

// check: a sandbox with no address has nowhere to take the file.
func (sandboxKind) check(d Destination, _ media.Info) error {
	if sandboxOf(d).URL == "" && d.BaseURL == "" {
		return ErrNoSandbox
	}
	return nil
}

func (sandboxKind) target(d Destination, file media.Info, t *upload.Target) error {
	base := sandboxOf(d).URL
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

// findable marks the upload with the job's id in its address, and looks for
// it in the sandbox's list of what it received, as Drive's files.list finds
// a file by its mark.
func (sandboxKind) findable(_ Destination, _ media.Info, job string, p *Plan) {
	u, err := url.Parse(p.Target.URL)
	if err != nil || job == "" {
		return
	}
	q := u.Query()
	q.Set(DriveMark, job)
	u.RawQuery = q.Encode()
	p.Target.URL = u.String()
	list := url.URL{Scheme: u.Scheme, Host: u.Host, Path: strings.TrimSuffix(u.Path, SandboxPath) + "/sandbox/objects",
		RawQuery: url.Values{DriveMark: {job}}.Encode()}
	p.Find = []FindWay{{Find: func(ctx context.Context, c *http.Client) (upload.Found, error) {
		var objs []struct {
			Response json.RawMessage `json:"response"`
		}
		if _, err := getJSON(ctx, c, list.String(), &objs); err != nil || len(objs) == 0 {
			return upload.Found{}, err
		}
		return upload.Found{Body: objs[0].Response}, nil
	}}}
}
