package auth

import (
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
)

// embeddedClient is a build's own OAuth client: the client_secret JSON,
// base64-encoded, set with
//
//	go build -ldflags "-X hoist/auth.embeddedClient=$(base64 -w0 client_secret.json)"
var embeddedClient string

// embeddedFiles may hold embedded/client_secret.json, placed there before
// building (the directory's .gitignore keeps it out of the repository).
//
//go:embed embedded
var embeddedFiles embed.FS

// clientFileName is the imported client file inside the config directory.
const clientFileName = "client_secret.json"

// maxClientFileSize bounds what is read of a client file; real ones are < 1 KiB.
const maxClientFileSize = 64 << 10

// ImportClientSecret checks the client_secret JSON file downloaded from
// Google Cloud Console and copies it, readable only by the user, into the
// config directory, where later runs find it.
func (s *Service) ImportClientSecret(path string) error {
	data, err := readClientFile(path)
	if err != nil {
		return err
	}
	if err := checkClientJSON(data); err != nil {
		return err
	}
	dir, err := s.configDir()
	if err != nil {
		return err
	}
	if err := writePrivateFile(filepath.Join(dir, clientFileName), data); err != nil {
		return plain(fmt.Sprintf("Hoist could not save the client file in its settings folder (%s).", dir), err)
	}
	(tokenSources{s}).forgetSources() // grants of another client cannot be refreshed with this one
	return nil
}

// HasClient reports whether an OAuth client is available: imported,
// provided by the organisation or built in.
func (s *Service) HasClient() bool {
	_, err := s.clientJSON()
	return err == nil
}

// clientJSON finds the client: given directly, imported by the user,
// provided by the organisation (SystemDir), or built in. A broken file of
// the organisation's is passed over for the built-in client, if any.
func (s *Service) clientJSON() ([]byte, error) {
	if len(s.ClientJSON) > 0 {
		return s.ClientJSON, checkClientJSON(s.ClientJSON)
	}
	imported := s.importedClient()
	if len(imported) == 0 {
		if b, err := s.systemClient(); err == nil && b != nil {
			return b, nil
		}
	}
	return chooseClient(imported, embeddedClient, embeddedFiles)
}

// chooseClient prefers the user's imported file, then the one set with
// -ldflags, then an embedded file.
func chooseClient(imported []byte, ldflagsBase64 string, files fs.FS) ([]byte, error) {
	if len(imported) > 0 {
		if err := checkClientJSON(imported); err != nil {
			return nil, err
		}
		return imported, nil
	}
	if ldflagsBase64 != "" {
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(ldflagsBase64))
		if err != nil {
			return nil, failure(ErrNoClient, fmt.Errorf("built-in client is not base64: %w", err))
		}
		if err := checkClientJSON(b); err != nil {
			return nil, failure(ErrNoClient, err)
		}
		return b, nil
	}
	if files != nil {
		if b, err := fs.ReadFile(files, "embedded/"+clientFileName); err == nil {
			if err := checkClientJSON(b); err != nil {
				return nil, failure(ErrNoClient, err)
			}
			return b, nil
		}
	}
	return nil, ErrNoClient
}

// checkClientJSON accepts only an installed-app ("Desktop app") client.
func checkClientJSON(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return ErrNotClientFile
	}
	if raw, ok := top["installed"]; ok {
		var c struct {
			ClientID string `json:"client_id"`
		}
		if err := json.Unmarshal(raw, &c); err != nil || c.ClientID == "" {
			return ErrNotClientFile
		}
		return nil
	}
	if _, ok := top["web"]; ok {
		return &plainError{
			msg: "This client file is for a web application, not a desktop app. In Google Cloud Console, " +
				"create an OAuth client ID of the type \u201cDesktop app\u201d and import its JSON file.",
			kind: ErrNotDesktopClient,
		}
	}
	var kind string
	if raw, ok := top["type"]; ok {
		_ = json.Unmarshal(raw, &kind)
	}
	if kind == "service_account" {
		return &plainError{
			msg: "This is a service account key, not an OAuth client. In Google Cloud Console, " +
				"create an OAuth client ID of the type \u201cDesktop app\u201d and import its JSON file.",
			kind: ErrNotDesktopClient,
		}
	}
	if len(top) == 1 {
		return ErrNotDesktopClient
	}
	return ErrNotClientFile
}

// Endpoints are the addresses of Google's OAuth service.
type Endpoints struct {
	AuthURL     string // consent page
	TokenURL    string // code exchange and refresh
	RevokeURL   string // withdraws a grant
	UserinfoURL string // the signed-in account's email
}

// GoogleEndpoints are Google's own.
var GoogleEndpoints = Endpoints{
	AuthURL:     "https://accounts.google.com/o/oauth2/auth",
	TokenURL:    "https://oauth2.googleapis.com/token",
	RevokeURL:   "https://oauth2.googleapis.com/revoke",
	UserinfoURL: "https://openidconnect.googleapis.com/v1/userinfo",
}

// EndpointsAt gives the endpoints of a local OAuth server (such as
// auth/authtest's) at base, e.g. "http://127.0.0.1:4321".
func EndpointsAt(base string) Endpoints {
	base = strings.TrimRight(base, "/")
	return Endpoints{
		AuthURL:     base + "/authorize",
		TokenURL:    base + "/token",
		RevokeURL:   base + "/revoke",
		UserinfoURL: base + "/userinfo",
	}
}

// oauthConfig parses the client and applies the endpoints; the redirect
// URL is set later to the loopback listener's.
func (s *Service) oauthConfig() (*oauth2.Config, error) {
	data, err := s.clientJSON()
	if err != nil {
		return nil, err
	}
	data, err = withRedirectURI(data)
	if err != nil {
		return nil, err
	}
	cfg, err := google.ConfigFromJSON(data)
	if err != nil {
		return nil, failure(ErrNotClientFile, errors.New("client file could not be parsed"))
	}
	ep := s.endpoints()
	cfg.Endpoint = oauth2.Endpoint{AuthURL: ep.AuthURL, TokenURL: ep.TokenURL, AuthStyle: oauth2.AuthStyleInParams}
	return cfg, nil
}

// withRedirectURI adds a placeholder redirect URI when the file has none,
// since ConfigFromJSON insists on one and Hoist replaces it anyway.
func withRedirectURI(data []byte) ([]byte, error) {
	var top map[string]map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, ErrNotClientFile
	}
	inst := top["installed"]
	if inst == nil {
		return nil, ErrNotDesktopClient
	}
	if uris, ok := inst["redirect_uris"].([]any); ok && len(uris) > 0 {
		return data, nil
	}
	inst["redirect_uris"] = []string{"http://127.0.0.1"}
	return json.Marshal(top)
}

func (s *Service) endpoints() Endpoints {
	ep := s.Endpoints
	if ep.AuthURL == "" {
		ep.AuthURL = GoogleEndpoints.AuthURL
	}
	if ep.TokenURL == "" {
		ep.TokenURL = GoogleEndpoints.TokenURL
	}
	if ep.RevokeURL == "" {
		ep.RevokeURL = GoogleEndpoints.RevokeURL
	}
	if ep.UserinfoURL == "" {
		ep.UserinfoURL = GoogleEndpoints.UserinfoURL
	}
	return ep
}
