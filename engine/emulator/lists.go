package emulator

import (
	"encoding/json"
	"net/http"
	"sync"
)

// Lists is what the sandbox answers to the list methods behind Hoist's
// pickers, by the list's name (the one its destination's kind gives it,
// e.g. "cm360.profiles"). Each destination's file declares the lists it
// serves, with what they hold unless told otherwise (service.lists), and
// reads them with listed. The zero value is an account that has none of
// them.
type Lists map[string]any

// DefaultLists is what the sandbox offers unless told otherwise: each
// destination's own lists.
func DefaultLists() Lists {
	out := Lists{}
	for _, svc := range services {
		if svc.lists == nil {
			continue
		}
		for name, v := range svc.lists() {
			if _, dup := out[name]; dup {
				panic("emulator: the list " + name + " is served twice")
			}
			out[name] = v
		}
	}
	return out
}

// listsState holds a server's lists; nil data means DefaultLists.
type listsState struct {
	mu   sync.Mutex
	data *Lists
}

// listed is what the list name holds now, as the type its destination's
// file gives it; the type's zero value when the account has none.
func listed[T any](s *Server, name string) T {
	v, _ := s.lists()[name].(T)
	return v
}

func (s *Server) lists() Lists {
	st := s.listsState()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.data == nil {
		return DefaultLists()
	}
	return *st.data
}

func (s *Server) listsState() *listsState { return &s.listed }

// SetLists replaces what the list methods answer, e.g. with Lists{} for an
// account that has nothing in any of them.
func (s *Server) SetLists(l Lists) {
	st := s.listsState()
	st.mu.Lock()
	st.data = &l
	st.mu.Unlock()
}

// listAuthorized answers 401 as Google does when the token is refused.
func (s *Server) listAuthorized(w http.ResponseWriter, r *http.Request) bool {
	if s.requireAuth == nil || s.authorized(r) {
		return true
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="https://accounts.google.com/", error="invalid_token"`)
	writeError(w, newError(http.StatusUnauthorized, "authError",
		"Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential."))
	return false
}

func writeList(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, internal("The list could not be written."))
		return
	}
	writeJSON(w, http.StatusOK, b)
}
