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

// IsGmail reports whether the kind is one of Gmail's.
func (k Kind) IsGmail() bool {
	_, ok := byKind[k].(gmailKind)
	return ok
}

// Settings shared by the Gmail kinds.
var (
	userField = Field{
		Key: "user", Label: "Mailbox", Default: "me", Kind: TextField,
		Help: "Whose mailbox: \"me\" is the account you sign in with; an administrator may give another address.",
	}
	labelsField = Field{
		Key: "labels", Label: "Labels", Kind: TextField, List: LabelList,
		Help: "Label IDs to put on every email, separated by commas, e.g. INBOX, UNREAD, IMPORTANT. Optional.",
	}
	threadField = Field{
		Key: "threadId", Label: "Conversation ID", Kind: TextField,
		Help: "The ID of an existing conversation (thread) the emails belong to. Optional.",
	}
	deletedField = Field{
		Key: "deleted", Label: "Mark as deleted", Default: "false", Kind: BoolField,
		Help: "Put the emails in the mailbox as deleted: only Google Vault administrators will see them.",
	}
)

func dateSourceField(def string) Field {
	return Field{
		Key: "internalDateSource", Label: "Date Gmail shows", Default: def, Kind: ChoiceField,
		Choices: []string{"receivedTime", "dateHeader"},
		Words:   []string{"When it is uploaded", "The date written in the email"},
		Help:    "Which date Gmail shows for each email (receivedTime or dateHeader on the command line).",
	}
}

var gmailInfo = map[Kind]KindInfo{
	GmailInsert: {
		Label:  "Gmail — put emails into a mailbox",
		Fields: []Field{userField, labelsField, threadField, dateSourceField("receivedTime"), deletedField},
	},
	GmailImport: {
		Label: "Gmail — import emails",
		Fields: []Field{userField, labelsField, threadField, dateSourceField("dateHeader"), deletedField,
			{
				Key: "neverMarkSpam", Label: "Never mark as spam", Default: "false", Kind: BoolField,
				Help: "Skip Gmail's spam check for these emails.",
			},
			{
				Key: "processForCalendar", Label: "Add invitations to Calendar", Default: "false", Kind: BoolField,
				Help: "Add the meeting invitations found in the emails to Google Calendar.",
			},
		},
	},
	GmailSend: {
		Label:  "Gmail — send emails",
		Fields: []Field{userField, threadField},
	},
	GmailDraft: {
		Label: "Gmail — save as drafts",
		Fields: []Field{userField, labelsField, threadField, {
			Key: "draftId", Label: "Draft to replace", Kind: TextField,
			Help: "The ID of an existing draft to replace with the file. Leave empty to make new drafts.",
		}},
	},
}

func (g gmailKind) info() KindInfo {
	info := gmailInfo[g.k]
	info.Kind, info.Short, info.Accepts = g.k, "Gmail", "email files (.eml)"
	info.IDLabel = "Message ID"
	info.MaxSize = GmailMaxSize
	if g.k == GmailSend || g.k == GmailDraft {
		info.MaxSize = GmailSendMaxSize
	}
	if g.k == GmailDraft {
		info.IDLabel = "Draft ID"
	}
	return info
}

func (gmailKind) refusalFact(Destination, *upload.APIError) fact.Code { return "" }

// facts are Gmail's words: one set for adding emails to a mailbox, one each
// for sending and drafts.
func (g gmailKind) facts() FactWords {
	tooLarge, forbidden := "fact.refused.tooLarge.gmailAdd", "fact.google.forbidden.gmailAdd"
	switch g.k {
	case GmailSend:
		tooLarge, forbidden = "fact.refused.tooLarge.gmailSend", "fact.google.forbidden.gmailSend"
	case GmailDraft:
		tooLarge, forbidden = "fact.refused.tooLarge.gmailDraft", "fact.google.forbidden.gmailDraft"
	}
	return FactWords{
		Where: "dest.gmail", Who: "who.google", NotType: fact.NotEmailType,
		Keys: map[fact.Code]string{
			fact.Empty:     "fact.refused.empty.gmail",
			fact.TooLarge:  tooLarge,
			fact.Forbidden: forbidden,
			fact.NotFound:  "fact.google.notFound.gmail",
		},
	}
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

// notEmail refuses a file that is named or typed as an email but is not one.
const notEmail = "%s does not look like an email file (its first lines are not email headers); Gmail accepts only email files (.eml)."

func (gmailKind) check(_ Destination, file media.Info, name string) error {
	if !matchType("message/*", file.MIME) {
		if strings.EqualFold(filepath.Ext(file.Name), ".eml") {
			return refuse(RuleEmail, notEmail, name)
		}
		return refuse(RuleType, "%s is not an email file; Gmail accepts only email files (.eml).", name)
	}
	if file.Size == 0 {
		return refuse(RuleEmpty, "%s is empty (0 bytes); Gmail cannot take an empty email.", name)
	}
	if file.Email == nil {
		return refuse(RuleEmail, notEmail, name)
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
		r.Fact = resultFact(fact.SavedDraft, r)
		if d.Param("draftId") != "" {
			r.Fact.Code = fact.UpdatedDraft
		}
		return
	}
	r.ID, r.ThreadID = string(a.ID), a.ThreadID
	r.Fact = resultFact(map[Kind]fact.Code{GmailInsert: fact.SavedInMailbox, GmailImport: fact.ImportedToMailbox, GmailSend: fact.SentEmail}[g.k], r)
}

func (gmailKind) emptyAnswer(Destination) (Result, bool) { return Result{}, false }

func (gmailKind) upgraded(d Destination) (Destination, bool) { return d, false }
