package msgfile

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// MAPI property ids the fixtures set (MS-OXPROPS).
const (
	PidTagMessageClass         = 0x001A
	PidTagSubject              = 0x0037
	PidTagClientSubmitTime     = 0x0039
	PidTagSentRepresentingName = 0x0042
	PidTagSentRepAddrType      = 0x0064
	PidTagSentRepEmail         = 0x0065
	PidTagTransportHeaders     = 0x007D
	PidTagSenderName           = 0x0C1A
	PidTagSenderAddrType       = 0x0C1E
	PidTagSenderEmail          = 0x0C1F
	PidTagRecipientType        = 0x0C15
	PidTagDeliveryTime         = 0x0E06
	PidTagMessageFlags         = 0x0E07
	PidTagBody                 = 0x1000
	PidTagRtfCompressed        = 0x1009
	PidTagHTML                 = 0x1013
	PidTagMessageID            = 0x1035
	PidTagReferences           = 0x1039
	PidTagInReplyTo            = 0x1042
	PidTagDisplayName          = 0x3001
	PidTagAddrType             = 0x3002
	PidTagEmailAddress         = 0x3003
	PidTagAttachData           = 0x3701
	PidTagAttachFilename       = 0x3704
	PidTagAttachMethod         = 0x3705
	PidTagAttachLongFilename   = 0x3707
	PidTagAttachMimeTag        = 0x370E
	PidTagAttachContentID      = 0x3712
	PidTagSMTPAddress          = 0x39FE
	PidTagInternetCodepage     = 0x3FDE
	PidTagMessageCodepage      = 0x3FFD
	PidTagSenderSMTPAddress    = 0x5D01
	PidTagSentRepSMTPAddress   = 0x5D02
	PidTagAttachmentHidden     = 0x7FFE
)

// Recipient types.
const (
	To  = 1
	Cc  = 2
	Bcc = 3
)

// When the fixtures were sent.
var Sent = time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)

// Recipient is a recipient with an SMTP address, in Unicode.
func Recipient(kind int32, name, addr string) []Prop {
	return []Prop{Int32(PidTagRecipientType, kind), Unicode(PidTagDisplayName, name),
		Unicode(PidTagAddrType, "SMTP"), Unicode(PidTagEmailAddress, addr), Unicode(PidTagSMTPAddress, addr)}
}

// ByValue is a file attached by value.
func ByValue(name, mimeType string, data []byte, more ...Prop) Attachment {
	ps := []Prop{Int32(PidTagAttachMethod, 1), Unicode(PidTagAttachLongFilename, name),
		Unicode(PidTagDisplayName, name), Binary(PidTagAttachData, data)}
	if mimeType != "" {
		ps = append(ps, Unicode(PidTagAttachMimeTag, mimeType))
	}
	return Attachment{Props: append(ps, more...)}
}

// Sender is a sender with an SMTP address, in Unicode.
func Sender(name, addr string) []Prop {
	return []Prop{
		Unicode(PidTagSenderName, name), Unicode(PidTagSenderAddrType, "SMTP"), Unicode(PidTagSenderEmail, addr),
		Unicode(PidTagSentRepresentingName, name), Unicode(PidTagSentRepAddrType, "SMTP"), Unicode(PidTagSentRepEmail, addr),
	}
}

// PNG is a small picture.
func PNG(c color.Color) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	for x := 0; x < 4; x++ {
		for y := 0; y < 4; y++ {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// PDF is the start of a PDF document: bytes an attachment carries as they are.
var PDF = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

func note(props ...Prop) []Prop {
	return append([]Prop{Unicode(PidTagMessageClass, "IPM.Note"), Time(PidTagClientSubmitTime, Sent),
		Time(PidTagDeliveryTime, Sent.Add(2*time.Second))}, props...)
}

// rtfHTML is HTML kept inside RTF, as Outlook keeps an HTML email it
// was given in RTF (Hebrew text, code page 1255).
const rtfHTML = "{\\rtf1\\ansi\\ansicpg1255\\fromhtml1 \\fbidis \\deff0{\\fonttbl{\\f0\\fswiss\\fcharset177 Arial;}}\r\n" +
	"{\\*\\htmltag19 <html>}{\\*\\htmltag34 <head>}{\\*\\htmltag41 </head>}{\\*\\htmltag50 <body dir=\"rtl\">}\\htmlrtf {\\htmlrtf0 \r\n" +
	"{\\*\\htmltag64 <p>}\\htmlrtf {\\htmlrtf0 \\'f9\\'ec\\'e5\\'ed \\u1506?\\u1493?\\u1500?\\u1501? & co\\htmlrtf\\par}\\htmlrtf0\r\n" +
	"{\\*\\htmltag72 </p>}\r\n{\\*\\htmltag64 <p>}\\htmlrtf {\\htmlrtf0 second {\\*\\htmltag84 <b>}bold{\\*\\htmltag92 </b>}\\htmlrtf\\par}\\htmlrtf0\r\n" +
	"{\\*\\htmltag72 </p>}\\htmlrtf }\\htmlrtf0 {\\*\\htmltag58 </body>}{\\*\\htmltag27 </html>}}"

// rtfOwn is RTF of its own, with formatting HTML cannot carry.
const rtfOwn = "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0\\fswiss Arial;}}{\\colortbl;\\red255\\green0\\blue0;}\r\n" +
	"\\pard\\plain\\f0\\fs20 Quarterly {\\b results} are {\\cf1 in red}\\par\r\nCaf\\'e9 \\'93quoted\\'94 \\u8364?\\par\r\n}"

// Fixtures are Outlook items covering what Hoist converts, by file name.
func Fixtures() map[string]*Message {
	attached := &Message{
		Props: append(note(
			Unicode(PidTagSubject, "Minutes of the March meeting"),
			Unicode(PidTagMessageID, "<minutes-2026-03@example.com>"),
			Unicode(PidTagBody, "The minutes are attached.\r\n"),
		), Sender("Dana Levi", "dana@example.co.il")...),
		Recipients:  [][]Prop{Recipient(To, "Office", "office@example.com")},
		Attachments: []Attachment{ByValue("minutes.txt", "text/plain", []byte("1. Budget\r\n2. Hiring\r\n"))},
	}
	innermost := &Message{
		Props: append(note(
			Unicode(PidTagSubject, "رد: الميزانية"),
			Unicode(PidTagMessageID, "<budget-reply@example.com>"),
			Unicode(PidTagBody, "موافق.\r\n"),
		), Sender("أحمد علي", "ahmed@example.com")...),
		Recipients: [][]Prop{Recipient(To, "Dana Levi", "dana@example.co.il")},
	}
	forwarded := &Message{
		Props: append(note(
			Unicode(PidTagSubject, "Fwd: budget"),
			Unicode(PidTagMessageID, "<budget-fwd@example.com>"),
			Unicode(PidTagBody, "See the reply inside.\r\n"),
		), Sender("Dana Levi", "dana@example.co.il")...),
		Recipients:  [][]Prop{Recipient(To, "Office", "office@example.com")},
		Attachments: []Attachment{{Props: []Prop{Int32(PidTagAttachMethod, 5), Unicode(PidTagDisplayName, "رد: الميزانية")}, Message: innermost}},
	}
	html := `<html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"></head><body><p>Hello <b>team</b>,</p><p><img src="cid:logo@example.com" alt="logo"></p><p>Report attached.</p></body></html>`
	all := map[string]*Message{
		"plain-unicode.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "Quarterly figures"),
				Unicode(PidTagMessageID, "<figures-q1@example.com>"),
				Unicode(PidTagBody, "Hello,\r\n\r\nThe figures for the first quarter are below.\r\n\r\nRegards,\r\nAlice\r\n"),
			), Sender("Alice Martin", "alice@example.com")...),
			Recipients: [][]Prop{
				Recipient(To, "Bob Stone", "bob@example.com"),
				Recipient(To, "Carol White", "carol@example.com"),
				Recipient(Cc, "Dave Brown", "dave@example.com"),
			},
		},
		"html-inline-image.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "Newsletter with logo"),
				Unicode(PidTagMessageID, "<newsletter-7@example.com>"),
				Unicode(PidTagInReplyTo, "<question-6@example.com>"),
				Unicode(PidTagReferences, "<question-5@example.com> <question-6@example.com>"),
				Unicode(PidTagBody, "Hello team,\r\n\r\nReport attached.\r\n"),
				Binary(PidTagHTML, []byte(html)),
				Int32(PidTagInternetCodepage, 65001),
			), Sender("News Team", "news@example.com")...),
			Recipients: [][]Prop{Recipient(To, "Team", "team@example.com")},
			Attachments: []Attachment{
				ByValue("logo.png", "image/png", PNG(color.RGBA{200, 30, 30, 255}),
					Unicode(PidTagAttachContentID, "logo@example.com"), Bool(PidTagAttachmentHidden, true)),
				ByValue("report.pdf", "application/pdf", PDF),
			},
		},
		"rtf-html.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "HTML kept in RTF"),
				Unicode(PidTagMessageID, "<rtf-html@example.co.il>"),
				Binary(PidTagRtfCompressed, CompressRTF([]byte(rtfHTML))),
			), Sender("Dana Levi", "dana@example.co.il")...),
			Recipients: [][]Prop{Recipient(To, "Office", "office@example.com")},
		},
		"rtf-only.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "Rich text only"),
				Unicode(PidTagMessageID, "<rtf-only@example.com>"),
				Binary(PidTagRtfCompressed, CompressRTF([]byte(rtfOwn))),
			), Sender("Alice Martin", "alice@example.com")...),
			Recipients: [][]Prop{Recipient(To, "Bob Stone", "bob@example.com")},
		},
		"attached-messages.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "Two messages attached"),
				Unicode(PidTagMessageID, "<attached-outer@example.com>"),
				Unicode(PidTagBody, "Forwarding two messages.\r\n"),
			), Sender("Alice Martin", "alice@example.com")...),
			Recipients: [][]Prop{Recipient(To, "Bob Stone", "bob@example.com")},
			Attachments: []Attachment{
				{Props: []Prop{Int32(PidTagAttachMethod, 5), Unicode(PidTagDisplayName, "Minutes of the March meeting")}, Message: attached},
				{Props: []Prop{Int32(PidTagAttachMethod, 5), Unicode(PidTagDisplayName, "Fwd budget")}, Message: forwarded},
			},
		},
	}
	for _, more := range []map[string]*Message{codePageFixtures(), headerFixtures()} {
		for name, m := range more {
			all[name] = m
		}
	}
	return all
}

// codePageFixtures are items whose text is 8-bit in a Windows code page.
func codePageFixtures() map[string]*Message {
	cp1256, cp1255, cp1252 := charmap.Windows1256, charmap.Windows1255, charmap.Windows1252
	s8 := String8
	return map[string]*Message{
		"arabic-1256.msg": {
			Props: []Prop{
				s8(PidTagMessageClass, "IPM.Note", cp1256), Time(PidTagClientSubmitTime, Sent),
				Int32(PidTagMessageCodepage, 1256), Int32(PidTagInternetCodepage, 1256),
				s8(PidTagSubject, "تقرير الحملة الشهري", cp1256),
				s8(PidTagMessageID, "<arabic-1256@example.com>", cp1256),
				s8(PidTagBody, "السلام عليكم،\r\nمرفق تقرير الحملة.\r\n", cp1256),
				s8(PidTagSenderName, "أحمد علي", cp1256), s8(PidTagSenderAddrType, "SMTP", cp1256), s8(PidTagSenderEmail, "ahmed@example.com", cp1256),
				s8(PidTagSentRepresentingName, "أحمد علي", cp1256), s8(PidTagSentRepAddrType, "SMTP", cp1256), s8(PidTagSentRepEmail, "ahmed@example.com", cp1256),
			},
			Recipients: [][]Prop{{Int32(PidTagRecipientType, To), s8(PidTagDisplayName, "فاطمة الزهراء", cp1256),
				s8(PidTagAddrType, "SMTP", cp1256), s8(PidTagEmailAddress, "fatima@example.com", cp1256)}},
			Attachments: []Attachment{{Props: []Prop{Int32(PidTagAttachMethod, 1), s8(PidTagAttachLongFilename, "تقرير.txt", cp1256),
				Binary(PidTagAttachData, []byte("report\r\n"))}}},
		},
		"persian-1256.msg": {
			Props: []Prop{
				s8(PidTagMessageClass, "IPM.Note", cp1256), Time(PidTagClientSubmitTime, Sent),
				Int32(PidTagMessageCodepage, 1256),
				s8(PidTagSubject, "گزارش ماهانه فروش", cp1256),
				s8(PidTagMessageID, "<persian-1256@example.ir>", cp1256),
				s8(PidTagBody, "سلام،\r\nگزارش فروش اين ماه پيوست است.\r\n", cp1256),
				s8(PidTagSenderName, "مريم رضايي", cp1256), s8(PidTagSenderAddrType, "SMTP", cp1256), s8(PidTagSenderEmail, "maryam@example.ir", cp1256),
			},
			Recipients: [][]Prop{{Int32(PidTagRecipientType, To), s8(PidTagDisplayName, "کامران", cp1256),
				s8(PidTagAddrType, "SMTP", cp1256), s8(PidTagEmailAddress, "kamran@example.ir", cp1256)}},
		},
		"hebrew-1255.msg": {
			Props: []Prop{
				s8(PidTagMessageClass, "IPM.Note", cp1255), Time(PidTagClientSubmitTime, Sent),
				Int32(PidTagMessageCodepage, 1255),
				s8(PidTagSubject, "דוח שנתי 2026", cp1255),
				s8(PidTagMessageID, "<hebrew-1255@example.co.il>", cp1255),
				s8(PidTagBody, "שלום,\r\nהדוח השנתי מצורף.\r\n", cp1255),
				s8(PidTagSenderName, "דנה כהן", cp1255), s8(PidTagSenderAddrType, "SMTP", cp1255), s8(PidTagSenderEmail, "dana@example.co.il", cp1255),
			},
			Recipients: [][]Prop{{Int32(PidTagRecipientType, To), s8(PidTagDisplayName, "יוסי לוי", cp1255),
				s8(PidTagAddrType, "SMTP", cp1255), s8(PidTagEmailAddress, "yossi@example.co.il", cp1255)}},
			Attachments: []Attachment{{Props: []Prop{Int32(PidTagAttachMethod, 1), s8(PidTagAttachLongFilename, "דוח.pdf", cp1255),
				s8(PidTagAttachMimeTag, "application/pdf", cp1255), Binary(PidTagAttachData, PDF)}}},
		},
		"western-1252.msg": {
			Props: []Prop{
				s8(PidTagMessageClass, "IPM.Note", cp1252), Time(PidTagClientSubmitTime, Sent),
				Int32(PidTagMessageCodepage, 1252),
				s8(PidTagSubject, "“Café” prices – €5", cp1252),
				s8(PidTagMessageID, "<western-1252@example.fr>", cp1252),
				s8(PidTagBody, "Prices rose to €5 — “again”.\r\n", cp1252),
				s8(PidTagSenderName, "Zoë Dupré", cp1252), s8(PidTagSenderAddrType, "SMTP", cp1252), s8(PidTagSenderEmail, "zoe@example.fr", cp1252),
			},
			Recipients: [][]Prop{{Int32(PidTagRecipientType, To), s8(PidTagDisplayName, "René", cp1252),
				s8(PidTagAddrType, "SMTP", cp1252), s8(PidTagEmailAddress, "rene@example.fr", cp1252)}},
		},
	}
}

// headerFixtures are items whose addresses and headers matter: Exchange
// senders, transport headers, a draft with no Message-ID, signed mail, and
// items that are not emails.
func headerFixtures() map[string]*Message {
	return map[string]*Message{
		"exchange-addresses.msg": {
			Props: note(
				Unicode(PidTagSubject, "Exchange senders"),
				Unicode(PidTagMessageID, "<exchange-1@example.com>"),
				Unicode(PidTagBody, "Sent inside the organisation.\r\n"),
				Unicode(PidTagSenderName, "Sam Exchange"), Unicode(PidTagSenderAddrType, "EX"),
				Unicode(PidTagSenderEmail, "/O=EXCHANGELABS/OU=EXCHANGE ADMINISTRATIVE GROUP (FYDIBOHF23SPDLT)/CN=RECIPIENTS/CN=SAM"),
				Unicode(PidTagSenderSMTPAddress, "sam@example.com"),
				Unicode(PidTagSentRepresentingName, "Sam Exchange"), Unicode(PidTagSentRepAddrType, "EX"),
				Unicode(PidTagSentRepEmail, "/O=EXCHANGELABS/OU=EXCHANGE ADMINISTRATIVE GROUP (FYDIBOHF23SPDLT)/CN=RECIPIENTS/CN=SAM"),
				Unicode(PidTagSentRepSMTPAddress, "sam@example.com"),
			),
			Recipients: [][]Prop{
				{Int32(PidTagRecipientType, To), Unicode(PidTagDisplayName, "Rita Exchange"), Unicode(PidTagAddrType, "EX"),
					Unicode(PidTagEmailAddress, "/O=EXCHANGELABS/OU=EXCHANGE ADMINISTRATIVE GROUP (FYDIBOHF23SPDLT)/CN=RECIPIENTS/CN=RITA"),
					Unicode(PidTagSMTPAddress, "rita@example.com")},
				{Int32(PidTagRecipientType, Cc), Unicode(PidTagDisplayName, "Old Mailbox"), Unicode(PidTagAddrType, "EX"),
					Unicode(PidTagEmailAddress, "/O=EXCHANGELABS/OU=EXCHANGE ADMINISTRATIVE GROUP (FYDIBOHF23SPDLT)/CN=RECIPIENTS/CN=OLD")},
			},
		},
		"transport-headers.msg": {
			Props: append(note(
				Unicode(PidTagSubject, "Received with headers"),
				Unicode(PidTagMessageID, "<kept-headers@example.org>"),
				Unicode(PidTagTransportHeaders, "Received: from mx.example.org (mx.example.org [192.0.2.1])\r\n\tby mail.example.com; Sat, 14 Mar 2026 09:26:55 +0000\r\n"+
					"From: \"Kept Sender\" <kept@example.org>\r\nTo: alice@example.com\r\nSubject: Received with headers\r\n"+
					"Date: Sat, 14 Mar 2026 11:26:53 +0200\r\nMessage-ID: <kept-headers@example.org>\r\nMIME-Version: 1.0\r\n"+
					"Content-Type: multipart/alternative; boundary=\"old-boundary\"\r\nX-Mailer: Example Mailer 1.0\r\n\r\n"),
				Unicode(PidTagBody, "A message that kept its headers.\r\n"),
			), Sender("Kept Sender", "kept@example.org")...),
			Recipients: [][]Prop{Recipient(To, "Alice Martin", "alice@example.com")},
		},
		"draft-no-id.msg": {
			Props: append([]Prop{
				Unicode(PidTagMessageClass, "IPM.Note"), Int32(PidTagMessageFlags, 0x8),
				Time(0x3008, Sent), // PidTagLastModificationTime
				Unicode(PidTagSubject, "Draft without an id"),
				Unicode(PidTagBody, "Not sent yet.\r\n"),
			}, Sender("Alice Martin", "alice@example.com")...),
			Recipients: [][]Prop{Recipient(To, "Bob Stone", "bob@example.com"), Recipient(Bcc, "Hidden Boss", "boss@example.com")},
		},
		"signed.msg": {
			Props: append([]Prop{
				Unicode(PidTagMessageClass, "IPM.Note.SMIME.MultipartSigned"), Time(PidTagClientSubmitTime, Sent),
				Unicode(PidTagSubject, "Signed contract"),
				Unicode(PidTagMessageID, "<signed-1@example.com>"),
				Unicode(PidTagBody, "Signed hello\r\n"),
			}, Sender("Alice Martin", "alice@example.com")...),
			Recipients:  [][]Prop{Recipient(To, "Bob Stone", "bob@example.com")},
			Attachments: []Attachment{ByValue("smime.p7m", "multipart/signed", []byte(Signed))},
		},
		"contact.msg":     {Props: []Prop{Unicode(PidTagMessageClass, "IPM.Contact"), Unicode(PidTagSubject, "Bob Stone"), Unicode(PidTagDisplayName, "Bob Stone")}},
		"appointment.msg": {Props: []Prop{Unicode(PidTagMessageClass, "IPM.Appointment"), Unicode(PidTagSubject, "Budget meeting")}},
		"task.msg":        {Props: []Prop{Unicode(PidTagMessageClass, "IPM.Task"), Unicode(PidTagSubject, "Send the report")}},
		"sticky-note.msg": {Props: []Prop{Unicode(PidTagMessageClass, "IPM.StickyNote"), Unicode(PidTagSubject, "Call Bob")}},
	}
}

// Signed is a signed email's body, as Outlook keeps it whole.
const Signed = "Content-Type: multipart/signed; protocol=\"application/pkcs7-signature\"; micalg=sha-256; boundary=\"sig\"\r\n\r\n" +
	"--sig\r\nContent-Type: text/plain; charset=us-ascii\r\n\r\nSigned hello\r\n" +
	"--sig\r\nContent-Type: application/pkcs7-signature; name=smime.p7s\r\nContent-Transfer-Encoding: base64\r\n" +
	"Content-Disposition: attachment; filename=smime.p7s\r\n\r\nMIAGCSqGSIb3DQEHAqCAMIACAQEx\r\n--sig--\r\n"

// NotEmails are the fixtures that are Outlook items but not emails, with what each is.
var NotEmails = map[string]string{
	"contact.msg": "contact", "appointment.msg": "appointment", "task.msg": "task", "sticky-note.msg": "note",
}
