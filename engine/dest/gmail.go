package dest

import (
	"net/url"
	"path/filepath"
	"strings"

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
	labelsField  = Field{Key: "labels", Kind: TextField, List: LabelList}
	threadField  = Field{Key: "threadId", Kind: TextField}
	deletedField = Field{Key: "deleted", Default: "false", Kind: BoolField}
)

func dateSourceField(def string) Field {
	return Field{Key: "internalDateSource", Default: def, Kind: ChoiceField, Choices: []string{"receivedTime", "dateHeader"}}
}

var gmailInfo = map[Kind]KindInfo{
	GmailInsert: {
		Rank:   20,
		Fields: []Field{userField, labelsField, threadField, dateSourceField("receivedTime"), deletedField},
	},
	GmailImport: {
		Rank: 21,
		Fields: []Field{userField, labelsField, threadField, dateSourceField("dateHeader"), deletedField,
			{Key: "neverMarkSpam", Default: "false", Kind: BoolField},
			{Key: "processForCalendar", Default: "false", Kind: BoolField},
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
	info.Kind, info.Family, info.Server = g.k, "gmail", GoogleServer
	info.TypeFact = notEmailType
	info.MaxSize = GmailMaxSize
	if g.k == GmailSend || g.k == GmailDraft {
		info.MaxSize = GmailSendMaxSize
	}
	return info
}

func (gmailKind) refusalFact(Destination, *upload.APIError) fact.Code { return "" }

// factArgs: the mailbox, and the draft to replace.
func (gmailKind) factArgs(d Destination) map[string]string {
	return settingArgs(d, "user", "user", "draft", "draftId")
}

func (gmailKind) host(Destination) string { return GmailHost }

func (g gmailKind) scopes(Destination) []string {
	switch g.k {
	case GmailSend:
		return []string{"https://www.googleapis.com/auth/gmail.send"}
	case GmailDraft:
		return []string{"https://www.googleapis.com/auth/gmail.compose"}
	}
	return []string{"https://www.googleapis.com/auth/gmail.insert"}
}

func (gmailKind) validate(Destination) FieldErrors        { return nil }
func (gmailKind) maxSize(Destination) int64               { return 0 }
func (gmailKind) fileType(_ Destination, s string) string { return s }

func (gmailKind) check(d Destination, file media.Info) error {
	if !matchType("message/*", file.MIME) {
		if strings.EqualFold(filepath.Ext(file.Name), ".eml") {
			return d.refuse(RuleEmail, notEmail, file)
		}
		return d.refuseType(file)
	}
	if file.Size == 0 {
		return d.refuseEmpty(file)
	}
	if file.Email == nil {
		return d.refuse(RuleEmail, notEmail, file)
	}
	return nil
}

const emailType = "message/rfc822"

// message is the part of Gmail's Message resource Hoist sets.
type message struct {
	LabelIDs []string `json:"labelIds,omitempty"`
	ThreadID string   `json:"threadId,omitempty"`
}

func (d Destination) message() message {
	var m message
	if _, ok := d.Kind.field("labels"); ok {
		m.LabelIDs = splitList(d.Param("labels"))
	}
	m.ThreadID = d.Param("threadId")
	return m
}

func (g gmailKind) target(d Destination, _ media.Info, t *upload.Target) error {
	t.ContentType = emailType
	user := "/upload/gmail/v1/users/" + url.PathEscape(d.Param("user"))
	if g.k == GmailDraft {
		route := user + "/drafts"
		if id := d.Param("draftId"); id != "" {
			route += "/" + url.PathEscape(id)
			t.HTTPMethod = "PUT"
		}
		t.Metadata = marshal(struct {
			Message message `json:"message"`
		}{d.message()})
		var err error
		t.URL, err = d.join(GmailHost, route, nil)
		return err
	}
	q := url.Values{}
	if v := d.choice("internalDateSource"); v != "" && strings.TrimSpace(d.Params["internalDateSource"]) != "" {
		q.Set("internalDateSource", v)
	}
	for _, key := range []string{"deleted", "neverMarkSpam", "processForCalendar"} {
		if _, ok := d.Kind.field(key); ok && d.flag(key) {
			q.Set(key, "true")
		}
	}
	suffix := map[Kind]string{GmailInsert: "", GmailImport: "/import", GmailSend: "/send"}[g.k]
	if m := d.message(); m.LabelIDs != nil || m.ThreadID != "" {
		t.Metadata = marshal(m)
	}
	var err error
	t.URL, err = d.join(GmailHost, user+"/messages"+suffix, q)
	return err
}

func (g gmailKind) result(d Destination, a answer, r *Result) {
	if g.k == GmailDraft {
		r.ID = string(a.ID)
		if a.Message != nil {
			r.ThreadID = a.Message.ThreadID
		}
		r.Fact = resultFact(savedDraft, r)
		if d.Param("draftId") != "" {
			r.Fact.Code = updatedDraft
		}
		return
	}
	r.ID, r.ThreadID = string(a.ID), a.ThreadID
	r.Fact = resultFact(map[Kind]fact.Code{GmailInsert: savedInMailbox, GmailImport: importedToMailbox, GmailSend: sentEmail}[g.k], r)
}

func (gmailKind) emptyAnswer(Destination) (Result, bool) { return Result{}, false }

func (gmailKind) upgraded(d Destination) (Destination, bool) { return d, false }
