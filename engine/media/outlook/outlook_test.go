package outlook

import (
	"bytes"
	"errors"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"hoist/internal/msgfile"
)

// convert turns a fixture into its email.
func convert(t *testing.T, name string) []byte {
	t.Helper()
	m, ok := msgfile.Fixtures()[name]
	if !ok {
		t.Fatalf("no fixture %s", name)
	}
	b := m.Bytes()
	out, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func TestPrebufIsTheSpecifiedDictionary(t *testing.T) {
	if len(rtfPrebuf) != 207 {
		t.Errorf("the dictionary has %d bytes, not 207", len(rtfPrebuf))
	}
}

func TestPlainMessage(t *testing.T) {
	p := parseEmail(t, convert(t, "plain-unicode.msg"))
	if p.subject != "Quarterly figures" {
		t.Errorf("Subject = %q", p.subject)
	}
	if got := p.addresses(t, "From"); !slices.Equal(got, []string{"Alice Martin <alice@example.com>"}) {
		t.Errorf("From = %q", got)
	}
	if got := p.addresses(t, "To"); !slices.Equal(got, []string{"Bob Stone <bob@example.com>", "Carol White <carol@example.com>"}) {
		t.Errorf("To = %q", got)
	}
	if got := p.addresses(t, "Cc"); !slices.Equal(got, []string{"Dave Brown <dave@example.com>"}) {
		t.Errorf("Cc = %q", got)
	}
	if d, err := p.header.Date(); err != nil || !d.Equal(msgfile.Sent) {
		t.Errorf("Date = %v, %v; want the submit time %v", d, err, msgfile.Sent)
	}
	if id := p.header.Get("Message-ID"); id != "<figures-q1@example.com>" {
		t.Errorf("Message-ID = %q", id)
	}
	if len(p.plain) != 1 || !strings.Contains(p.plain[0], "The figures for the first quarter are below.\r\n") {
		t.Errorf("plain text = %q", p.plain)
	}
	if len(p.files) != 0 || len(p.html) != 0 {
		t.Errorf("files %v, html %q: the item has neither", p.files, p.html)
	}
}

func TestConvertingIsDeterministic(t *testing.T) {
	for name := range msgfile.Fixtures() {
		if msgfile.NotEmails[name] != "" {
			continue
		}
		if a, b := convert(t, name), convert(t, name); !bytes.Equal(a, b) {
			t.Errorf("%s: two conversions differ", name)
		}
	}
}

func TestCodePages(t *testing.T) {
	for _, c := range []struct {
		file, subject, from, to, body, attachment string
	}{
		{"arabic-1256.msg", "تقرير الحملة الشهري", "أحمد علي <ahmed@example.com>", "فاطمة الزهراء <fatima@example.com>", "مرفق تقرير الحملة.", "تقرير.txt"},
		{"persian-1256.msg", "گزارش ماهانه فروش", "مريم رضايي <maryam@example.ir>", "کامران <kamran@example.ir>", "گزارش فروش اين ماه پيوست است.", ""},
		{"hebrew-1255.msg", "דוח שנתי 2026", "דנה כהן <dana@example.co.il>", "יוסי לוי <yossi@example.co.il>", "הדוח השנתי מצורף.", "דוח.pdf"},
		{"western-1252.msg", "“Café” prices – €5", "Zoë Dupré <zoe@example.fr>", "René <rene@example.fr>", "Prices rose to €5 — “again”.", ""},
	} {
		t.Run(c.file, func(t *testing.T) {
			out := convert(t, c.file)
			for _, line := range strings.Split(string(out), "\r\n") {
				if line == "" {
					break
				}
				for i := 0; i < len(line); i++ {
					if line[i] >= 0x80 {
						t.Fatalf("header line with 8-bit bytes: %q", line)
					}
				}
			}
			p := parseEmail(t, out)
			if p.subject != c.subject {
				t.Errorf("Subject = %q, want %q", p.subject, c.subject)
			}
			if got := p.addresses(t, "From"); !slices.Equal(got, []string{c.from}) {
				t.Errorf("From = %q, want %q", got, c.from)
			}
			if got := p.addresses(t, "To"); !slices.Equal(got, []string{c.to}) {
				t.Errorf("To = %q, want %q", got, c.to)
			}
			if len(p.plain) != 1 || !strings.Contains(p.plain[0], c.body) {
				t.Errorf("body = %q, want it to hold %q", p.plain, c.body)
			}
			if c.attachment != "" && (len(p.files) != 1 || p.files[0].name != c.attachment) {
				t.Errorf("attachments = %+v, want %q", p.files, c.attachment)
			}
		})
	}
}

func TestHTMLWithInlineImage(t *testing.T) {
	out := convert(t, "html-inline-image.msg")
	p := parseEmail(t, out)
	if !slices.Equal(p.parts, []string{"text/plain", "text/html", "image/png", "application/pdf"}) {
		t.Errorf("parts = %q", p.parts)
	}
	if !strings.Contains(string(out), `multipart/related`) || !strings.Contains(string(out), "multipart/alternative") {
		t.Errorf("the picture is not related to the HTML:\n%s", out)
	}
	if len(p.html) != 1 || !strings.Contains(p.html[0], `<img src="cid:logo@example.com"`) {
		t.Errorf("html = %q", p.html)
	}
	logo, pdf := p.files[0], p.files[1]
	if logo.name != "logo.png" || logo.cid != "<logo@example.com>" || logo.disposition != "inline" ||
		!bytes.Equal(logo.data, msgfile.PNG(color.RGBA{200, 30, 30, 255})) {
		t.Errorf("logo = %q %q %q (%d bytes)", logo.name, logo.cid, logo.disposition, len(logo.data))
	}
	if pdf.name != "report.pdf" || pdf.ctype != "application/pdf" || pdf.disposition != "attachment" || !bytes.Equal(pdf.data, msgfile.PDF) {
		t.Errorf("pdf = %q %q %q", pdf.name, pdf.ctype, pdf.disposition)
	}
	if got := p.header.Get("In-Reply-To"); got != "<question-6@example.com>" {
		t.Errorf("In-Reply-To = %q", got)
	}
	if got := p.header.Get("References"); got != "<question-5@example.com> <question-6@example.com>" {
		t.Errorf("References = %q", got)
	}
}

func TestExchangeAddresses(t *testing.T) {
	out := convert(t, "exchange-addresses.msg")
	if bytes.Contains(out, []byte("/O=EXCHANGELABS")) {
		t.Errorf("an X.500 address reached the email:\n%s", out)
	}
	p := parseEmail(t, out)
	if got := p.addresses(t, "From"); !slices.Equal(got, []string{"Sam Exchange <sam@example.com>"}) {
		t.Errorf("From = %q", got)
	}
	if got := p.addresses(t, "To"); !slices.Equal(got, []string{"Rita Exchange <rita@example.com>"}) {
		t.Errorf("To = %q", got)
	}
	// Only a name: an empty group of that name, which readers show and accept.
	if got := p.header.Get("Cc"); got != "Old Mailbox: ;" {
		t.Errorf("Cc = %q", got)
	}
}

func TestRTFWrappingHTMLIsUnwrapped(t *testing.T) {
	p := parseEmail(t, convert(t, "rtf-html.msg"))
	want := `<html><head></head><body dir="rtl"><p>שלום עולם & co</p><p>second <b>bold</b></p></body></html>`
	if len(p.html) != 1 || strings.ReplaceAll(p.html[0], "\r\n", "") != want {
		t.Errorf("html = %q\nwant %q", p.html, want)
	}
	if len(p.files) != 0 {
		t.Errorf("files = %+v: the HTML holds the formatting", p.files)
	}
}

func TestOwnRTFGoesAsTextAndAttachment(t *testing.T) {
	p := parseEmail(t, convert(t, "rtf-only.msg"))
	want := "Quarterly results are in red\r\nCafé “quoted” €\r\n"
	if len(p.plain) != 1 || p.plain[0] != want {
		t.Errorf("plain = %q, want %q", p.plain, want)
	}
	if len(p.files) != 1 || p.files[0].name != "message.rtf" || p.files[0].ctype != "application/rtf" ||
		!bytes.HasPrefix(p.files[0].data, []byte(`{\rtf1\ansi\ansicpg1252`)) {
		t.Errorf("files = %+v", p.files)
	}
}

func TestTransportHeadersAreKept(t *testing.T) {
	out := convert(t, "transport-headers.msg")
	p := parseEmail(t, out)
	if got := p.header.Get("X-Mailer"); got != "Example Mailer 1.0" {
		t.Errorf("X-Mailer = %q", got)
	}
	if got := p.header.Get("Date"); got != "Sat, 14 Mar 2026 11:26:53 +0200" {
		t.Errorf("Date = %q, want the one it was sent with", got)
	}
	if strings.Contains(string(out), "old-boundary") {
		t.Errorf("the old body's Content-Type was kept:\n%s", out)
	}
	if got := p.header["Received"]; len(got) != 1 || !strings.Contains(got[0], "by mail.example.com") {
		t.Errorf("Received = %q", got)
	}
	if n := strings.Count(string(out), "\r\nSubject:") + strings.Count(string(out), "\r\nMessage-ID:"); n != 2 {
		t.Errorf("Subject and Message-ID appear %d times, want once each", n)
	}
}

func TestAttachedMessages(t *testing.T) {
	p := parseEmail(t, convert(t, "attached-messages.msg"))
	if len(p.files) != 2 {
		t.Fatalf("files = %+v", p.files)
	}
	minutes, fwd := p.files[0], p.files[1]
	if minutes.ctype != "message/rfc822" || minutes.name != "Minutes of the March meeting.eml" {
		t.Errorf("first = %q %q", minutes.ctype, minutes.name)
	}
	if m := minutes.message; m == nil || m.subject != "Minutes of the March meeting" || len(m.files) != 1 ||
		string(m.files[0].data) != "1. Budget\r\n2. Hiring\r\n" || m.header.Get("Message-ID") != "<minutes-2026-03@example.com>" {
		t.Errorf("the attached message = %+v", minutes.message)
	}
	// A message attached to a message attached to the message.
	inner := fwd.message
	if inner == nil || len(inner.files) != 1 || inner.files[0].message == nil || inner.files[0].message.subject != "رد: الميزانية" {
		t.Fatalf("the message inside the attached one = %+v", inner)
	}
	if got := inner.files[0].message.plain; len(got) != 1 || !strings.Contains(got[0], "موافق.") {
		t.Errorf("its text = %q", got)
	}
}

func TestDraftWithoutMessageID(t *testing.T) {
	out := convert(t, "draft-no-id.msg")
	p := parseEmail(t, out)
	id := p.header.Get("Message-ID")
	if !strings.HasSuffix(id, ".msg@hoist.invalid>") || len(id) != len("<>.msg@hoist.invalid")+32 {
		t.Errorf("Message-ID = %q", id)
	}
	if got := p.addresses(t, "Bcc"); !slices.Equal(got, []string{"Hidden Boss <boss@example.com>"}) {
		t.Errorf("Bcc = %q", got)
	}
	if d, err := p.header.Date(); err != nil || !d.Equal(msgfile.Sent) {
		t.Errorf("Date = %v, %v: want the last change", d, err)
	}
	// Another draft, another id.
	m := msgfile.Fixtures()["draft-no-id.msg"]
	m.Props = append(m.Props, msgfile.Unicode(msgfile.PidTagBody, "Changed.\r\n"))
	b := m.Bytes()
	other, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if parseEmail(t, other).header.Get("Message-ID") == id {
		t.Errorf("two different drafts got the same Message-ID %s", id)
	}
}

func TestItemsThatAreNotEmails(t *testing.T) {
	for name, kind := range msgfile.NotEmails {
		b := msgfile.Fixtures()[name].Bytes()
		_, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
		var ne *NotEmailError
		if !errors.As(err, &ne) || ne.Kind != kind {
			t.Errorf("%s: %v, want an Outlook %s", name, err, kind)
		}
	}
}

func TestDamagedFiles(t *testing.T) {
	good := msgfile.Fixtures()["html-inline-image.msg"].Bytes()
	for name, b := range map[string][]byte{
		"empty":        {},
		"not compound": []byte("From: a@example.com\r\n\r\nhello"),
		"header only":  good[:512],
		"cut":          good[:len(good)/2],
	} {
		_, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
		if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrNotOutlook) {
			t.Errorf("%s: %v, want damaged or not an Outlook item", name, err)
		}
	}
	// A compressed RTF whose checksum is wrong is not believed.
	rtf := msgfile.CompressRTF([]byte(`{\rtf1 hello}`))
	rtf[20] ^= 0xFF
	if _, err := decompressRTF(rtf); !errors.Is(err, errRTF) {
		t.Errorf("damaged RTF: %v", err)
	}
}

func TestReadLimit(t *testing.T) {
	b := msgfile.Fixtures()["html-inline-image.msg"].Bytes()
	_, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{Read: 200, Depth: 8})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("Convert within 200 bytes = %v, want ErrTooLarge", err)
	}
}

func TestDatesOutsideMail(t *testing.T) {
	p := &props{fixed: map[uint16][8]byte{1: {}}, types: map[uint16]uint16{1: typeTime}}
	if !p.time(1).IsZero() {
		t.Errorf("a zero FILETIME is a date")
	}
	_ = time.Time{}
}

func TestRTFCharactersBeyondTheBMP(t *testing.T) {
	got := rtfToText([]byte(`{\rtf1\ansi\uc1 ok \u-10179?\u-8704? done\par}`), nil)
	if got != "ok 😀 done\r\n" {
		t.Errorf("text = %q", got)
	}
}

// BenchmarkConvert: an item with a 10 MB attachment. What it costs in
// memory is the item's parts and the email, each once (b.ReportAllocs).
func BenchmarkConvert(b *testing.B) {
	m := msgfile.Fixtures()["html-inline-image.msg"]
	m.Attachments = append(m.Attachments, msgfile.ByValue("scan.bin", "application/octet-stream", bytes.Repeat([]byte("0123456789abcdef"), 10<<16)))
	file := m.Bytes()
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Convert(bytes.NewReader(file), int64(len(file)), Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// A signed email goes as it was signed: its body is the signed entity
// Outlook kept whole, so the signature still matches.
func TestSignedEmailKeepsItsSignedBody(t *testing.T) {
	out := convert(t, "signed.msg")
	if !bytes.HasSuffix(out, []byte(msgfile.Signed)) {
		t.Fatalf("the signed entity is not the body:\n%s", out)
	}
	p := parseEmail(t, out)
	if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "multipart/signed") {
		t.Errorf("Content-Type = %q", ct)
	}
	if len(p.plain) != 1 || p.plain[0] != "Signed hello" || len(p.files) != 1 || p.files[0].name != "smime.p7s" {
		t.Errorf("text %q, files %+v", p.plain, p.files)
	}
	if p.subject != "Signed contract" || p.header.Get("Message-ID") != "<signed-1@example.com>" {
		t.Errorf("headers %v", p.header)
	}
}

// An encrypted email goes as its encrypted body, which only its
// recipients can open.
func TestEncryptedEmailKeepsItsEncryptedBody(t *testing.T) {
	secret := []byte("\x30\x80\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x03\xa0\x80 not really encrypted")
	m := &msgfile.Message{
		Props: append([]msgfile.Prop{
			msgfile.Unicode(msgfile.PidTagMessageClass, "IPM.Note.SMIME"), msgfile.Unicode(msgfile.PidTagSubject, "Secret"),
			msgfile.Unicode(msgfile.PidTagMessageID, "<secret@example.com>"),
		}, msgfile.Sender("Alice Martin", "alice@example.com")...),
		Recipients:  [][]msgfile.Prop{msgfile.Recipient(msgfile.To, "Bob Stone", "bob@example.com")},
		Attachments: []msgfile.Attachment{msgfile.ByValue("smime.p7m", "application/pkcs7-mime", secret)},
	}
	b := m.Bytes()
	out, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	p := parseEmail(t, out)
	if ct := p.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/pkcs7-mime") {
		t.Errorf("Content-Type = %q", ct)
	}
	if len(p.files) != 1 || !bytes.Equal(p.files[0].data, secret) || len(p.plain) != 0 {
		t.Errorf("files %+v, text %q", p.files, p.plain)
	}
}
