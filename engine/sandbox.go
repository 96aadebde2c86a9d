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
