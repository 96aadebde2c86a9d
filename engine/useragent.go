package engine

import (
	"net/http"
	"runtime"
)

// Version is Hoist's version, set at build time
// (-ldflags "-X hoist/engine.Version=…").
var Version = "1.0.0"

// UserAgent is how every request Hoist makes names it: Hoist/VERSION (OS).
func UserAgent() string {
	os := map[string]string{"linux": "Linux", "windows": "Windows", "darwin": "macOS", "freebsd": "FreeBSD"}[runtime.GOOS]
	if os == "" {
		os = runtime.GOOS
	}
	return "Hoist/" + Version + " (" + os + ")"
}

// agent names Hoist in each request it carries.
type agent struct{ base http.RoundTripper }

func (a agent) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("User-Agent") == "" {
		r = r.Clone(r.Context())
		r.Header.Set("User-Agent", UserAgent())
	}
	base := a.base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}

// named is c (nil: a plain client) with every request naming Hoist.
func named(c *http.Client) *http.Client {
	if c == nil {
		c = &http.Client{}
	}
	if _, ok := c.Transport.(agent); ok {
		return c
	}
	n := *c
	n.Transport = agent{base: c.Transport}
	return &n
}
