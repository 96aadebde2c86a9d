package emulator

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The methods a client asks to find what an upload made when its answer was
// lost: Drive's files.list (q on appProperties), Gmail's users.messages.list
// (q=rfc822msgid:, or labelIds alone), users.messages.get (format=metadata)
// and users.drafts.list, and Cloud Storage's objects.get (storage.go). With
// Options.TokenScopes, Gmail refuses q to a token that carries only
// gmail.metadata, as Google does.

// lookupRoutes adds the lookups to the sandbox's routes.
func (s *Server) lookupRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /drive/v3/files", s.serveDriveList)
	mux.HandleFunc("GET /gmail/v1/users/{userId}/messages", s.serveGmailList)
	mux.HandleFunc("GET /gmail/v1/users/{userId}/messages/{id}", s.serveGmailGet)
	mux.HandleFunc("GET /gmail/v1/users/{userId}/drafts", s.serveDraftList)
	mux.HandleFunc("GET /storage/v1/b/{bucket}/o/{object...}", s.serveStorageObject)
}

// driveQuery is the one query shape the sandbox's files.list understands:
// appProperties has { key='K' and value='V' }, optionally "and trashed=false".
var driveQuery = regexp.MustCompile(`^\s*appProperties\s+has\s*\{\s*key\s*=\s*'((?:[^'\\]|\\.)*)'\s+and\s+value\s*=\s*'((?:[^'\\]|\\.)*)'\s*\}(\s+and\s+trashed\s*=\s*false)?\s*$`)

func unquoteDrive(s string) string {
	return strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(s)
}

func (s *Server) serveDriveList(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	q := r.URL.Query()
	m := driveQuery.FindStringSubmatch(q.Get("q"))
	if m == nil {
		writeError(w, newError(http.StatusBadRequest, "invalid", "Invalid Value"))
		return
	}
	key, value := unquoteDrive(m[1]), unquoteDrive(m[2])
	fields, ok := driveListFields(q.Get("fields"))
	if !ok {
		writeError(w, invalid("Invalid field selection %s", q.Get("fields")))
		return
	}
	byID := map[string]map[string]any{} // the newest version of each file
	var order []string
	for _, o := range s.store.Objects() {
		if o.Kind != KindDrive {
			continue
		}
		var meta struct {
			AppProperties map[string]string `json:"appProperties"`
		}
		if json.Unmarshal(o.Metadata, &meta) != nil || meta.AppProperties[key] != value {
			continue
		}
		var file map[string]any
		if json.Unmarshal(o.Response, &file) != nil {
			continue
		}
		id, _ := file["id"].(string)
		if _, seen := byID[id]; !seen {
			order = append(order, id)
		}
		byID[id] = file
	}
	files := []map[string]any{}
	for _, id := range order {
		out := map[string]any{}
		for _, f := range fields {
			if v, ok := byID[id][f]; ok {
				out[f] = v
			}
		}
		files = append(files, out)
	}
	writeList(w, map[string]any{"kind": "drive#fileList", "incompleteSearch": false, "files": files})
}

// driveListFields reads fields=files(a,b) (or nothing: Drive's default).
func driveListFields(v string) ([]string, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return []string{"kind", "id", "name", "mimeType"}, true
	}
	for _, part := range splitTop(v) {
		inner, ok := strings.CutPrefix(part, "files(")
		if !ok {
			if part == "nextPageToken" || part == "kind" || part == "incompleteSearch" {
				continue
			}
			return nil, false
		}
		var out []string
		for _, f := range strings.Split(strings.TrimSuffix(inner, ")"), ",") {
			f = strings.TrimSpace(f)
			if !slices.Contains(driveFileFields, f) && f != "appProperties" {
				return nil, false
			}
			out = append(out, f)
		}
		return out, true
	}
	return []string{"kind", "id", "name", "mimeType"}, true
}

// splitTop splits a fields selector at the commas outside parentheses.
func splitTop(v string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range v {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(v[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(v[start:]))
}

// Gmail's scopes that read a mailbox, and the one that reads headers only.
const (
	gmailScopeMetadata = "https://www.googleapis.com/auth/gmail.metadata"
	gmailScopeReadonly = "https://www.googleapis.com/auth/gmail.readonly"
	gmailScopeModify   = "https://www.googleapis.com/auth/gmail.modify"
	gmailScopeFull     = "https://mail.google.com/"
)

// gmailReadScopes checks the token's scopes for a read of the mailbox; with
// search, the scope must allow q.
func (s *Server) gmailReadScopes(w http.ResponseWriter, r *http.Request, search bool) bool {
	if s.tokenScopes == nil {
		return true
	}
	scopes := s.tokenScopes(bearerToken(r))
	full := slices.ContainsFunc(scopes, func(sc string) bool {
		return sc == gmailScopeReadonly || sc == gmailScopeModify || sc == gmailScopeFull
	})
	switch {
	case full:
		return true
	case slices.Contains(scopes, gmailScopeMetadata) && !search:
		return true
	case slices.Contains(scopes, gmailScopeMetadata):
		writeError(w, newError(http.StatusForbidden, "forbidden", "Metadata scope does not support 'q' parameter"))
		return false
	}
	writeError(w, newError(http.StatusForbidden, "insufficientPermissions", "Request had insufficient authentication scopes."))
	return false
}

// gmailMessages are the mailbox's messages (drafts among them), newest first by internal date.
func (s *Server) gmailMessages() []Object {
	var out []Object
	for _, o := range s.store.Objects() {
		if o.Kind == KindGmail {
			out = append(out, o)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].InternalDate.After(out[j].InternalDate) })
	return out
}

// gmailLabels are the labels of a message as its answer gave them.
func gmailLabels(o Object) []string {
	var r struct {
		LabelIDs []string `json:"labelIds"`
		ThreadID string   `json:"threadId"`
		Message  *struct {
			LabelIDs []string `json:"labelIds"`
		} `json:"message"`
	}
	_ = json.Unmarshal(o.Response, &r)
	if r.Message != nil {
		return r.Message.LabelIDs
	}
	return r.LabelIDs
}

// gmailRef is a message as messages.list names it.
func gmailRef(o Object) map[string]string {
	var r struct {
		ID       string `json:"id"`
		ThreadID string `json:"threadId"`
		Message  *struct {
			ID       string `json:"id"`
			ThreadID string `json:"threadId"`
		} `json:"message"`
	}
	_ = json.Unmarshal(o.Response, &r)
	if r.Message != nil {
		return map[string]string{"id": r.Message.ID, "threadId": r.Message.ThreadID}
	}
	return map[string]string{"id": r.ID, "threadId": r.ThreadID}
}

// msgidQuery reads the one search the sandbox understands: rfc822msgid:ID.
func msgidQuery(q string) (string, bool) {
	v, ok := strings.CutPrefix(strings.TrimSpace(q), "rfc822msgid:")
	return strings.Trim(v, "<> \t\""), ok
}

func (s *Server) serveGmailList(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) || !s.gmailMailbox(w, r) {
		return
	}
	q := r.URL.Query()
	search := q.Get("q")
	if !s.gmailReadScopes(w, r, search != "") {
		return
	}
	msgid, byID := msgidQuery(search)
	if search != "" && !byID {
		writeError(w, badRequest("The sandbox searches only rfc822msgid:ID."))
		return
	}
	max := 100
	if v := q.Get("maxResults"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			writeError(w, invalid("Invalid value for maxResults: %q", v))
			return
		}
		max = n
	}
	start := 0
	if v := q.Get("pageToken"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, invalid("Invalid pageToken"))
			return
		}
		start = n
	}
	spamTrash := q.Get("includeSpamTrash") == "true"
	var refs []map[string]string
	for _, o := range s.gmailMessages() {
		labels := gmailLabels(o)
		if !spamTrash && (slices.Contains(labels, "SPAM") || slices.Contains(labels, "TRASH")) {
			continue
		}
		if !hasAll(labels, q["labelIds"]) || (byID && o.MessageID != msgid) {
			continue
		}
		refs = append(refs, gmailRef(o))
	}
	body := map[string]any{"resultSizeEstimate": len(refs)}
	if start < len(refs) {
		end := min(start+max, len(refs))
		body["messages"] = refs[start:end]
		if end < len(refs) {
			body["nextPageToken"] = strconv.Itoa(end)
		}
	}
	writeList(w, body)
}

func hasAll(have, want []string) bool {
	for _, l := range want {
		for _, one := range strings.Split(l, ",") {
			if one = strings.TrimSpace(one); one != "" && !slices.Contains(have, one) {
				return false
			}
		}
	}
	return true
}

// gmailMailbox refuses a mailbox that is not the signed-in one's.
func (s *Server) gmailMailbox(w http.ResponseWriter, r *http.Request) bool {
	if u := r.PathValue("userId"); u != "me" && !strings.Contains(u, "@") {
		writeError(w, badRequest("Invalid user id specified in request/Delegation denied"))
		return false
	}
	return true
}

func (s *Server) serveGmailGet(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) || !s.gmailMailbox(w, r) || !s.gmailReadScopes(w, r, false) {
		return
	}
	q := r.URL.Query()
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "full", "metadata", "minimal":
	default:
		writeError(w, invalidEnum("format", "type.googleapis.com/gmail.Format", q.Get("format")))
		return
	}
	id := r.PathValue("id")
	for _, o := range s.gmailMessages() {
		ref := gmailRef(o)
		if ref["id"] != id {
			continue
		}
		msg := map[string]any{
			"id": ref["id"], "threadId": ref["threadId"], "labelIds": gmailLabels(o),
			"internalDate": strconv.FormatInt(o.InternalDate.UnixMilli(), 10),
			"sizeEstimate": o.Size, "snippet": "",
		}
		if strings.ToLower(q.Get("format")) != "minimal" {
			headers := []map[string]string{}
			if o.MessageID != "" && wantsHeader(q["metadataHeaders"], "Message-ID") {
				headers = append(headers, map[string]string{"name": "Message-ID", "value": "<" + o.MessageID + ">"})
			}
			msg["payload"] = map[string]any{"mimeType": "message/rfc822", "headers": headers}
		}
		writeList(w, msg)
		return
	}
	writeError(w, notFound("Requested entity was not found."))
}

func wantsHeader(asked []string, h string) bool {
	if len(asked) == 0 {
		return true
	}
	for _, a := range asked {
		for _, one := range strings.Split(a, ",") {
			if strings.EqualFold(strings.TrimSpace(one), h) {
				return true
			}
		}
	}
	return false
}

func (s *Server) serveDraftList(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) || !s.gmailMailbox(w, r) {
		return
	}
	search := r.URL.Query().Get("q")
	msgid, byID := msgidQuery(search)
	if search != "" && !byID {
		writeError(w, badRequest("The sandbox searches only rfc822msgid:ID."))
		return
	}
	drafts := []map[string]any{}
	seen := map[string]bool{}
	for _, o := range s.gmailMessages() {
		if o.Draft == "" || seen[o.Draft] || (byID && o.MessageID != msgid) {
			continue
		}
		seen[o.Draft] = true
		drafts = append(drafts, map[string]any{"id": o.Draft, "message": gmailRef(o)})
	}
	writeList(w, map[string]any{"drafts": drafts, "resultSizeEstimate": len(drafts)})
}

// gmailDate is the date Gmail files a message under: when it arrived, or,
// with internalDateSource=dateHeader (import's default), its Date header.
func gmailDate(op gmailOp, q map[string][]string, head []byte, arrived time.Time) time.Time {
	source := "receivedTime"
	if op == gmailImport {
		source = "dateHeader"
	}
	if v := q["internalDateSource"]; len(v) > 0 && v[0] != "" {
		source = v[0]
	}
	if (op == gmailInsert || op == gmailImport) && source == "dateHeader" {
		if t, ok := headerDate(head); ok {
			return t.UTC()
		}
	}
	return arrived
}
