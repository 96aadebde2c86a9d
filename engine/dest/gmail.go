package dest

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/engine/upload"
)

// Gmail's four ways of taking an email file.
const (
	GmailInsert Kind = "gmail-insert" // users.messages.insert
	GmailImport Kind = "gmail-import" // users.messages.import
	GmailSend   Kind = "gmail-send"   // users.messages.send
	GmailDraft  Kind = "gmail-draft"  // users.drafts.create, or update with draftId
)

// Maximum sizes Google publishes for Gmail.
const (
	GmailMaxSize     int64 = 150 << 20 // insert and import
	GmailSendMaxSize int64 = 35 << 20  // send and drafts
)

// Gmail's per-user quota: each method's cost in units, of
// GmailUnitsPerSecond an account may spend in a second (a moving average).
var gmailCost = map[Kind]int{GmailInsert: 25, GmailImport: 25, GmailSend: 100, GmailDraft: 10}

const GmailUnitsPerSecond = 250

// GmailHost is Gmail's API host, replaced by Destination.BaseURL when it is set.
const GmailHost = "https://gmail.googleapis.com"

// gmailKind is one of Gmail's methods; they share fields, rules and words.
type gmailKind struct {
	k Kind
}

func init() {
	for _, k := range []Kind{GmailInsert, GmailImport, GmailSend, GmailDraft} {
		register(gmailKind{k})
	}
}

// Gmail's own facts (their sentences are fact.<code> in the catalogue).
const (
	notEmailType fact.Code = "refused.notEmailType" // File: not an email file at all
	notEmail     fact.Code = "refused.notEmail"     // File: named or typed as an email, but is not one

	savedInMailbox    fact.Code = "result.gmailInsert"
	importedToMailbox fact.Code = "result.gmailImport"
	sentEmail         fact.Code = "result.gmailSend"
	savedDraft        fact.Code = "result.gmailDraft"
	updatedDraft      fact.Code = "result.gmailDraftUpdated"
)

// Settings shared by the Gmail kinds.
var (
	userField    = Field{Key: "user", Default: "me", Kind: TextField}
	labelsField  = Field{Key: "labels", Kind: TextField, List: gmailLabels}
	threadField  = Field{Key: "threadId", Kind: TextField}
	deletedField = Field{Key: "deleted", Default: "false", Kind: BoolField}
	// A mailbox file's emails under labels (insert and import).
	mailboxLabelsField = Field{Key: "mailboxLabels", Default: "false", Kind: BoolField}
	mailboxLabelField  = Field{Key: "mailboxLabel", Default: "false", Kind: BoolField}
)

// gmailSettings are a Gmail destination's settings, typed; each of Gmail's
// ways of adding takes some of them (its Fields), the others stay empty.
type gmailSettings struct {
	User               string   `key:"user"`   // whose mailbox: "me", or an address
	Labels             []string `key:"labels"` // label ids
	ThreadID           string   `key:"threadId"`
	InternalDateSource string   `key:"internalDateSource"`
	Deleted            bool     `key:"deleted"`
	NeverMarkSpam      bool     `key:"neverMarkSpam"`
	ProcessForCalendar bool     `key:"processForCalendar"`
	DraftID            string   `key:"draftId"`
	// A mailbox file's emails (insert, import): under the labels Google
	// Takeout wrote beside each (X-Gmail-Labels), and under a label named
	// after the file; labels the mailbox lacks are made (gmail.labels).
	MailboxLabels bool `key:"mailboxLabels"`
	MailboxLabel  bool `key:"mailboxLabel"`
}

// MailboxLabels are the labels an email of a mailbox file goes under, by
// name, as d's settings ask: those Google Takeout wrote beside it (Gmail's
// own, such as Inbox, by their ids) and one named after the mailbox file;
// nil when d asks for none. Labels Takeout marks that are no label in
// Gmail ("Opened", "Archived") are left out.
func (d Destination) MailboxLabels(file media.Info) (ids, names []string) {
	if file.Part == nil || (d.Kind != GmailInsert && d.Kind != GmailImport) {
		return nil, nil
	}
	s := gmailOf(d)
	if s.MailboxLabels {
		for _, l := range file.Part.Labels {
			switch id, ok := takeoutSystemLabels[strings.ToLower(l)]; {
			case ok && id != "":
				ids = append(ids, id)
			case ok:
			default:
				names = append(names, l)
			}
		}
	}
	if s.MailboxLabel {
		if n := strings.TrimSpace(strings.TrimSuffix(file.Name, filepath.Ext(file.Name))); n != "" {
			names = append(names, n)
		}
	}
	return ids, names
}

// takeoutSystemLabels are the names Google Takeout gives Gmail's own
// labels, and their ids; "": a mark that is no label.
var takeoutSystemLabels = map[string]string{
	"inbox": "INBOX", "sent": "SENT", "important": "IMPORTANT", "starred": "STARRED", "unread": "UNREAD",
	"spam": "SPAM", "trash": "TRASH", "drafts": "DRAFT", "draft": "DRAFT",
	"category personal": "CATEGORY_PERSONAL", "category social": "CATEGORY_SOCIAL",
	"category promotions": "CATEGORY_PROMOTIONS", "category updates": "CATEGORY_UPDATES",
	"category forums": "CATEGORY_FORUMS",
	"opened":          "", "archived": "", "chat": "",
}

// gmailLabelsScope lets Hoist see a mailbox's labels and make new ones.
const gmailLabelsScope = "https://www.googleapis.com/auth/gmail.labels"

func (gmailKind) settings() any { return &gmailSettings{} }

func gmailOf(d Destination) (s gmailSettings) { typed(d, &s); return s }

// gmailLabels are a mailbox's labels: Gmail takes their ids, people know
// their names, which become ids before any upload. Reading them needs an
// access of their own, asked for only when a user wants them.
var gmailLabels = &List{
	Name: "gmail.labels", Host: GmailHost, Scope: "https://www.googleapis.com/auth/gmail.labels",
	Path: func(d Destination) (string, string) {
		return "/gmail/v1/users/" + url.PathEscape(gmailOf(d).User) + "/labels", ""
	},
	Items: "labels", ID: "id", Words: []string{"name"}, Many: true, IsID: isLabelID,
}

// gmailSystemLabels are the ids of Gmail's own labels.
var gmailSystemLabels = map[string]bool{
	"INBOX": true, "SPAM": true, "TRASH": true, "UNREAD": true, "STARRED": true, "IMPORTANT": true,
	"SENT": true, "DRAFT": true, "CHAT": true, "CATEGORY_PERSONAL": true, "CATEGORY_SOCIAL": true,
	"CATEGORY_PROMOTIONS": true, "CATEGORY_UPDATES": true, "CATEGORY_FORUMS": true,
}

// isLabelID reports whether s is written as a Gmail label id (a system
// label such as INBOX, or Label_123), not as a label's name.
func isLabelID(s string) bool {
	s = strings.TrimSpace(s)
	if gmailSystemLabels[s] {
		return true
	}
	rest, ok := strings.CutPrefix(s, "Label_")
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func dateSourceField(def string) Field {
	return Field{Key: "internalDateSource", Default: def, Kind: ChoiceField, Choices: []string{"receivedTime", "dateHeader"}}
}

var gmailInfo = map[Kind]KindInfo{
	GmailInsert: {
		Rank:   20,
		Fields: []Field{userField, labelsField, threadField, dateSourceField("receivedTime"), deletedField, mailboxLabelsField, mailboxLabelField},
	},
	GmailImport: {
		Rank: 21,
		Fields: []Field{userField, labelsField, threadField, dateSourceField("dateHeader"), deletedField,
			{Key: "neverMarkSpam", Default: "false", Kind: BoolField},
			{Key: "processForCalendar", Default: "false", Kind: BoolField},
			mailboxLabelsField, mailboxLabelField,
		},
	},
	GmailSend: {
		Rank:   22,
		Fields: []Field{userField, threadField},
	},
	GmailDraft: {
		Rank:   23,
		Fields: []Field{userField, labelsField, threadField, {Key: "draftId", Kind: TextField}},
	},
}

func (g gmailKind) info() KindInfo {
	info := gmailInfo[g.k]
	info.Kind, info.Family, info.Server, info.API = g.k, "gmail", GoogleServer, true
	info.TypeFact = notEmailType
	info.MaxSize = GmailMaxSize
	if g.k == GmailSend || g.k == GmailDraft {
		info.MaxSize = GmailSendMaxSize
	}
	info.Emails = true
	info.Cost, info.PerSecond = gmailCost[g.k], GmailUnitsPerSecond
	return info
}

func (gmailKind) refusalFact(Destination, *upload.APIError) fact.Code { return "" }

// factArgs: the mailbox, and the draft to replace.
func (gmailKind) factArgs(d Destination) map[string]string {
	s := gmailOf(d)
	return map[string]string{"user": s.User, "draft": s.DraftID}
}

func (gmailKind) host(Destination) string { return GmailHost }

func (g gmailKind) scopes(d Destination) []string {
	switch g.k {
	case GmailSend:
		return []string{"https://www.googleapis.com/auth/gmail.send"}
	case GmailDraft:
		return []string{"https://www.googleapis.com/auth/gmail.compose"}
	}
	if s := gmailOf(d); s.MailboxLabels || s.MailboxLabel {
		// Asked with the sign-in, once: the option says why.
		return []string{"https://www.googleapis.com/auth/gmail.insert", gmailLabelsScope}
	}
	return []string{"https://www.googleapis.com/auth/gmail.insert"}
}

func (gmailKind) validate(Destination) FieldErrors        { return nil }
func (gmailKind) maxSize(Destination) int64               { return 0 }
func (gmailKind) fileType(_ Destination, s string) string { return s }

func (gmailKind) check(d Destination, file media.Info) error {
	if !matchType("message/*", file.MIME) {
		if strings.EqualFold(filepath.Ext(file.Name), ".eml") {
			return refusal(d, RuleEmail, notEmail, file)
		}
		return typeRefusal(d, file)
	}
	if file.Size == 0 {
		return emptyRefusal(d, file)
	}
	if file.Email == nil {
		return refusal(d, RuleEmail, notEmail, file)
	}
	return nil
}

const emailType = "message/rfc822"

// TakesEmail reports whether d takes email files, so that an Outlook item
// (.msg) goes to it as the email it is rather than as the file.
func (d Destination) TakesEmail() bool {
	_, ok := d.of().(gmailKind)
	return ok
}

// message is the part of Gmail's Message resource Hoist sets.
type message struct {
	LabelIDs []string `json:"labelIds,omitempty"`
	ThreadID string   `json:"threadId,omitempty"`
}

func (s gmailSettings) message() message {
	return message{LabelIDs: s.Labels, ThreadID: s.ThreadID}
}

func (g gmailKind) target(d Destination, _ media.Info, t *upload.Target) error {
	t.ContentType = emailType
	s := gmailOf(d)
	user := "/upload/gmail/v1/users/" + url.PathEscape(s.User)
	if g.k == GmailDraft {
		route := user + "/drafts"
		if id := s.DraftID; id != "" {
			route += "/" + url.PathEscape(id)
			t.HTTPMethod = "PUT"
		}
		t.Metadata = marshal(struct {
			Message message `json:"message"`
		}{s.message()})
		var err error
		t.URL, err = joinURL(d, GmailHost, route, nil)
		return err
	}
	q := url.Values{}
	if v := s.InternalDateSource; v != "" && isSet(d, "internalDateSource") {
		q.Set("internalDateSource", v) // only when chosen: each method has its own default
	}
	for key, on := range map[string]bool{"deleted": s.Deleted, "neverMarkSpam": s.NeverMarkSpam, "processForCalendar": s.ProcessForCalendar} {
		if on {
			q.Set(key, "true")
		}
	}
	suffix := map[Kind]string{GmailInsert: "", GmailImport: "/import", GmailSend: "/send"}[g.k]
	if m := s.message(); m.LabelIDs != nil || m.ThreadID != "" {
		t.Metadata = marshal(m)
	}
	var err error
	t.URL, err = joinURL(d, GmailHost, user+"/messages"+suffix, q)
	return err
}

func (g gmailKind) result(d Destination, a answer, r *Result) {
	if g.k == GmailDraft {
		r.ID = string(a.ID)
		if a.Message != nil {
			r.ThreadID = a.Message.ThreadID
		}
		r.Fact = resultFact(savedDraft, r)
		if gmailOf(d).DraftID != "" {
			r.Fact.Code = updatedDraft
		}
		return
	}
	r.ID, r.ThreadID = string(a.ID), a.ThreadID
	r.Fact = resultFact(map[Kind]fact.Code{GmailInsert: savedInMailbox, GmailImport: importedToMailbox, GmailSend: sentEmail}[g.k], r)
}

func (gmailKind) emptyAnswer(Destination) (Result, bool) { return Result{}, false }

func (gmailKind) upgraded(d Destination) (Destination, bool) { return d, false }

// Gmail's scopes that read a mailbox: the first three search with q, the
// last sees headers only (q is refused with it).
const (
	scopeGmailReadonly = googleScopePrefix + "gmail.readonly"
	scopeGmailModify   = googleScopePrefix + "gmail.modify"
	scopeGmailFull     = "https://mail.google.com/"
	// ScopeGmailMetadata is what looking for an email needs at least: it
	// reads labels and headers, never an email's content.
	ScopeGmailMetadata = googleScopePrefix + "gmail.metadata"
)

// gmailScan bounds the newest messages read one by one when looking without q.
const gmailScan = 100

// gmailHistoryReads bounds the messages added since an upload began that
// are read one by one, looking for it: it was added just after its mark,
// so among the first.
const gmailHistoryReads = 2000

// gmailClockSlack is how far this computer's clock may be from Gmail's,
// when an email dated by its arrival is told from older ones by its date.
const gmailClockSlack = 10 * time.Minute

// Gmail's notes of where a mailbox stood before an upload (Plan.Since):
// its historyId, read with a permission already given, else only the time.
const (
	sinceHistory = "history:"
	sinceTime    = "time:"
)

// gmailSince is Plan.Since read back: the mailbox's historyId before the
// upload, or when it began (zero: not known).
type gmailSince struct {
	history string
	at      time.Time
}

func readGmailSince(s string) gmailSince {
	if h, ok := strings.CutPrefix(s, sinceHistory); ok {
		if _, err := strconv.ParseUint(h, 10, 64); err == nil {
			return gmailSince{history: h}
		}
	}
	if t, ok := strings.CutPrefix(s, sinceTime); ok {
		if ms, err := strconv.ParseInt(t, 10, 64); err == nil {
			return gmailSince{at: time.UnixMilli(ms)}
		}
	}
	return gmailSince{}
}

// gmailMarkTimeout bounds reading the historyId before an upload: past
// it, the upload goes, noted by the time.
const gmailMarkTimeout = 30 * time.Second

// gmailMarkScopes are the permissions that read a mailbox's historyId
// (users.getProfile), the narrowest first.
var gmailMarkScopes = []string{ScopeGmailMetadata, scopeGmailReadonly, scopeGmailModify, scopeGmailFull}

// mark notes the mailbox's historyId just before an email goes in (or is
// sent), with a permission already given; without one, the time. Drafts
// are found among drafts, and a draft replaced is simply sent again.
func (g gmailKind) mark(ctx context.Context, d Destination, file media.Info, clients Clients, now time.Time) string {
	if g.k == GmailDraft || file.Email == nil {
		return ""
	}
	user := "/gmail/v1/users/" + url.PathEscape(gmailOf(d).User)
	ctx, cancel := context.WithTimeout(ctx, gmailMarkTimeout)
	defer cancel()
	for _, scope := range gmailMarkScopes {
		c, err := clients(ctx, []string{scope})
		if err != nil {
			continue
		}
		if h, err := gmailHistoryID(ctx, c, d, user); err == nil {
			return sinceHistory + h
		}
		break // allowed, yet not answered: the time will do
	}
	return sinceTime + strconv.FormatInt(now.UnixMilli(), 10)
}

// gmailHistoryID is the mailbox's current historyId (users.getProfile).
func gmailHistoryID(ctx context.Context, c *http.Client, d Destination, user string) (string, error) {
	u, err := joinURL(d, GmailHost, user+"/profile", nil)
	if err != nil {
		return "", err
	}
	var p struct {
		HistoryID string `json:"historyId"`
	}
	found, err := getJSON(ctx, c, u, &p)
	if err != nil {
		return "", err
	}
	if _, perr := strconv.ParseUint(p.HistoryID, 10, 64); !found || perr != nil {
		return "", errors.New("the mailbox's profile names no history")
	}
	return p.HistoryID, nil
}

// wellFormedMessageID reports whether Gmail keeps an email's Message-ID
// as it is when it sends the email: <left@right>, nothing else. Gmail gives
// an email without one, or with one it cannot use, a Message-ID of its own,
// which Hoist cannot know before the answer.
func wellFormedMessageID(raw string) bool {
	v, ok := strings.CutPrefix(strings.TrimSpace(raw), "<")
	if !ok {
		return false
	}
	v, ok = strings.CutSuffix(v, ">")
	left, right, at := strings.Cut(v, "@")
	return ok && at && left != "" && right != "" && !strings.ContainsAny(v, "<> \t\r\n") && !strings.Contains(right, "@")
}

// findable looks for the email by its own Message-ID: in the drafts with
// the upload's own permission; in the mailbox among the messages added
// since the upload began (history.list from the historyId noted before it
// was sent), where an email with the same Message-ID already there is not
// taken for it. Without that note, by search where a permission that
// allows it was already given, else among the newest messages of the label
// it went to (gmail.metadata, asked for when needed), and only a message
// dated after the upload began is taken for it. Replacing a draft again
// makes no second one.
func (g gmailKind) findable(d Destination, file media.Info, _ string, p *Plan) {
	p.Target.Identifies = identifies(d)
	s := gmailOf(d)
	if g.k == GmailDraft && s.DraftID != "" {
		p.Target.Repeatable = true
		return
	}
	if file.Email == nil || strings.Trim(file.Email.MessageID, "<> \t") == "" ||
		(g.k == GmailSend && !wellFormedMessageID(file.Email.MessageID)) {
		p.Unmarked = true // nothing the email can be known by
		return
	}
	id := strings.Trim(file.Email.MessageID, "<> \t")
	user := "/gmail/v1/users/" + url.PathEscape(s.User)
	if g.k == GmailDraft {
		p.Find = []FindWay{{Find: func(ctx context.Context, c *http.Client) (upload.Found, error) {
			return gmailFindDraft(ctx, c, d, user, id)
		}}}
		return
	}
	label := ""
	switch labels := s.Labels; {
	case g.k == GmailSend:
		label = "SENT"
	case g.k == GmailInsert && len(labels) > 0:
		label = labels[0] // insert files it exactly there; import's scan may move it to spam
	}
	since := readGmailSince(p.Since)
	byArrival := !g.dateFromHeader(d)
	look := func(search bool) func(ctx context.Context, c *http.Client) (upload.Found, error) {
		return func(ctx context.Context, c *http.Client) (upload.Found, error) {
			switch {
			case since.history != "":
				return gmailHistory(ctx, c, d, user, label, id, since.history)
			case search:
				return gmailSearch(ctx, c, d, user, id, byArrival, since.at)
			}
			oldest := time.Time{} // the oldest the email's date in Gmail can be
			switch {
			case byArrival:
				oldest = since.at
			case !file.Email.Date.IsZero():
				oldest = file.Email.Date
			}
			return gmailScanLabel(ctx, c, d, user, label, id, oldest, byArrival, since.at)
		}
	}
	p.Find = []FindWay{
		{Scopes: []string{scopeGmailReadonly}, Find: look(true)},
		{Scopes: []string{scopeGmailModify}, Find: look(true)},
		{Scopes: []string{scopeGmailFull}, Find: look(true)},
		{Scopes: []string{ScopeGmailMetadata}, Find: look(false)},
	}
}

// dateFromHeader reports whether Gmail dates the email by its Date header
// (import's default, or internalDateSource=dateHeader) rather than by when
// it arrived.
func (g gmailKind) dateFromHeader(d Destination) bool {
	switch g.k {
	case GmailInsert:
		return gmailOf(d).InternalDateSource == "dateHeader"
	case GmailImport:
		return gmailOf(d).InternalDateSource != "receivedTime"
	}
	return false
}

// gmailMessageRef is a message as messages.list names it.
type gmailMessageRef struct {
	ID       string `json:"id"`
	ThreadID string `json:"threadId"`
}

// ErrNotThisUpload says the destination holds an email with this upload's
// Message-ID, but nothing tells whether this upload made it or it was
// there before (the same file sent earlier): it is not taken as done, and
// the file is not sent again on its own.
var ErrNotThisUpload = errors.New("an email with this Message-ID is there, but nothing tells whether this upload made it or it was there before")

// errHistoryGone says Gmail no longer keeps the mailbox's history from the
// note taken before the upload (it keeps about a week).
var errHistoryGone = errors.New("Gmail no longer keeps the mailbox's history from before this upload")

// gmailHistory looks among the messages added to the mailbox since the
// historyId noted before the upload (of the label it went to) for one with
// the email's Message-ID: only such a message can be this upload's.
func gmailHistory(ctx context.Context, c *http.Client, d Destination, user, label, id, start string) (upload.Found, error) {
	q := url.Values{"startHistoryId": {start}, "historyTypes": {"messageAdded"}, "maxResults": {"500"}}
	if label != "" {
		q.Set("labelId", label)
	}
	read := 0
	for {
		u, err := joinURL(d, GmailHost, user+"/history", q)
		if err != nil {
			return upload.Found{}, err
		}
		var list struct {
			History []struct {
				MessagesAdded []struct {
					Message gmailMessageRef `json:"message"`
				} `json:"messagesAdded"`
			} `json:"history"`
			NextPageToken string `json:"nextPageToken"`
		}
		found, err := getJSON(ctx, c, u, &list)
		if err != nil {
			return upload.Found{}, err
		}
		if !found {
			return upload.Found{}, errHistoryGone
		}
		for _, h := range list.History {
			for _, added := range h.MessagesAdded {
				if read++; read > gmailHistoryReads {
					return upload.Found{}, errNotAmongNewest
				}
				m, ok, err := gmailHeaders(ctx, c, d, user, added.Message.ID)
				if err != nil {
					return upload.Found{}, err
				}
				if ok && m.messageID() == id {
					return upload.Found{Body: marshal(added.Message)}, nil
				}
			}
		}
		if list.NextPageToken == "" {
			return upload.Found{}, nil // nothing added since has its Message-ID
		}
		q.Set("pageToken", list.NextPageToken)
	}
}

// gmailHeaders is a message as format=metadata gives it: its date in
// Gmail and its Message-ID; ok false when it was deleted meanwhile.
func gmailHeaders(ctx context.Context, c *http.Client, d Destination, user, msg string) (gmailMeta, bool, error) {
	u, err := joinURL(d, GmailHost, user+"/messages/"+url.PathEscape(msg), url.Values{"format": {"metadata"}, "metadataHeaders": {"Message-ID"}})
	if err != nil {
		return gmailMeta{}, false, err
	}
	var m gmailMeta
	found, err := getJSON(ctx, c, u, &m)
	return m, found, err
}

// gmailMeta is the part of a Message read with format=metadata.
type gmailMeta struct {
	InternalDate string `json:"internalDate"`
	Payload      struct {
		Headers []struct {
			Name  string `json:"name"`
			Value string `json:"value"`
		} `json:"headers"`
	} `json:"payload"`
}

func (m gmailMeta) messageID() string {
	for _, h := range m.Payload.Headers {
		if strings.EqualFold(h.Name, "Message-ID") {
			return strings.Trim(h.Value, "<> \t")
		}
	}
	return ""
}

// date is the message's date in Gmail; ok false when not given.
func (m gmailMeta) date() (time.Time, bool) {
	ms, err := strconv.ParseInt(m.InternalDate, 10, 64)
	return time.UnixMilli(ms), err == nil
}

// sinceBegan reports whether a message Gmail dates at date (by its
// arrival) arrived after an upload that began at began.
func sinceBegan(date, began time.Time) bool {
	return !began.IsZero() && !date.Before(began.Add(-gmailClockSlack))
}

// gmailSearch finds the message by rfc822msgid:, with a permission that
// allows search. A message found is this upload's only when Gmail dates it
// by its arrival, after the upload began; one dated otherwise cannot be
// told from an older copy (ErrNotThisUpload).
func gmailSearch(ctx context.Context, c *http.Client, d Destination, user, id string, byArrival bool, began time.Time) (upload.Found, error) {
	u, err := joinURL(d, GmailHost, user+"/messages", url.Values{"q": {"rfc822msgid:" + id}, "includeSpamTrash": {"true"}, "maxResults": {"10"}})
	if err != nil {
		return upload.Found{}, err
	}
	var list struct {
		Messages []gmailMessageRef `json:"messages"`
	}
	if _, err := getJSON(ctx, c, u, &list); err != nil {
		return upload.Found{}, err
	}
	older := false
	for _, ref := range list.Messages {
		m, ok, err := gmailHeaders(ctx, c, d, user, ref.ID)
		if err != nil {
			return upload.Found{}, err
		}
		if !ok {
			continue // deleted meanwhile
		}
		if date, ok := m.date(); ok && byArrival && sinceBegan(date, began) {
			return upload.Found{Body: marshal(ref)}, nil
		}
		older = true
	}
	if older && (!byArrival || began.IsZero()) {
		return upload.Found{}, ErrNotThisUpload
	}
	return upload.Found{}, nil // none, or only ones there before the upload began
}

// gmailFindDraft finds the draft by rfc822msgid:, which the drafts' own
// permission (gmail.compose) may search.
func gmailFindDraft(ctx context.Context, c *http.Client, d Destination, user, id string) (upload.Found, error) {
	u, err := joinURL(d, GmailHost, user+"/drafts", url.Values{"q": {"rfc822msgid:" + id}, "maxResults": {"10"}})
	if err != nil {
		return upload.Found{}, err
	}
	var list struct {
		Drafts []json.RawMessage `json:"drafts"`
	}
	if _, err := getJSON(ctx, c, u, &list); err != nil {
		return upload.Found{}, err
	}
	if len(list.Drafts) == 0 {
		return upload.Found{}, nil
	}
	return upload.Found{Body: list.Drafts[0]}, nil
}

// errNotAmongNewest says a scan of a label's newest messages ended before
// the email's date: it cannot tell whether the email is there.
var errNotAmongNewest = errors.New("the email is not among the newest messages, and older ones were not read")

// gmailScanLabel reads the Message-ID of the label's newest messages, as
// gmail.metadata allows (it refuses q). Messages come newest first by
// Gmail's date: once one is older than oldest (the email's own date in
// Gmail at the earliest), the email is not there; when the scan ends
// before that, it cannot tell. A message with its Message-ID is this
// upload's only when Gmail dates it by its arrival, after the upload began.
func gmailScanLabel(ctx context.Context, c *http.Client, d Destination, user, label, id string, oldest time.Time, byArrival bool, began time.Time) (upload.Found, error) {
	if oldest.IsZero() {
		oldest = time.Unix(0, 0) // unknown: only a full scan tells
	}
	q := url.Values{"maxResults": {strconv.Itoa(gmailScan)}, "includeSpamTrash": {"true"}}
	if label != "" {
		q.Set("labelIds", label)
	}
	u, err := joinURL(d, GmailHost, user+"/messages", q)
	if err != nil {
		return upload.Found{}, err
	}
	var list struct {
		Messages      []gmailMessageRef `json:"messages"`
		NextPageToken string            `json:"nextPageToken"`
	}
	if _, err := getJSON(ctx, c, u, &list); err != nil {
		return upload.Found{}, err
	}
	older := false
	for _, m := range list.Messages {
		msg, found, err := gmailHeaders(ctx, c, d, user, m.ID)
		if err != nil {
			return upload.Found{}, err
		}
		if !found {
			continue // deleted meanwhile
		}
		date, dated := msg.date()
		if msg.messageID() == id {
			if dated && byArrival && sinceBegan(date, began) {
				return upload.Found{Body: marshal(m)}, nil
			}
			older = older || !byArrival || began.IsZero() // else: there before the upload began
			continue
		}
		if dated && date.Before(oldest.Add(-time.Hour)) {
			list.NextPageToken = "" // past the email's date: it is not further on
			break
		}
	}
	switch {
	case older:
		return upload.Found{}, ErrNotThisUpload
	case list.NextPageToken == "":
		return upload.Found{}, nil // every message it could be was read
	}
	return upload.Found{}, errNotAmongNewest
}

// GmailLabelsURL is where the mailbox d sends to lists and makes its
// labels (users.labels.list and create).
func (d Destination) GmailLabelsURL() string {
	base := strings.TrimSuffix(d.BaseURL, "/")
	if base == "" {
		base = GmailHost
	}
	return base + "/gmail/v1/users/" + url.PathEscape(gmailOf(d).User) + "/labels"
}

// WithLabels is d with the label ids more put on every email it sends.
func (d Destination) WithLabels(ids ...string) Destination {
	if len(ids) == 0 {
		return d
	}
	labels := gmailOf(d).Labels
	for _, id := range ids {
		if !slices.Contains(labels, id) {
			labels = append(labels, id)
		}
	}
	params := maps.Clone(d.Params)
	if params == nil {
		params = map[string]string{}
	}
	params["labels"] = strings.Join(labels, ",")
	d.Params = params
	return d
}
