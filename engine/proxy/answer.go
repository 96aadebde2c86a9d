package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// ErrAnswer says a PAC script's answer names no way Hoist can take.
var ErrAnswer = errors.New("the PAC script's answer names no proxy Hoist can use")

// MaxAnswer bounds the answer read: a script may return any string.
const MaxAnswer = 64 << 10

// ParseAnswer reads FindProxyForURL's answer ("PROXY a:8080; SOCKS5 b:1080;
// DIRECT") into the ways to try, in order: a proxy's URL, or nil for direct.
// Entries Hoist cannot take are passed over; none left is ErrAnswer.
func ParseAnswer(answer string) ([]*url.URL, error) {
	if len(answer) > MaxAnswer {
		return nil, fmt.Errorf("%w: it is longer than %d bytes", ErrAnswer, MaxAnswer)
	}
	var ways []*url.URL
	for _, entry := range strings.Split(answer, ";") {
		f := strings.Fields(entry)
		if len(f) == 0 {
			continue
		}
		kind := strings.ToUpper(f[0])
		if kind == "DIRECT" {
			if len(f) == 1 {
				ways = append(ways, nil)
			}
			continue
		}
		if len(f) != 2 {
			continue
		}
		scheme := map[string]string{"PROXY": "http", "HTTP": "http", "HTTPS": "https", "SOCKS": "socks5", "SOCKS5": "socks5", "SOCKS4": "socks5"}[kind]
		if scheme == "" {
			continue
		}
		host, port, err := net.SplitHostPort(f[1])
		if err != nil || host == "" || strings.ContainsAny(host, "/@?#") || !digits(port) {
			continue
		}
		ways = append(ways, &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port)})
	}
	if len(ways) == 0 {
		return nil, ErrAnswer
	}
	return ways, nil
}

func digits(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
