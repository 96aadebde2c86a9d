package auth

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"hoist/auth/authtest"
	"hoist/internal/testclock"
)

// memStore is a TokenStore in memory; beforeSet, if set, runs inside Set.
type memStore struct {
	mu        sync.Mutex
	grants    map[string]Grant
	sets      int
	beforeSet func()
	setErr    error
}

func newMemStore() *memStore { return &memStore{grants: map[string]Grant{}} }

func (m *memStore) Get(ctx context.Context, account string) (Grant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.grants[account]
	if !ok {
		return Grant{}, ErrNotSignedIn
	}
	return g, nil
}

func (m *memStore) Set(ctx context.Context, account string, g Grant) error {
	m.mu.Lock()
	hook := m.beforeSet
	m.beforeSet = nil
	m.mu.Unlock()
	if hook != nil {
		hook()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sets++
	if m.setErr != nil {
		return m.setErr
	}
	// Round-trip through the stored form, as the keychain would.
	s, err := encodeGrant(g)
	if err != nil {
		return err
	}
	m.grants[account], err = decodeGrant(s)
	return err
}

func (m *memStore) Delete(ctx context.Context, account string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.grants[account]; !ok {
		return ErrNotSignedIn
	}
	delete(m.grants, account)
	return nil
}

func (m *memStore) grant(account string) (Grant, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.grants[account]
	return g, ok
}

func newFakeClock() *testclock.Clock {
	return testclock.At(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
}

// fixture is a Service wired to a fake OAuth server and a fake browser.
type fixture struct {
	srv     *authtest.Server
	svc     *Service
	store   *memStore
	browser *authtest.Browser
	clock   *testclock.Clock
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := authtest.NewServer(t)
	f := &fixture{srv: srv, store: newMemStore(), browser: &authtest.Browser{}, clock: newFakeClock()}
	f.svc = &Service{
		Store:          f.store,
		ConfigDir:      t.TempDir(),
		ClientJSON:     srv.ClientJSON(),
		Endpoints:      EndpointsAt(srv.URL),
		OpenBrowser:    f.browser.Open,
		ConsentTimeout: time.Minute,
		AllowedHosts:   []string{srv.Host()},
		Now:            f.clock.Now,
	}
	t.Cleanup(func() { f.browser.Wait() })
	return f
}

// login signs the fake server's account in with scopes and fails the test otherwise.
func (f *fixture) login(t *testing.T, scopes ...string) Account {
	t.Helper()
	acct, err := f.svc.Login(t.Context(), scopes)
	if err != nil {
		t.Fatalf("Login: %v", err)
	}
	return acct
}

// callsTheAPI checks that account's client for scopes reaches the fake
// server's API, which answers only a live access token.
func (f *fixture) callsTheAPI(t *testing.T, account string, scopes ...string) {
	t.Helper()
	client, err := f.svc.Client(t.Context(), account, scopes)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := client.Get(f.srv.URL + "/api/ping")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("API answered %d", resp.StatusCode)
	}
}

// filesContaining lists files under dir whose content includes any of secrets.
func filesContaining(t *testing.T, dir string, secrets ...string) []string {
	t.Helper()
	var found []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range secrets {
			if s != "" && strings.Contains(string(b), s) {
				found = append(found, path)
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return found
}
