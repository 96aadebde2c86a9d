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
	"strconv"
	"strings"

	"golang.org/x/text/encoding/htmlindex"
)

// KindGmail is Gmail's users.messages.insert, import and send, users.drafts.create and update.
const KindGmail Kind = "gmail" // /upload/gmail/v1/users/{userId}/...

func init() {
	serve(service{prefix: "gmail", kind: KindGmail, resolve: resolveGmail})
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
	return nil
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
	res := resourceResult{name: subject(f.content.Head), body: msg}
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
