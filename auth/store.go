package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// TokenStore keeps one Grant per account (the account's email).
// Get returns an error matching ErrNotSignedIn when the account has none.
type TokenStore interface {
	Get(ctx context.Context, account string) (Grant, error)
	Set(ctx context.Context, account string, g Grant) error
	Delete(ctx context.Context, account string) error
}

// lessSafe is implemented by stores that keep grants outside the keychain.
type lessSafe interface {
	LessSafe() bool
}

func isLessSafe(s TokenStore) bool {
	ls, ok := s.(lessSafe)
	return ok && ls.LessSafe()
}

// KeychainService is the service name of Hoist's keychain entries.
const KeychainService = "Hoist"

// DefaultKeychainTimeout bounds every keychain call.
const DefaultKeychainTimeout = 5 * time.Second

// Keyring is the raw keychain: go-keyring's functions, or a test double.
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// SystemKeyring is the operating system's keychain (Secret Service on
// Linux, Keychain on macOS, Credential Manager on Windows).
type SystemKeyring struct{}

func (SystemKeyring) Get(service, user string) (string, error) {
	if err := keychainPreflight(); err != nil {
		return "", err
	}
	return keyring.Get(service, user)
}

func (SystemKeyring) Set(service, user, secret string) error {
	if err := keychainPreflight(); err != nil {
		return err
	}
	return keyring.Set(service, user, secret)
}

func (SystemKeyring) Delete(service, user string) error {
	if err := keychainPreflight(); err != nil {
		return err
	}
	return keyring.Delete(service, user)
}

// Keychain is a TokenStore in the OS keychain: service "Hoist", one entry
// per account with the account's email as user name.
type Keychain struct {
	Service string        // "" means KeychainService
	Timeout time.Duration // per call; 0 means DefaultKeychainTimeout
	Backend Keyring       // nil means SystemKeyring
}

func (k *Keychain) service() string {
	if k.Service == "" {
		return KeychainService
	}
	return k.Service
}

func (k *Keychain) backend() Keyring {
	if k.Backend == nil {
		return SystemKeyring{}
	}
	return k.Backend
}

func (k *Keychain) Get(ctx context.Context, account string) (Grant, error) {
	var secret string
	err := k.call(ctx, func(b Keyring) (err error) {
		secret, err = b.Get(k.service(), account)
		return err
	})
	if err != nil {
		return Grant{}, err
	}
	return decodeGrant(secret)
}

func (k *Keychain) Set(ctx context.Context, account string, g Grant) error {
	secret, err := encodeGrant(g)
	if err != nil {
		return err
	}
	return k.call(ctx, func(b Keyring) error { return b.Set(k.service(), account, secret) })
}

func (k *Keychain) Delete(ctx context.Context, account string) error {
	return k.call(ctx, func(b Keyring) error { return b.Delete(k.service(), account) })
}

// call runs fn in its own goroutine so that a keychain that never answers
// (locked with no way to prompt, a hung daemon) cannot hang Hoist. Such a
// goroutine ends when the keychain finally answers; its result is dropped.
func (k *Keychain) call(ctx context.Context, fn func(Keyring) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	timeout := k.Timeout
	if timeout <= 0 {
		timeout = DefaultKeychainTimeout
	}
	b := k.backend()
	done := make(chan error, 1)
	go func() { done <- fn(b) }()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case err := <-done:
		return classifyKeychainError(err)
	case <-timer.C:
		return failure(ErrKeychainLocked, context.DeadlineExceeded)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// classifyKeychainError maps what the keychain libraries return to
// ErrNotSignedIn, ErrNoKeychain, ErrKeychainLocked or ErrTooBig.
func classifyKeychainError(err error) error {
	var opErr *net.OpError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotSignedIn), errors.Is(err, ErrNoKeychain),
		errors.Is(err, ErrKeychainLocked), errors.Is(err, ErrTooBig):
		return err
	case errors.Is(err, keyring.ErrNotFound):
		return failure(ErrNotSignedIn, err)
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return failure(ErrTooBig, err)
	case errors.Is(err, keyring.ErrUnsupportedPlatform),
		errors.As(err, &opErr),
		errors.Is(err, fs.ErrNotExist),
		errors.Is(err, exec.ErrNotFound),
		isNoSecretService(err):
		return failure(ErrNoKeychain, err)
	}
	// What is left is a refused or failed unlock, in each library's words.
	return failure(ErrKeychainLocked, err)
}

// FileStore keeps grants in a JSON file that only the user can read. It is
// less safe than the keychain and is used only when the user agreed to it.
type FileStore struct {
	Path string

	mu sync.Mutex
}

// LessSafe reports that grants here are outside the keychain.
func (f *FileStore) LessSafe() bool { return true }

func (f *FileStore) Get(ctx context.Context, account string) (Grant, error) {
	if err := ctx.Err(); err != nil {
		return Grant{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.read()
	if err != nil {
		return Grant{}, err
	}
	secret, ok := entries[account]
	if !ok {
		return Grant{}, ErrNotSignedIn
	}
	return decodeGrant(secret)
}

func (f *FileStore) Set(ctx context.Context, account string, g Grant) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	secret, err := encodeGrant(g)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.read()
	if err != nil {
		return err
	}
	entries[account] = secret
	return f.write(entries)
}

func (f *FileStore) Delete(ctx context.Context, account string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	entries, err := f.read()
	if err != nil {
		return err
	}
	if _, ok := entries[account]; !ok {
		return ErrNotSignedIn
	}
	delete(entries, account)
	if len(entries) == 0 {
		if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return plain(fmt.Sprintf("Hoist could not remove the file with the sign-ins (%s).", f.Path), err)
		}
		return nil
	}
	return f.write(entries)
}

func (f *FileStore) read() (map[string]string, error) {
	entries := map[string]string{}
	b, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return entries, nil
	}
	if err != nil {
		return nil, plain(fmt.Sprintf("Hoist could not read the file with the sign-ins (%s).", f.Path), err)
	}
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("The file with the sign-ins (%s) is damaged. Delete it and sign in again.", f.Path)
	}
	return entries, nil
}

func (f *FileStore) write(entries map[string]string) error {
	b, err := json.Marshal(entries)
	if err != nil {
		return fmt.Errorf("encoding the sign-in file: %w", err)
	}
	if err := writePrivateFile(f.Path, b); err != nil {
		return plain(fmt.Sprintf("Hoist could not save the sign-in in its file (%s).", f.Path), err)
	}
	return nil
}

// writePrivateFile replaces path atomically with a file only the user can
// read (0600) in a directory only the user can enter (0700).
func writePrivateFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
