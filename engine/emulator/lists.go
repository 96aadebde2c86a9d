package emulator

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
)

// Lists is what the sandbox answers to the list methods behind Hoist's
// pickers: Campaign Manager 360's userProfiles.list and advertisers.list
// (v5) and Gmail's users.labels.list. The zero value is an account that
// has none of them.
type Lists struct {
	Profiles    []ListedProfile
	Advertisers map[string][]ListedAdvertiser // by profile id
	Labels      map[string][]ListedLabel      // by mailbox ("me" is the signed-in one)
}

// ListedProfile is a CM360 user profile as userProfiles.list gives it.
type ListedProfile struct {
	ProfileID   string `json:"profileId"`
	UserName    string `json:"userName"`
	AccountID   string `json:"accountId"`
	AccountName string `json:"accountName"`
}

// ListedAdvertiser is a CM360 advertiser as advertisers.list gives it.
type ListedAdvertiser struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	AccountID string `json:"accountId"`
	Status    string `json:"status"`
}

// ListedLabel is a Gmail label as users.labels.list gives it.
type ListedLabel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// DefaultLists is what the sandbox offers unless told otherwise: two
// profiles, one of whose accounts has no advertiser, and a mailbox with
// Gmail's system labels and a few of its own.
func DefaultLists() Lists {
	adv := func(id, name string) ListedAdvertiser {
		return ListedAdvertiser{ID: id, Name: name, AccountID: "817771", Status: "APPROVED"}
	}
	sys := func(id string) ListedLabel { return ListedLabel{ID: id, Name: id, Type: "system"} }
	user := func(id, name string) ListedLabel { return ListedLabel{ID: id, Name: name, Type: "user"} }
	return Lists{
		Profiles: []ListedProfile{
			{ProfileID: "4180912", UserName: "trafficking@northwind.example", AccountID: "817771", AccountName: "Northwind Media"},
			{ProfileID: "5519020", UserName: "trafficking@northwind.example", AccountID: "902215", AccountName: "Northwind Labs (no advertisers yet)"},
		},
		Advertisers: map[string][]ListedAdvertiser{
			"4180912": {
				adv("64032117", "ACME Outdoor"),
				adv("64032118", "Blue Harbor Coffee"),
				adv("64032150", "Contoso Bikes"),
				adv("64032171", "Fabrikam Shoes — Spring"),
				adv("64032199", "Tailspin Toys"),
			},
		},
		Labels: map[string][]ListedLabel{
			"me": {
				sys("INBOX"), sys("SENT"), sys("DRAFT"), sys("SPAM"), sys("TRASH"),
				sys("UNREAD"), sys("STARRED"), sys("IMPORTANT"),
				user("Label_1", "Invoices"), user("Label_2", "Clients/ACME"), user("Label_3", "Newsletters"),
			},
		},
	}
}

// listsState holds a server's lists; nil data means DefaultLists.
type listsState struct {
	mu   sync.Mutex
	data *Lists
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
// account that has no profile, advertiser or label of its own.
func (s *Server) SetLists(l Lists) {
	st := s.listsState()
	st.mu.Lock()
	st.data = &l
	st.mu.Unlock()
}

// listRoutes adds the list methods to the sandbox's routes.
func (s *Server) listRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /dfareporting/v5/userprofiles", s.serveProfiles)
	mux.HandleFunc("GET /dfareporting/v5/userprofiles/{profileId}/advertisers", s.serveAdvertisers)
	mux.HandleFunc("GET /gmail/v1/users/{userId}/labels", s.serveLabels)
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

func (s *Server) serveProfiles(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	items := s.lists().Profiles
	if items == nil {
		items = []ListedProfile{}
	}
	type item struct {
		Kind string `json:"kind"`
		ListedProfile
	}
	out := make([]item, len(items))
	for i, p := range items {
		out[i] = item{"dfareporting#userProfile", p}
	}
	writeList(w, map[string]any{"kind": "dfareporting#userProfileList", "etag": `"sandbox"`, "items": out})
}

func (s *Server) serveAdvertisers(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	l := s.lists()
	id := r.PathValue("profileId")
	if !slices.ContainsFunc(l.Profiles, func(p ListedProfile) bool { return p.ProfileID == id }) {
		writeError(w, newError(http.StatusForbidden, "forbidden", "The current user does not have access to profile %s.", id))
		return
	}
	search := strings.ToLower(strings.Trim(r.URL.Query().Get("searchString"), "*"))
	type item struct {
		Kind string `json:"kind"`
		ListedAdvertiser
	}
	out := []item{}
	for _, a := range l.Advertisers[id] {
		if search == "" || strings.Contains(strings.ToLower(a.Name), search) || a.ID == search {
			out = append(out, item{"dfareporting#advertiser", a})
		}
	}
	writeList(w, map[string]any{"kind": "dfareporting#advertisersListResponse", "advertisers": out})
}

func (s *Server) serveLabels(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	user := r.PathValue("userId")
	labels, ok := s.lists().Labels[user]
	if !ok && user != "me" {
		writeError(w, newError(http.StatusForbidden, "forbidden", "Delegation denied for %s", user))
		return
	}
	if labels == nil {
		labels = []ListedLabel{}
	}
	writeList(w, map[string]any{"labels": labels})
}

func writeList(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		writeError(w, internal("The list could not be written."))
		return
	}
	writeJSON(w, http.StatusOK, b)
}
