package engine

import (
	"net/url"
	"strings"

	"hoist/engine/dest"
)

// The built-in sandbox listens on a fixed port when it can and on any free
// port when that one is taken, so its address can change from one start to
// the next. A job for it keeps that it goes to the built-in sandbox
// (dest.Destination.BuiltinSandbox), and the address of the sandbox running
// now replaces the one it was added with: in its destination, in its kept
// session and in its result's link.

// builtinBefore reports whether d, as an earlier Hoist recorded it, goes to
// the built-in sandbox (dest.Destination.BuiltinBefore).
func builtinBefore(d dest.Destination) bool { return d.BuiltinBefore() }

// moveServer gives address u, when it is on the server at base before, the
// scheme and host (with its port) of the server at base now; any other
// address is returned as it is.
func moveServer(u, before, now string) string {
	if u == "" || before == "" {
		return u
	}
	addr, err := url.Parse(u)
	if err != nil {
		return u
	}
	from, err := url.Parse(before)
	if err != nil {
		return u
	}
	to, err := url.Parse(now)
	if err != nil || to.Host == "" {
		return u
	}
	if !strings.EqualFold(addr.Scheme, from.Scheme) || !strings.EqualFold(addr.Host, from.Host) {
		return u
	}
	addr.Scheme, addr.Host = to.Scheme, to.Host
	return addr.String()
}

// sandboxDestination marks a destination for the built-in sandbox and gives
// it the running sandbox's address (dest.Destination.ForSandbox).
func (q *list) sandboxDestination(d dest.Destination) dest.Destination {
	return d.ForSandbox(q.opts.SandboxURL)
}

// followSandboxLocked points a job for the built-in sandbox at the sandbox
// running now, if it listens somewhere else than when the job last ran;
// Queue.mu must be held. It reports whether anything changed.
func (q *list) followSandboxLocked(jb *job) bool {
	now := strings.TrimRight(q.opts.SandboxURL, "/")
	before := jb.dest.BaseURL
	if !jb.dest.BuiltinSandbox || now == "" || before == now {
		return false
	}
	jb.dest.BaseURL = now
	if uri := jb.peek().session.URI; uri != "" {
		jb.live().session.URI = moveServer(uri, before, now)
	}
	if jb.result != nil {
		jb.result.URL = moveServer(jb.result.URL, before, now)
	}
	return true
}
