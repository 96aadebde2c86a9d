package auth

import (
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Transport adds "Authorization: Bearer" to requests for Google's API hosts
// (https on googleapis.com and its subdomains) and for AllowedHosts — never
// to any other host. When the server answers 401, it refreshes the token
// once and sends the request again, if the body can be rewound.
type Transport struct {
	Source *TokenSource
	// Base sends the requests; nil means http.DefaultTransport.
	Base http.RoundTripper
	// AllowedHosts are extra "host:port" values (local test servers) that
	// receive the token, over plain HTTP too.
	AllowedHosts []string
}

func (t *Transport) base() http.RoundTripper {
	if t.Base != nil {
		return t.Base
	}
	return http.DefaultTransport
}

// Authorized reports whether requests to u carry the token.
func (t *Transport) Authorized(u *url.URL) bool {
	for _, h := range t.AllowedHosts {
		if h != "" && strings.EqualFold(u.Host, h) {
			return true
		}
	}
	return IsGoogleAPI(u)
}

// IsGoogleAPI reports whether u is an https address on googleapis.com or
// one of its subdomains, on the default port.
func IsGoogleAPI(u *url.URL) bool {
	if u.Scheme != "https" || u.User != nil {
		return false
	}
	if p := u.Port(); p != "" && p != "443" {
		return false
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	return host == "googleapis.com" || strings.HasSuffix(host, ".googleapis.com")
}

// RoundTrip implements http.RoundTripper.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.Authorized(req.URL) {
		return t.base().RoundTrip(req)
	}
	tok, err := t.Source.TokenContext(req.Context())
	if err != nil {
		closeRequestBody(req)
		return nil, err
	}
	resp, err := t.base().RoundTrip(withBearer(req, tok.AccessToken, req.Body))
	if err != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, err
	}
	if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
		// The body is spent and cannot be sent again: hand back the 401,
		// and make sure the caller's next attempt gets a fresh token.
		t.Source.invalidate(tok.AccessToken)
		return resp, nil
	}
	body := req.Body
	if req.GetBody != nil {
		if body, err = req.GetBody(); err != nil {
			t.Source.invalidate(tok.AccessToken)
			return resp, nil
		}
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	fresh, err := t.Source.refresh(req.Context(), tok.AccessToken)
	if err != nil {
		if body != nil {
			body.Close()
		}
		return nil, err
	}
	return t.base().RoundTrip(withBearer(req, fresh.AccessToken, body))
}

// withBearer copies req with the token and body; the caller's request is
// never changed.
func withBearer(req *http.Request, accessToken string, body io.ReadCloser) *http.Request {
	r := req.Clone(req.Context())
	r.Body = body
	r.Header.Set("Authorization", "Bearer "+accessToken)
	return r
}

func closeRequestBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}
