package auth

import (
	"context"
	"slices"
	"sync"
)

// MemoryStore keeps grants in this process's memory only: nothing is
// written anywhere, and they are gone when the process ends. It holds the
// sign-ins the user chose to keep "for this session only".
type MemoryStore struct {
	mu sync.Mutex
	m  map[string]Grant
}

// Get returns account's grant, or ErrNotSignedIn.
func (m *MemoryStore) Get(_ context.Context, account string) (Grant, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	g, ok := m.m[account]
	if !ok {
		return Grant{}, ErrNotSignedIn
	}
	g.Scopes = slices.Clone(g.Scopes)
	return g, nil
}

// Set keeps account's grant.
func (m *MemoryStore) Set(_ context.Context, account string, g Grant) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]Grant{}
	}
	g.Scopes = slices.Clone(g.Scopes)
	m.m[account] = g
	return nil
}

// Delete forgets account's grant.
func (m *MemoryStore) Delete(_ context.Context, account string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.m[account]; !ok {
		return ErrNotSignedIn
	}
	delete(m.m, account)
	return nil
}

// Has reports whether account's grant is kept here.
func (m *MemoryStore) Has(account string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.m[account]
	return ok
}

// accounts lists the accounts kept here.
func (m *MemoryStore) accounts() []Account {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Account, 0, len(m.m))
	for email, g := range m.m {
		out = append(out, Account{Email: email, Scopes: slices.Clone(g.Scopes), ThisSession: true})
	}
	return out
}

// memory is the Service's store of sign-ins kept for this session only.
func (s *Service) memory() *MemoryStore {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.session == nil {
		s.session = &MemoryStore{}
	}
	return s.session
}
