package webaddr

import (
	"net/url"
	"testing"
)

func TestHostPort(t *testing.T) {
	for address, want := range map[string]string{
		"https://storage.googleapis.com/upload": "storage.googleapis.com:443",
		"http://Example.com/x":                  "Example.com:80",
		"https://example.com:8443/":             "example.com:8443",
		"http://[::1]/":                         "[::1]:80",
		"https://[2001:db8::1]:444/upload?x=1":  "[2001:db8::1]:444",
		"HTTP://example.com/":                   "example.com:80",
	} {
		u, err := url.Parse(address)
		if err != nil {
			t.Fatal(err)
		}
		if got := HostPort(u); got != want {
			t.Errorf("%s: %s, want %s", address, got, want)
		}
	}
}
