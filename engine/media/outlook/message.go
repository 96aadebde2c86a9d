package outlook

import (
	"fmt"
	"strings"
	"time"
)

// address is a sender or a recipient as the item keeps it.
type address struct {
	name string // display name
	addr string // an SMTP address; "" when the item kept only an Exchange one
	kind int32  // for recipients: 1 To, 2 Cc, 3 Bcc
}

// attachment is one attachment of the item.
type attachment struct {
	name     string
	mimeType string
	cid      string
	hidden   bool
	data     []byte
	message  *message // an attached Outlook item
}

// message is what an Outlook item says of the email it is.
type message struct {
	class                string
	subject              string
	headers              string // the transport headers it kept
	date                 time.Time
	messageID, inReplyTo string
	references           string
	from, sender         address
	recipients           []address
	body                 string // plain text; "" when none
	hasBody              bool
	html                 []byte // HTML, in htmlCharset
	htmlCharset          string
	rtf                  []byte // RTF to attach: its formatting is nowhere else
	attachments          []attachment
	unsent               bool
}

// readMessage reads the item in s, whose property stream has a header of hdr bytes.
func readMessage(s *storage, hdr int, depth int) (*message, error) {
	p, err := readProps(s, hdr)
	if err != nil {
		return nil, err
	}
	// The code page of its 8-bit strings: its own, else that of its
	// internet form, else its locale's.
	var htmlCP string
	for _, id := range []uint16{propMessageCodepage, propInternetCodepage} {
		if cp, ok := p.int32(id); ok {
			if enc, _ := codepage(cp); enc != nil && p.cp == nil {
				p.cp = enc
			}
		}
	}
	if p.cp == nil {
		if lcid, ok := p.int32(propLocaleID); ok {
			if enc, _ := codepage(localeCodepages[lcid&0xFFFF]); enc != nil {
				p.cp = enc
			}
		}
	}
	if cp, ok := p.int32(propInternetCodepage); ok {
		_, htmlCP = codepage(cp)
	}
	if htmlCP == "" {
		if cp, ok := p.int32(propMessageCodepage); ok {
			_, htmlCP = codepage(cp)
		}
	}
	m := &message{}
	str := func(id uint16) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = p.str(id)
		return s
	}
	m.class = str(propMessageClass)
	m.subject = str(propSubject)
	m.headers = str(propTransportHeaders)
	m.messageID = strings.TrimSpace(str(propMessageID))
	m.inReplyTo = strings.TrimSpace(str(propInReplyTo))
	m.references = strings.TrimSpace(str(propReferences))
	m.date = p.time(propClientSubmitTime)
	if m.date.IsZero() {
		m.date = p.time(propDeliveryTime)
	}
	if m.date.IsZero() {
		m.date = p.time(propLastModified)
	}
	if flags, ok := p.int32(propMessageFlags); ok {
		m.unsent = flags&0x8 != 0
	}
	m.sender = address{name: str(propSenderName), addr: smtpOf(str(propSenderSmtp), str(propSenderAddrType), str(propSenderEmail))}
	m.from = address{name: str(propSentRepName), addr: smtpOf(str(propSentRepSmtp), str(propSentRepAddrType), str(propSentRepEmail))}
	if m.from.name == "" && m.from.addr == "" {
		m.from = m.sender
	}
	m.hasBody = p.has(propBody)
	m.body = str(propBody)
	if err != nil {
		return nil, err
	}
	if err := m.readBodies(p, htmlCP); err != nil {
		return nil, err
	}
	for _, rs := range s.numbered("__recip_version1.0_#") {
		rp, err := readProps(rs, headerOther)
		if err != nil {
			return nil, err
		}
		rp.cp = p.cp
		a, err := readRecipient(rp)
		if err != nil {
			return nil, err
		}
		m.recipients = append(m.recipients, a)
	}
	for _, as := range s.numbered("__attach_version1.0_#") {
		ap, err := readProps(as, headerOther)
		if err != nil {
			return nil, err
		}
		ap.cp = p.cp
		a, ok, err := readAttachment(ap, depth)
		if err != nil {
			return nil, err
		}
		if ok {
			m.attachments = append(m.attachments, a)
		}
	}
	return m, nil
}

// readBodies reads the HTML body, and the RTF one where it holds what the others lack.
func (m *message) readBodies(p *props, htmlCP string) error {
	html, err := p.binary(propHTML)
	if err != nil {
		return err
	}
	if html != nil {
		m.html, m.htmlCharset = trimNUL(html), htmlCP
	} else if p.s.streams[strings.ToUpper(substg(propHTML, typeUnicode))] != nil {
		s, err := p.str(propHTML)
		if err != nil {
			return err
		}
		m.html, m.htmlCharset = []byte(s), "utf-8"
	}
	packed, err := p.binary(propRtfCompressed)
	if err != nil || packed == nil {
		return err
	}
	rtf, err := decompressRTF(packed)
	if err != nil {
		// The other bodies still stand; without them, the item is damaged.
		if m.html == nil && !m.hasBody {
			return fmt.Errorf("%w: %w", ErrDamaged, err)
		}
		return nil
	}
	cp := p.cp
	switch kindOfRTF(rtf) {
	case rtfHTML:
		if m.html == nil {
			m.html, m.htmlCharset = []byte(rtfToHTML(rtf, cp)), "utf-8"
		}
	case rtfText:
		if !m.hasBody {
			m.body, m.hasBody = rtfToText(rtf, cp), true
		}
	default:
		if !m.hasBody {
			m.body, m.hasBody = rtfToText(rtf, cp), true
		}
		if m.html == nil {
			m.rtf = rtf // its formatting is nowhere else
		}
	}
	return nil
}

func trimNUL(b []byte) []byte {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return b
}

// smtpOf is the SMTP address of a sender or recipient: the one kept beside
// an Exchange address, else its address when that is an SMTP one.
func smtpOf(smtp, addrType, email string) string {
	if a := strings.TrimSpace(smtp); looksSMTP(a) {
		return a
	}
	email = strings.TrimSpace(email)
	if (strings.EqualFold(addrType, "SMTP") || addrType == "") && looksSMTP(email) {
		return email
	}
	return ""
}

func looksSMTP(a string) bool {
	at := strings.LastIndexByte(a, '@')
	return at > 0 && at < len(a)-1 && !strings.HasPrefix(a, "/") && !strings.ContainsAny(a, " <>\"(),;:\r\n")
}

func readRecipient(p *props) (address, error) {
	var err error
	str := func(id uint16) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = p.str(id)
		return s
	}
	a := address{name: str(propDisplayName), kind: 1}
	if a.name == "" {
		a.name = str(propRecipDisplayName)
	}
	a.addr = smtpOf(str(propSmtpAddress), str(propAddrType), str(propEmailAddress))
	if k, ok := p.int32(propRecipientType); ok {
		a.kind = k & 0xF
	}
	return a, err
}

// Attachment methods (PidTagAttachMethod).
const (
	attachByValue  = 1
	attachEmbedded = 5
)

func readAttachment(p *props, depth int) (attachment, bool, error) {
	var err error
	str := func(id uint16) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = p.str(id)
		return s
	}
	a := attachment{name: str(propAttachLongName)}
	if a.name == "" {
		a.name = str(propAttachFilename)
	}
	if a.name == "" {
		a.name = str(propDisplayName)
	}
	a.name = cleanName(a.name)
	a.mimeType = strings.ToLower(strings.TrimSpace(str(propAttachMimeTag)))
	a.cid = strings.Trim(strings.TrimSpace(str(propAttachContentID)), "<>")
	a.hidden = p.boolean(propAttachmentHidden)
	if err != nil {
		return a, false, err
	}
	method, _ := p.int32(propAttachMethod)
	if inner := p.s.child(substg(propAttachData, typeObject)); inner != nil && (method == attachEmbedded || method == 0) {
		if depth <= 0 {
			return a, false, fmt.Errorf("%w: messages attached inside each other too deep", ErrDamaged)
		}
		if _, has := inner.streams[strings.ToUpper("__properties_version1.0")]; has {
			m, err := readMessage(inner, headerEmbedded, depth-1)
			if err != nil {
				return a, false, err
			}
			a.message = m
			return a, true, nil
		}
		return a, false, nil // an OLE object: nothing an email can carry
	}
	data, err := p.binary(propAttachData)
	if err != nil {
		return a, false, err
	}
	if data == nil {
		return a, false, nil // attached by reference: the bytes are elsewhere
	}
	a.data = data
	return a, true, nil
}

// cleanName keeps a file name to its last part, without control characters.
func cleanName(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}
