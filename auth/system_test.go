package auth

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/auth/authtest"
)

// TestOrganisationClient: a client file the organisation put in the
// system-wide folder is used by everyone, the user's own import wins over
// it, and a broken one is named in a sentence while Hoist goes on.
func TestOrganisationClient(t *testing.T) {
	srv := authtest.NewServer(t)
	system := t.TempDir()
	if err := os.WriteFile(filepath.Join(system, "client_secret_42-abc.apps.googleusercontent.com.json"), srv.ClientJSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	svc := &Service{ConfigDir: t.TempDir(), SystemDir: system}
	if !svc.HasClient() || svc.ClientOrigin() != ClientOrganisation {
		t.Fatalf("HasClient %v, origin %q; want the organisation's client", svc.HasClient(), svc.ClientOrigin())
	}
	cfg, err := svc.oauthConfig()
	if err != nil || cfg.ClientID != srv.ClientID {
		t.Fatalf("config %+v, %v", cfg, err)
	}
	if p := svc.ClientProblems(); len(p) != 0 {
		t.Errorf("problems with a good file: %v", p)
	}

	// The user's own import takes precedence.
	own := strings.Replace(string(srv.ClientJSON()), srv.ClientID, "own-client", 1)
	ownPath := filepath.Join(t.TempDir(), "client_secret_own.json")
	if err := os.WriteFile(ownPath, []byte(own), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := svc.ImportClientSecret(ownPath); err != nil {
		t.Fatal(err)
	}
	if cfg, err := svc.oauthConfig(); err != nil || cfg.ClientID != "own-client" || svc.ClientOrigin() != ClientImported {
		t.Errorf("after an import: client %q (%v), origin %q", cfg.ClientID, err, svc.ClientOrigin())
	}
}

func TestOrganisationClientProblems(t *testing.T) {
	notADir := filepath.Join(t.TempDir(), "hoist")
	if err := os.WriteFile(notADir, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		files   map[string]string
		dir     string
		is      error
		mention []string
	}{
		{"web client", map[string]string{"client_secret.json": `{"web":{"client_id":"w","client_secret":"GOCSPX-zz"}}`},
			"", ErrNotDesktopClient, []string{"client_secret.json", "web application", "organisation"}},
		{"broken JSON", map[string]string{"client_secret_1.json": `{"installed":`},
			"", ErrNotClientFile, []string{"client_secret_1.json", "not an OAuth client file"}},
		{"unreadable folder", nil, notADir, nil, []string{notADir, "could not read the folder"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = t.TempDir()
				for name, body := range tt.files {
					if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			svc := &Service{ConfigDir: t.TempDir(), SystemDir: dir}
			if svc.HasClient() {
				t.Error("a broken organisation client counts as set up")
			}
			problems := svc.ClientProblems()
			if len(problems) != 1 {
				t.Fatalf("problems %v, want one", problems)
			}
			msg := problems[0].Error()
			for _, m := range tt.mention {
				if !strings.Contains(msg, m) {
					t.Errorf("%q does not mention %q", msg, m)
				}
			}
			if strings.Contains(msg, "GOCSPX") {
				t.Error("the sentence quotes the client secret")
			}
			if tt.is != nil && !errors.Is(problems[0], tt.is) {
				t.Errorf("%v does not match %v", problems[0], tt.is)
			}
			// The user's own import still works and is used.
			good := authtest.NewServer(t).ClientJSON()
			p := filepath.Join(t.TempDir(), "c.json")
			if err := os.WriteFile(p, good, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := CheckClientFile(p); err != nil {
				t.Fatal(err)
			}
			if err := svc.ImportClientSecret(p); err != nil || !svc.HasClient() {
				t.Errorf("import beside a broken organisation file: %v, HasClient %v", err, svc.HasClient())
			}
		})
	}
}
