package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// uploadInfo is what is known of an upload before its bytes.
type uploadInfo struct {
	method      string
	path        string
	query       url.Values
	metadata    json.RawMessage // nil when none was sent
	contentType string          // of the bytes
	size        int64           // declared; -1 when unknown
	uploadType  string
	hash        string // X-Goog-Hash of the request that carried the last byte
}

// finished is a complete upload whose answer is being made.
type finished struct {
	id      string
	info    *uploadInfo
	content content
	base    string // scheme://host for links
	created time.Time
}

type resourceResult struct {
	name  string
	draft string
	body  any
	// An email's Message-ID and the date Gmail files it under.
	messageID    string
	internalDate time.Time
}

// committer is an endpoint with rules on the whole upload, checked as the
// object is made: Cloud Storage's preconditions and the checksums a client
// names (dest_storage.go).
type committer interface {
	commitCheck(s *Server, u *uploadInfo, c content) *apiError
}

// endpoint is one API method that accepts media, with Google's rules for it.
type endpoint interface {
	kind() Kind
	action() string // the API method's name, e.g. "gmail.users.messages.insert"
	limit() int64   // maximum upload size; 0: none
	accepts() string
	// check applies the rules on what is known before the bytes: path, query, metadata.
	check(s *Server, u *uploadInfo) *apiError
	// inspect applies the rules on the bytes themselves.
	inspect(u *uploadInfo, c content) *apiError
	newID() string
	resource(s *Server, f *finished) resourceResult
}

// answersMD5 reports whether ep's answer carries the bytes' MD5 (Drive's
// md5Checksum): only then is it computed.
func answersMD5(ep endpoint) bool {
	m, ok := ep.(interface{ answersMD5() bool })
	return ok && m.answersMD5()
}

// resolve finds the method served at an upload path.
func resolve(method, path string) (endpoint, *apiError) {
	if method != http.MethodPost && method != http.MethodPut && method != http.MethodPatch {
		return nil, methodNotFound()
	}
	seg := strings.Split(strings.TrimPrefix(path, "/upload/"), "/")
	if svc, ok := services[seg[0]]; ok {
		return svc.resolve(method, seg)
	}
	return resolveGeneric(method, seg)
}

// service is a destination the emulator serves. Each is served from a
// file of its own (dest_*.go), which registers it from its init; any other
// path is stored as an object shaped like Cloud Storage's (dest_generic.go).
type service struct {
	// prefix is the first part of its upload path after /upload/.
	prefix string
	kind   Kind
	// resolve finds the method served at an upload path (seg: the path
	// after /upload/, split at its slashes).
	resolve func(method string, seg []string) (endpoint, *apiError)
	// fallsBack: Google may refuse its resumable sessions, as its discovery
	// document suggests, and Hoist then sends in one request (see
	// Options.RefuseResumable).
	fallsBack bool
	// routes adds what else it serves besides uploads (the lists its
	// pickers read, the links its answers give); nil for nothing.
	routes func(s *Server, mux *http.ServeMux)
	// lists are the lists its routes serve to the pickers, by name, with
	// what they hold unless told otherwise (Server.SetLists); its routes
	// read them with listed. nil for none.
	lists func() Lists
}

// services are the destinations the emulator serves, by their prefix.
var services = map[string]service{}

// serve registers a destination the emulator serves.
func serve(svc service) {
	if _, dup := services[svc.prefix]; dup || svc.prefix == "" {
		panic("emulator: service " + svc.prefix + " registered twice or without a prefix")
	}
	services[svc.prefix] = svc
}

// FallbackKinds are the destinations whose resumable sessions the sandbox
// can refuse, as Google may (Options.RefuseResumable), sorted.
func FallbackKinds() []Kind {
	var out []Kind
	for _, svc := range services {
		if svc.fallsBack {
			out = append(out, svc.kind)
		}
	}
	slices.Sort(out)
	return out
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// randomInt returns a uniform number in [lo, hi).
func randomInt(lo, hi int64) int64 {
	n, err := rand.Int(rand.Reader, big.NewInt(hi-lo))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return lo + n.Int64()
}

func unknownField(name string) *apiError {
	return invalid("Invalid JSON payload received. Unknown name %q: Cannot find field.", name)
}

// checkFields refuses fields a resource does not have, as Google's front end does.
func checkFields(raw json.RawMessage, prefix string, allowed ...string) *apiError {
	if raw == nil {
		return nil
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return invalid("Invalid JSON payload received: %s must be a JSON object.", strings.TrimSuffix(prefix, "."))
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			return unknownField(prefix + k)
		}
	}
	return nil
}

func invalidEnum(field, typ, value string) *apiError {
	return invalid("Invalid value at '%s' (%s), %q", field, typ, value)
}
