package emulator

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// serveLabelCreate is users.labels.create: a new label of the user's, its
// id Label_ and a number, listed by users.labels.list from then on. A name
// that is taken (whatever its case) is refused, 409, as Gmail does.
func (s *Server) serveLabelCreate(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil || json.Unmarshal(b, &body) != nil {
		writeError(w, invalid("Invalid JSON payload received."))
		return
	}
	name := strings.TrimSpace(body.Name)
	if name == "" {
		writeError(w, invalid("Invalid label name"))
		return
	}
	user := r.PathValue("userId")
	st := s.listsState()
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.data == nil {
		d := DefaultLists()
		st.data = &d
	}
	all := maps.Clone(*st.data)
	byUser := maps.Clone(listedIn[map[string][]ListedLabel](all, listLabels))
	if byUser == nil {
		byUser = map[string][]ListedLabel{}
	}
	labels := slices.Clone(byUser[user])
	next := 1
	for _, l := range labels {
		if strings.EqualFold(l.Name, name) {
			writeError(w, newError(http.StatusConflict, "failedPrecondition", "Label name exists or conflicts"))
			return
		}
		if n, err := strconv.Atoi(strings.TrimPrefix(l.ID, "Label_")); err == nil && strings.HasPrefix(l.ID, "Label_") {
			next = max(next, n+1)
		}
	}
	made := ListedLabel{ID: "Label_" + strconv.Itoa(next), Name: name, Type: "user"}
	byUser[user] = append(labels, made)
	all[listLabels] = byUser
	st.data = &all
	s.labelsMade.Add(1)
	out, _ := json.Marshal(made)
	writeJSON(w, http.StatusOK, out)
}

// listedIn is what the list name holds in l, as type T.
func listedIn[T any](l Lists, name string) T {
	v, _ := l[name].(T)
	return v
}

// LabelsCreated counts the labels users.labels.create made.
func (s *Server) LabelsCreated() int { return int(s.labelsMade.Load()) }
