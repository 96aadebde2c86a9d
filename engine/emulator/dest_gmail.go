package emulator

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/encoding/htmlindex"
)

// KindGmail is Gmail's users.messages.insert, import and send, users.drafts.create and update.
const KindGmail Kind = "gmail" // /upload/gmail/v1/users/{userId}/...

func init() {
	serve(service{prefix: "gmail", kind: KindGmail, resolve: resolveGmail, routes: func(s *Server, mux *http.ServeMux) {
		// What finds an email by its Message-ID.
		mux.HandleFunc("GET /gmail/v1/users/{userId}/messages", s.serveGmailList)
		mux.HandleFunc("GET /gmail/v1/users/{userId}/messages/{id}", s.serveGmailGet)
		mux.HandleFunc("GET /gmail/v1/users/{userId}/drafts", s.serveDraftList)
		// Where the mailbox stands, and what was added since.
		mux.HandleFunc("GET /gmail/v1/users/{userId}/profile", s.serveGmailProfile)
		mux.HandleFunc("GET /gmail/v1/users/{userId}/history", s.serveGmailHistory)
		// What the labels' picker reads.
		mux.HandleFunc("GET /gmail/v1/users/{userId}/labels", s.serveLabels)
		mux.HandleFunc("POST /gmail/v1/users/{userId}/labels", s.serveLabelCreate)
	}, lists: gmailLists})
}

// listLabels is the list behind Gmail's labels' picker, users.labels.list:
// map[string][]ListedLabel, by mailbox ("me" is the signed-in one).
const listLabels = "gmail.labels"

// ListedLabel is a Gmail label as users.labels.list gives it.
type ListedLabel struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Type string `json:"type"`
}

// gmailLists are what the sandbox offers unless told otherwise: a mailbox
// with Gmail's system labels and a few of its own.
func gmailLists() Lists {
	sys := func(id string) ListedLabel { return ListedLabel{ID: id, Name: id, Type: "system"} }
	user := func(id, name string) ListedLabel { return ListedLabel{ID: id, Name: name, Type: "user"} }
	return Lists{listLabels: map[string][]ListedLabel{
		"me": {
			sys("INBOX"), sys("SENT"), sys("DRAFT"), sys("SPAM"), sys("TRASH"),
			sys("UNREAD"), sys("STARRED"), sys("IMPORTANT"),
			user("Label_1", "Invoices"), user("Label_2", "Clients/ACME"), user("Label_3", "Newsletters"),
		},
	}}
}

func (s *Server) serveLabels(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) {
		return
	}
	user := r.PathValue("userId")
	labels, ok := listed[map[string][]ListedLabel](s, listLabels)[user]
	if !ok && user != "me" {
		writeError(w, newError(http.StatusForbidden, "forbidden", "Delegation denied for %s", user))
		return
	}
	if labels == nil {
		labels = []ListedLabel{}
	}
	writeList(w, map[string]any{"labels": labels})
}

const (
	gmailMailboxLimit = 150 << 20 // users.messages.insert and import
	gmailSendLimit    = 35 << 20  // users.messages.send, users.drafts.create and update
)

type gmailOp string

const (
	gmailInsert      gmailOp = "gmail.users.messages.insert"
	gmailImport      gmailOp = "gmail.users.messages.import"
	gmailSend        gmailOp = "gmail.users.messages.send"
	gmailDraftCreate gmailOp = "gmail.users.drafts.create"
	gmailDraftUpdate gmailOp = "gmail.users.drafts.update"
)

type gmailEndpoint struct {
	op    gmailOp
	user  string
	draft string // drafts.update: the draft replaced
}

// resolveGmail maps /upload/gmail/v1/users/{userId}/... to a method.
func resolveGmail(method string, seg []string) (endpoint, *apiError) {
	if len(seg) < 5 || seg[1] != "v1" || seg[2] != "users" || seg[3] == "" {
		return nil, methodNotFound()
	}
	ep := &gmailEndpoint{user: seg[3]}
	want := http.MethodPost
	switch rest := seg[4:]; {
	case len(rest) == 1 && rest[0] == "messages":
		ep.op = gmailInsert
	case len(rest) == 2 && rest[0] == "messages" && rest[1] == "import":
		ep.op = gmailImport
	case len(rest) == 2 && rest[0] == "messages" && rest[1] == "send":
		ep.op = gmailSend
	case len(rest) == 1 && rest[0] == "drafts":
		ep.op = gmailDraftCreate
	case len(rest) == 2 && rest[0] == "drafts" && rest[1] != "":
		ep.op, ep.draft, want = gmailDraftUpdate, rest[1], http.MethodPut
	default:
		return nil, methodNotFound()
	}
	if method != want {
		return nil, methodNotFound()
	}
	return ep, nil
}

func (g *gmailEndpoint) kind() Kind      { return KindGmail }
func (g *gmailEndpoint) action() string  { return string(g.op) }
func (g *gmailEndpoint) accepts() string { return "message/*" }
func (g *gmailEndpoint) newID() string   { return randomHex(8) }

func (g *gmailEndpoint) limit() int64 {
	if g.op == gmailInsert || g.op == gmailImport {
		return gmailMailboxLimit
	}
	return gmailSendLimit
}

func (g *gmailEndpoint) isDraft() bool { return g.op == gmailDraftCreate || g.op == gmailDraftUpdate }

var gmailMessageFields = []string{
	"id", "threadId", "labelIds", "snippet", "historyId", "internalDate",
	"payload", "sizeEstimate", "raw", "classificationLabelValues",
}

var gmailSystemLabels = []string{
	"INBOX", "SPAM", "TRASH", "UNREAD", "STARRED", "IMPORTANT", "SENT", "DRAFT", "CHAT",
	"CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS",
}

var gmailUserLabel = regexp.MustCompile(`^Label_[0-9]+$`)

type gmailMessageMeta struct {
	ThreadID string   `json:"threadId"`
	LabelIDs []string `json:"labelIds"`
}

type gmailDraftMeta struct {
	ID      string          `json:"id"`
	Message json.RawMessage `json:"message"`
}

func (g *gmailEndpoint) check(s *Server, u *uploadInfo) *apiError {
	if g.user != "me" && !strings.Contains(g.user, "@") {
		return badRequest("Invalid user id specified in request/Delegation denied")
	}
	if e := g.checkQuery(u.query); e != nil {
		return e
	}
	if _, e := g.message(u.metadata); e != nil {
		return e
	}
	if g.op == gmailDraftUpdate && !s.draftExists(g.draft) {
		return notFound("Requested entity was not found.")
	}
	return s.gmailQuota.spend(g.user, g.op, s.now(), s.gmailLimit)
}

func (g *gmailEndpoint) checkQuery(q url.Values) *apiError {
	var bools []string
	switch g.op {
	case gmailInsert:
		bools = []string{"deleted"}
	case gmailImport:
		bools = []string{"deleted", "neverMarkSpam", "processForCalendar"}
	default:
		return nil
	}
	if v := q.Get("internalDateSource"); v != "" && v != "receivedTime" && v != "dateHeader" {
		return invalidEnum("internal_date_source", "type.googleapis.com/gmail.InternalDateSource", v)
	}
	for _, name := range bools {
		if v := q.Get(name); v != "" && v != "true" && v != "false" {
			return invalid("Invalid value at '%s' (TYPE_BOOL), %q", name, v)
		}
	}
	return nil
}

// message reads the Message metadata, inside a Draft for the drafts methods.
func (g *gmailEndpoint) message(meta json.RawMessage) (gmailMessageMeta, *apiError) {
	var m gmailMessageMeta
	prefix := ""
	if g.isDraft() {
		if e := checkFields(meta, "", "id", "message"); e != nil {
			return m, e
		}
		var d gmailDraftMeta
		if meta != nil {
			if err := json.Unmarshal(meta, &d); err != nil {
				return m, invalid("Invalid JSON payload received: the Draft resource is malformed.")
			}
		}
		meta, prefix = d.Message, "message."
		if string(meta) == "null" {
			meta = nil
		}
	}
	if e := checkFields(meta, prefix, gmailMessageFields...); e != nil {
		return m, e
	}
	if meta != nil {
		if err := json.Unmarshal(meta, &m); err != nil {
			return m, invalid("Invalid JSON payload received: threadId must be a string and labelIds a list of strings.")
		}
	}
	for _, l := range m.LabelIDs {
		if !slices.Contains(gmailSystemLabels, l) && !gmailUserLabel.MatchString(l) {
			return m, invalid("Invalid label: %s", l)
		}
	}
	return m, nil
}

func (g *gmailEndpoint) inspect(u *uploadInfo, c content) *apiError {
	if c.Size == 0 {
		return invalid("The uploaded media is empty; it must be an RFC 822 email message.")
	}
	msg, err := mail.ReadMessage(bytes.NewReader(c.Head))
	if err != nil {
		return invalid("The uploaded media is not an RFC 822 email message: %v.", err)
	}
	if g.op == gmailSend {
		h := msg.Header
		if h.Get("To") == "" && h.Get("Cc") == "" && h.Get("Bcc") == "" {
			return invalid("Recipient address required")
		}
	}
	return nil
}

func (g *gmailEndpoint) resource(s *Server, f *finished) resourceResult {
	meta, _ := g.message(f.info.metadata)
	thread := meta.ThreadID
	if thread == "" {
		thread = f.id
	}
	labels := meta.LabelIDs
	switch {
	case g.op == gmailSend:
		labels = []string{"SENT"}
	case g.isDraft():
		labels = []string{"DRAFT"}
	}
	msg := gmailMessage{ID: f.id, ThreadID: thread, LabelIDs: labels}
	res := resourceResult{name: subject(f.content.Head), body: msg,
		messageID: messageID(f.content.Head), internalDate: gmailDate(g.op, f.info.query, f.content.Head, f.created)}
	if g.op == gmailSend && !usableMessageID(f.content.Head) {
		// Gmail gives an email it sends without a Message-ID it can use one
		// of its own; one written <left@right> it keeps.
		res.messageID = "CA" + strings.ToUpper(randomHex(12)) + "@mail.gmail.com"
	}
	if g.isDraft() {
		res.draft = g.draft
		if res.draft == "" {
			res.draft = "r" + strconv.FormatInt(randomInt(1e18, 9e18), 10)
		}
		res.body = gmailDraft{ID: res.draft, Message: msg}
	}
	return res
}

type gmailMessage struct {
	ID       string   `json:"id"`
	ThreadID string   `json:"threadId"`
	LabelIDs []string `json:"labelIds,omitempty"`
}

type gmailDraft struct {
	ID      string       `json:"id"`
	Message gmailMessage `json:"message"`
}

// subjectDecoder reads encoded words in any charset mail programs use, such
// as windows-1256 for Arabic and ISO-8859-8 for Hebrew, not only UTF-8.
var subjectDecoder = &mime.WordDecoder{CharsetReader: func(charset string, input io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, err
	}
	return enc.NewDecoder().Reader(input), nil
}}

// subject is a message's decoded Subject, to name it in listings.
func subject(head []byte) string {
	msg, err := mail.ReadMessage(bytes.NewReader(head))
	if err != nil {
		return ""
	}
	sub := msg.Header.Get("Subject")
	if dec, err := subjectDecoder.DecodeHeader(sub); err == nil {
		return dec
	}
	return sub
}

// draftExists tells whether a Gmail draft was created here.
func (s *Server) draftExists(id string) bool {
	for _, o := range s.store.Objects() {
		if o.Kind == KindGmail && o.Draft == id {
			return true
		}
	}
	return false
}

// messageID is a message's Message-ID, angle brackets trimmed.
func messageID(head []byte) string {
	msg, err := mail.ReadMessage(bytes.NewReader(head))
	if err != nil {
		return ""
	}
	return strings.Trim(msg.Header.Get("Message-Id"), "<> \t")
}

// headerDate is a message's Date header.
func headerDate(head []byte) (time.Time, bool) {
	msg, err := mail.ReadMessage(bytes.NewReader(head))
	if err != nil {
		return time.Time{}, false
	}
	t, err := msg.Header.Date()
	return t, err == nil
}

// Gmail's scopes that read a mailbox, and the one that reads headers only.
const (
	gmailScopeMetadata = "https://www.googleapis.com/auth/gmail.metadata"
	gmailScopeReadonly = "https://www.googleapis.com/auth/gmail.readonly"
	gmailScopeModify   = "https://www.googleapis.com/auth/gmail.modify"
	gmailScopeFull     = "https://mail.google.com/"
	gmailScopeCompose  = "https://www.googleapis.com/auth/gmail.compose"
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
	max, start, err := gmailPage(q)
	if err != nil {
		writeError(w, err)
		return
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

// usableMessageID reports whether an email's Message-ID is one Gmail keeps
// when it sends the email: present and written <left@right>.
func usableMessageID(head []byte) bool {
	msg, err := mail.ReadMessage(bytes.NewReader(head))
	if err != nil {
		return false
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(msg.Header.Get("Message-Id")), "<")
	if !ok {
		return false
	}
	v, ok = strings.CutSuffix(v, ">")
	left, right, at := strings.Cut(v, "@")
	return ok && at && left != "" && right != "" && !strings.ContainsAny(v, "<> \t\r\n") && !strings.Contains(right, "@")
}

// The mailbox's history: every message added is a history record, its
// historyId growing with gaps between (Gmail's ids are not contiguous).
// Gmail keeps about a week of it; ids older than the sandbox's first are
// refused with 404, as Gmail refuses an id it no longer keeps.
const (
	gmailFirstHistory = 4102
	gmailHistoryGap   = 7
)

// gmailHistoryOf is the historyId of the n-th message added (from 0).
func gmailHistoryOf(n int) uint64 { return gmailFirstHistory + gmailHistoryGap*uint64(n+1) }

// gmailAdded are the mailbox's messages in the order they were added.
func (s *Server) gmailAdded() []Object {
	var out []Object
	for _, o := range s.store.Objects() {
		if o.Kind == KindGmail {
			out = append(out, o)
		}
	}
	return out
}

// serveGmailProfile is users.getProfile: the mailbox's address, counts and
// current historyId. Gmail allows it to gmail.compose as well as to the
// scopes that read the mailbox.
func (s *Server) serveGmailProfile(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) || !s.gmailMailbox(w, r) {
		return
	}
	if s.tokenScopes != nil && !slices.Contains(s.tokenScopes(bearerToken(r)), gmailScopeCompose) && !s.gmailReadScopes(w, r, false) {
		return
	}
	added := s.gmailAdded()
	threads := map[string]bool{}
	for _, o := range added {
		threads[gmailRef(o)["threadId"]] = true
	}
	address := r.PathValue("userId")
	if address == "me" {
		address = "sandbox@example.com"
	}
	writeList(w, map[string]any{
		"emailAddress": address, "messagesTotal": len(added), "threadsTotal": len(threads),
		"historyId": strconv.FormatUint(gmailHistoryOf(len(added)-1), 10),
	})
}

// serveGmailHistory is users.history.list: the records after
// startHistoryId, oldest first; with historyTypes=messageAdded only the
// messages added, with labelId only those of that label.
func (s *Server) serveGmailHistory(w http.ResponseWriter, r *http.Request) {
	if !s.listAuthorized(w, r) || !s.gmailMailbox(w, r) || !s.gmailReadScopes(w, r, false) {
		return
	}
	q := r.URL.Query()
	start, err := strconv.ParseUint(q.Get("startHistoryId"), 10, 64)
	if err != nil {
		writeError(w, invalid("Invalid startHistoryId: %q", q.Get("startHistoryId")))
		return
	}
	for _, t := range q["historyTypes"] {
		switch t {
		case "messageAdded", "messageDeleted", "labelAdded", "labelRemoved":
		default:
			writeError(w, invalidEnum("history_types", "type.googleapis.com/gmail.HistoryType", t))
			return
		}
	}
	max, skip, perr := gmailPage(q)
	if perr != nil {
		writeError(w, perr)
		return
	}
	added := s.gmailAdded()
	current := gmailHistoryOf(len(added) - 1)
	if start < gmailFirstHistory || start > current {
		writeError(w, notFound("Requested entity was not found."))
		return
	}
	label := q.Get("labelId")
	types := q["historyTypes"]
	records := []map[string]any{}
	for n, o := range added {
		id := gmailHistoryOf(n)
		labels := gmailLabels(o)
		if id <= start || (label != "" && !slices.Contains(labels, label)) {
			continue
		}
		if len(types) > 0 && !slices.Contains(types, "messageAdded") {
			continue
		}
		ref := gmailRef(o)
		msg := map[string]any{"id": ref["id"], "threadId": ref["threadId"], "labelIds": labels}
		records = append(records, map[string]any{
			"id": strconv.FormatUint(id, 10), "messages": []map[string]string{ref},
			"messagesAdded": []map[string]any{{"message": msg}},
		})
	}
	body := map[string]any{"historyId": strconv.FormatUint(current, 10)}
	if skip < len(records) {
		end := min(skip+max, len(records))
		body["history"] = records[skip:end]
		if end < len(records) {
			body["nextPageToken"] = strconv.Itoa(end)
		}
	}
	writeList(w, body)
}

// gmailPage reads a Gmail list's page: its maxResults (100 unless given,
// 1 to 500) and where its pageToken starts.
func gmailPage(q url.Values) (max, start int, err *apiError) {
	max = 100
	if v := q.Get("maxResults"); v != "" {
		n, perr := strconv.Atoi(v)
		if perr != nil || n < 1 || n > 500 {
			return 0, 0, invalid("Invalid value for maxResults: %q", v)
		}
		max = n
	}
	if v := q.Get("pageToken"); v != "" {
		n, perr := strconv.Atoi(v)
		if perr != nil || n < 0 {
			return 0, 0, invalid("Invalid pageToken")
		}
		start = n
	}
	return max, start, nil
}
