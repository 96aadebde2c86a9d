// Package webaddr says where a web address leads on the network: its
// host:port, the scheme's port filled in, as Go's transport dials it. The
// upload's check of a session address and the proxy's tunnels both need it
// and must agree.
package webaddr

import (
	"net"
	"net/url"
)

// HostPort is u's host and port, with the scheme's own port (80 for http,
// 443 otherwise: Hoist speaks only http and https) where u names none. The
// host is kept as written; compare two with strings.EqualFold.
func HostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "443"
		if u.Scheme == "http" {
			port = "80"
		}
	}
	return net.JoinHostPort(u.Hostname(), port)
}
