// Package auth signs Hoist in to Google: OAuth 2.0 for installed apps
// (loopback redirect, PKCE, state), grants kept in the OS keychain, access
// tokens refreshed and attached only to Google's API hosts, and redaction
// of secrets from logs and messages.
package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"hoist/dirs"
)

// DefaultConsentTimeout is how long Login waits for the browser to come back.
const DefaultConsentTimeout = 5 * time.Minute

// DefaultRefreshEarly is how long before expiry an access token is renewed.
const DefaultRefreshEarly = time.Minute

const (
	accountsFileName = "accounts.json" // the account index: emails and scopes, no secrets
	tokensFileName   = "tokens.json"   // grants, only when the user chose a file over the keychain
)

// Service signs accounts in and out and gives authorized HTTP clients.
// Zero fields take defaults; a Service must not be copied after first use.
// signIn is the Service's sign-in flow (login.go): the browser, the code's
// exchange, who signed in, and revoking what is not kept.
type signIn struct{ *Service }

// indexFile is the Service's account index on disk: which accounts signed
// in, with which permissions, and where each one's grant is kept.
type indexFile struct{ *Service }

// tokenSources is the Service's one token source an account, shared by
// every client of that account and replaced when its grant changes.
type tokenSources struct{ *Service }

type Service struct {
	// Store keeps grants; nil means the OS keychain (Keychain{}).
	Store TokenStore
	// AllowFileStore: the user agreed to keep grants in a file (0600, in
	// ConfigDir) when the computer has no keychain. Ask before setting it.
	AllowFileStore bool
	// ConfigDir holds the imported client, the account index and, if
	// allowed, the token file; "" means Hoist's settings folder (dirs).
	ConfigDir string
	// SystemDir is the organisation's configuration folder, which may hold
	// a client_secret*.json for everyone on the computer; "" means none.
	// The user's own import takes precedence over it, and it over a
	// built-in client.
	SystemDir string
	// ClientJSON is a client_secret JSON given directly; it takes
	// precedence over an imported or built-in client.
	ClientJSON []byte
	// Endpoints of the OAuth service; empty fields mean Google's.
	Endpoints Endpoints
	// HTTPClient talks to the OAuth service; its Transport is also the
	// base of the clients Client returns. nil means a client with a timeout.
	HTTPClient *http.Client
	// OpenBrowser opens the consent page; nil means the system's browser.
	OpenBrowser func(url string) error
	// ShowURL is called with the consent page's address when the browser
	// could not be opened, so the user can open it by hand.
	ShowURL func(url string)
	// ConsentTimeout bounds the wait for the browser; 0 means DefaultConsentTimeout.
	ConsentTimeout time.Duration
	// AllowedHosts are extra hosts ("host:port", e.g. a local test server)
	// that receive the access token besides Google's API hosts.
	AllowedHosts []string
	// RefreshEarly renews tokens this long before they expire; 0 means DefaultRefreshEarly.
	RefreshEarly time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Logger receives warnings (a refreshed token that could not be saved);
	// nil means slog.Default(). Wrap its handler with RedactingHandler.
	Logger *slog.Logger

	mu       sync.Mutex
	sources  map[string]*TokenSource // one per account, shared by its clients
	saves    map[string]*grantLock   // one per account, kept for the Service's life
	keychain TokenStore              // the default Store, made once
	file     *FileStore
	session  *MemoryStore // sign-ins kept for this process only
	indexMu  sync.Mutex   // serializes read-modify-write of the account index
}

// Account is a signed-in Google account.
type Account struct {
	Email  string
	Scopes []string // granted scopes, full form
	// LessSafe: the grant is kept in a file instead of the keychain.
	LessSafe bool
	// ThisSession: the grant is kept in memory only, until Hoist quits.
	ThisSession bool
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Service) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.Default()
}

func (s *Service) httpClient() *http.Client {
	if s.HTTPClient != nil {
		return s.HTTPClient
	}
	return &http.Client{Timeout: 60 * time.Second}
}

func (s *Service) configDir() (string, error) {
	if s.ConfigDir != "" {
		return s.ConfigDir, nil
	}
	dir, err := dirs.Config()
	if err != nil {
		return "", plain("Hoist could not find the folder for its settings.", err)
	}
	return dir, nil
}

// grantLock is account's lock over the writes of its grant.
func (s *Service) grantLock(account string) *grantLock {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.saves == nil {
		s.saves = map[string]*grantLock{}
	}
	l := s.saves[account]
	if l == nil {
		l = newGrantLock()
		s.saves[account] = l
	}
	return l
}

func (s *Service) primary() TokenStore {
	if s.Store != nil {
		return s.Store
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keychain == nil {
		s.keychain = &Keychain{}
	}
	return s.keychain
}

// FileStore is the store kept in ConfigDir when the user prefers a file
// to the keychain (less safe). Set it as Store, with AllowFileStore, to
// keep new sign-ins there.
func (s *Service) FileStore() (*FileStore, error) { return s.fileStore() }

func (s *Service) fileStore() (*FileStore, error) {
	dir, err := s.configDir()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.file == nil {
		s.file = &FileStore{Path: filepath.Join(dir, tokensFileName)}
	}
	return s.file, nil
}

// loadGrant finds account's grant and the store that holds it.
func (s *Service) loadGrant(ctx context.Context, account string) (Grant, TokenStore, error) {
	if mem := s.memory(); mem.Has(account) {
		g, err := mem.Get(ctx, account)
		return g, mem, err
	}
	entry, indexed := (indexFile{s}).indexEntry(account)
	if entry.File {
		file, err := s.fileStore()
		if err != nil {
			return Grant{}, nil, err
		}
		g, err := file.Get(ctx, account)
		return g, file, err
	}
	store := s.primary()
	g, err := store.Get(ctx, account)
	if errors.Is(err, ErrNoKeychain) || errors.Is(err, ErrNotSignedIn) {
		// The index may be missing; a grant kept in a file is still found.
		if file, ferr := s.fileStore(); ferr == nil {
			if fg, ferr := file.Get(ctx, account); ferr == nil {
				return fg, file, nil
			}
		}
	}
	if errors.Is(err, ErrNoKeychain) && !indexed {
		// Nobody signed this account in here, keychain or not.
		return Grant{}, store, failure(ErrNotSignedIn, err)
	}
	return g, store, err
}

// saveGrant stores g in the keychain, or in the file when the account is
// already there or the user allowed it (allowFile) and there is no keychain.
func (s *Service) saveGrant(ctx context.Context, account string, g Grant, allowFile bool) (lessSafe bool, err error) {
	entry, _ := (indexFile{s}).indexEntry(account)
	var store TokenStore
	if entry.File {
		if store, err = s.fileStore(); err != nil {
			return false, err
		}
		err = store.Set(ctx, account, g)
	} else {
		store = s.primary()
		err = store.Set(ctx, account, g)
		if errors.Is(err, ErrNoKeychain) && allowFile {
			if store, err = s.fileStore(); err != nil {
				return false, err
			}
			err = store.Set(ctx, account, g)
		}
	}
	if err != nil {
		return false, err
	}
	lessSafe = isLessSafe(store)
	return lessSafe, (indexFile{s}).updateIndex(func(idx *accountIndex) {
		idx.put(indexEntry{Email: account, Scopes: ScopeNames(normalizeScopes(g.Scopes)), File: lessSafe})
	})
}

// Accounts lists the signed-in accounts, sorted by email.
func (s *Service) Accounts(ctx context.Context) ([]Account, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	idx, err := (indexFile{s}).readIndex()
	if err != nil {
		return nil, err
	}
	accounts := make([]Account, 0, len(idx.Accounts))
	for _, e := range idx.Accounts {
		a := Account{Email: e.Email, LessSafe: e.File}
		for _, sc := range e.Scopes {
			a.Scopes = append(a.Scopes, longScope(sc))
		}
		accounts = append(accounts, a)
	}
	for _, m := range s.memory().accounts() {
		if !slices.ContainsFunc(accounts, func(a Account) bool { return a.Email == m.Email }) {
			accounts = append(accounts, m)
		}
	}
	slices.SortFunc(accounts, func(a, b Account) int { return strings.Compare(a.Email, b.Email) })
	return accounts, nil
}

// Logout forgets account's grant on this computer and asks Google to
// withdraw it. When only the second part fails, the account is signed out
// here and the error matches ErrNotRevoked.
//
// A refresh saving its result meanwhile finishes first; none saves after.
func (s *Service) Logout(ctx context.Context, account string) error {
	saves := s.grantLock(account)
	if err := saves.lock(ctx); err != nil {
		return err
	}
	defer saves.unlock()
	g, store, err := s.loadGrant(ctx, account)
	if err != nil {
		_, indexed := (indexFile{s}).indexEntry(account)
		unreadable := errors.Is(err, ErrSignInAgain)
		listedOnly := errors.Is(err, ErrNotSignedIn) && indexed
		if store == nil || !(unreadable || listedOnly) {
			return err
		}
	}
	var revokeErr error
	if g.RefreshToken != "" {
		revokeErr = (signIn{s}).revoke(ctx, g.RefreshToken)
	}
	if err := store.Delete(ctx, account); err != nil && !errors.Is(err, ErrNotSignedIn) {
		return err
	}
	saves.gen++ // a source this one does not know of must not save either
	(tokenSources{s}).dropSource(account)
	if err := (indexFile{s}).updateIndex(func(idx *accountIndex) { idx.remove(account) }); err != nil {
		return err
	}
	if revokeErr != nil {
		return failure(ErrNotRevoked, revokeErr)
	}
	return nil
}

// TokenSource gives account's access tokens, shared by all its clients.
// It fails with ErrNotSignedIn when the account has no grant, and with a
// SignInAgainError listing Missing scopes when the grant lacks some of
// scopes (Login with ForAccount asks for them).
func (s *Service) TokenSource(ctx context.Context, account string, scopes []string) (*TokenSource, error) {
	cfg, err := s.oauthConfig()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	ts := s.sources[account]
	s.mu.Unlock()
	if ts == nil {
		if ts, err = (tokenSources{s}).newSource(ctx, account, cfg); err != nil {
			return nil, err
		}
	}
	if missing := missingScopes(ts.Scopes(), scopes); len(missing) > 0 {
		return nil, &SignInAgainError{Account: account, Missing: missing}
	}
	return ts, nil
}

// newSource makes and keeps account's token source, unless another caller
// just did. It holds the account's grantLock, so it neither reads a grant
// that a sign-out is deleting nor misses a new sign-in's.
func (s tokenSources) newSource(ctx context.Context, account string, cfg *oauth2.Config) (*TokenSource, error) {
	saves := s.grantLock(account)
	if err := saves.lock(ctx); err != nil {
		return nil, err
	}
	defer saves.unlock()
	s.mu.Lock()
	existing := s.sources[account]
	s.mu.Unlock()
	if existing != nil {
		return existing, nil
	}
	g, store, err := s.loadGrant(ctx, account)
	if err != nil {
		return nil, err
	}
	if g.ClientID != "" && g.ClientID != cfg.ClientID {
		// A grant of another OAuth client cannot be refreshed with this one.
		return nil, &SignInAgainError{Account: account}
	}
	ts := &TokenSource{
		account: account,
		config:  cfg,
		store:   store,
		client:  s.httpClient(),
		now:     s.now,
		early:   s.RefreshEarly,
		logger:  s.logger(),
		saves:   saves,
		grant:   g,
		gen:     saves.gen,
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sources == nil {
		s.sources = map[string]*TokenSource{}
	}
	s.sources[account] = ts
	return ts, nil
}

// NeedsSignIn reports whether err is mended only by signing the account in
// again: its grant is gone, withdrawn, expired or lacks scopes, or it was
// never signed in.
func (s *Service) NeedsSignIn(err error) bool {
	return errors.Is(err, ErrSignInAgain) || errors.Is(err, ErrNotSignedIn)
}

// KeychainLocked reports whether err is mended by unlocking the keychain.
func (s *Service) KeychainLocked(err error) bool { return errors.Is(err, ErrKeychainLocked) }

// Client gives an HTTP client that sends account's access token to
// Google's API hosts (and AllowedHosts) only, through HTTPClient's
// transport. See TokenSource for errors.
func (s *Service) Client(ctx context.Context, account string, scopes []string) (*http.Client, error) {
	return s.ClientVia(ctx, account, scopes, nil)
}

// ClientVia is Client sending its requests through base (nil: HTTPClient's
// transport), such as the uploader's own transport, so that an upload to
// Google travels as the same upload to any other server would.
func (s *Service) ClientVia(ctx context.Context, account string, scopes []string, base http.RoundTripper) (*http.Client, error) {
	ts, err := s.TokenSource(ctx, account, scopes)
	if err != nil {
		return nil, err
	}
	if base == nil {
		base = s.httpClient().Transport
	}
	return &http.Client{Transport: &Transport{
		Source:       ts,
		Base:         base,
		AllowedHosts: s.AllowedHosts,
	}}, nil
}

// replaceSource gives a live token source the grant a new sign-in made,
// of generation gen; the caller holds the account's grantLock.
func (s tokenSources) replaceSource(account string, g Grant, gen uint64) {
	s.mu.Lock()
	ts := s.sources[account]
	s.mu.Unlock()
	if ts != nil {
		ts.setGrant(g, gen)
	}
}

// dropSource ends a signed-out account's token source; clients still
// holding it get ErrSignInAgain.
func (s tokenSources) dropSource(account string) {
	s.mu.Lock()
	ts := s.sources[account]
	delete(s.sources, account)
	s.mu.Unlock()
	if ts != nil {
		ts.end()
	}
}

// forgetSources drops every cached token source (after a client change).
func (s tokenSources) forgetSources() {
	s.mu.Lock()
	s.sources = nil
	s.mu.Unlock()
}

// accountIndex is accounts.json: who is signed in, with which scopes and
// where the grant is kept. It holds no secret.
type accountIndex struct {
	Accounts []indexEntry `json:"accounts"`
}

type indexEntry struct {
	Email  string   `json:"email"`
	Scopes []string `json:"scopes,omitempty"` // short names
	File   bool     `json:"file,omitempty"`   // kept in the token file, not the keychain
}

func (idx *accountIndex) put(e indexEntry) {
	for i := range idx.Accounts {
		if idx.Accounts[i].Email == e.Email {
			idx.Accounts[i] = e
			return
		}
	}
	idx.Accounts = append(idx.Accounts, e)
}

func (idx *accountIndex) remove(email string) {
	idx.Accounts = slices.DeleteFunc(idx.Accounts, func(e indexEntry) bool { return e.Email == email })
}

func (s indexFile) indexPath() (string, error) {
	dir, err := s.configDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, accountsFileName), nil
}

func (s indexFile) readIndex() (accountIndex, error) {
	var idx accountIndex
	path, err := s.indexPath()
	if err != nil {
		return idx, err
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return idx, nil
	}
	if err != nil {
		return idx, plain(fmt.Sprintf("Hoist could not read its list of accounts (%s).", path), err)
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return accountIndex{}, fmt.Errorf("Hoist's list of accounts (%s) is damaged. Delete it and sign in again.", path)
	}
	return idx, nil
}

func (s indexFile) indexEntry(email string) (indexEntry, bool) {
	idx, err := s.readIndex()
	if err != nil {
		return indexEntry{}, false
	}
	for _, e := range idx.Accounts {
		if e.Email == email {
			return e, true
		}
	}
	return indexEntry{}, false
}

func (s indexFile) updateIndex(change func(*accountIndex)) error {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	idx, err := s.readIndex()
	if err != nil {
		return err
	}
	change(&idx)
	path, err := s.indexPath()
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(idx, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding the list of accounts: %w", err)
	}
	if err := writePrivateFile(path, b); err != nil {
		return plain(fmt.Sprintf("Hoist could not save its list of accounts (%s).", path), err)
	}
	return nil
}
