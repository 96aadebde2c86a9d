package authtest

import (
	"net/http"
	"sync/atomic"
)

// Counting is a transport that counts the requests it carries to Base.
type Counting struct {
	Base http.RoundTripper
	n    atomic.Int32
}

// RoundTrip implements http.RoundTripper.
func (c *Counting) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.Base.RoundTrip(r)
}

// Requests is how many requests c carried.
func (c *Counting) Requests() int { return int(c.n.Load()) }
