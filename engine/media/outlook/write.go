package outlook

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"path"
	"strings"
	"time"
)

// writer writes one converted item; its parts' boundaries are numbered, so
// the same item always gives the same bytes.
type writer struct {
	parts int
}

func (w *writer) boundary() string {
	w.parts++
	// "=_" cannot appear in quoted-printable or base64 text.
	return fmt.Sprintf("=_hoist_part_%d", w.parts)
}

// header is one header field, its value already encoded.
type header struct{ name, value string }

// render writes the whole email: headers, then its body.
func (m *message) render(top bool) []byte {
	w := &writer{}
	return m.renderWith(w, top)
}

func (m *message) renderWith(w *writer, top bool) []byte {
	ctype, body := m.writeBody(w)
	size := 0
	for _, piece := range body {
		size += len(piece)
	}
	hs := m.headerFields()
	hs = append(hs, header{"MIME-Version", "1.0"})
	hs = append(hs, ctype...)
	if top && !hasHeader(hs, "Message-ID") {
		// No Message-ID of its own: one made from what it says, the same
		// for the same item, so a lost answer can still be looked for.
		sum := sha256.New()
		for _, h := range hs {
			sum.Write([]byte(h.name + ": " + h.value + "\r\n"))
		}
		for _, piece := range body {
			sum.Write(piece)
		}
		hs = append(hs, header{"Message-ID", "<" + hex.EncodeToString(sum.Sum(nil)[:16]) + ".msg@hoist.invalid>"})
	}
	var out bytes.Buffer
	out.Grow(size + 4096)
	for _, h := range hs {
		out.WriteString(fold(h.name + ": " + h.value))
		out.WriteString("\r\n")
	}
	if ctype != nil {
		out.WriteString("\r\n") // else the body begins with its own headers (S/MIME)
	}
	for _, piece := range body {
		out.Write(piece)
	}
	return out.Bytes()
}

func hasHeader(hs []header, name string) bool {
	for _, h := range hs {
		if strings.EqualFold(h.name, name) {
			return true
		}
	}
	return false
}

// headerFields are the message's headers without those of its body: the
// ones it kept from its transport where it kept them, else made from its
// properties; what the kept ones lack is added from the properties.
func (m *message) headerFields() []header {
	kept := keptHeaders(m.headers)
	var hs []header
	for _, h := range kept {
		hs = append(hs, h)
	}
	add := func(name, value string) {
		if value != "" && !hasHeader(kept, name) {
			hs = append(hs, header{name, value})
		}
	}
	if len(kept) == 0 || !hasHeader(kept, "From") {
		add("From", formatAddress(m.from))
		if m.sender.addr != "" && !strings.EqualFold(m.sender.addr, m.from.addr) {
			add("Sender", formatAddress(m.sender))
		}
	}
	if len(kept) == 0 {
		for _, kind := range []struct {
			name string
			k    int32
		}{{"To", 1}, {"Cc", 2}, {"Bcc", 3}} {
			var list []string
			for _, r := range m.recipients {
				if r.kind == kind.k {
					list = append(list, formatAddress(r))
				}
			}
			add(kind.name, strings.Join(list, ", "))
		}
	}
	add("Subject", encodeText(m.subject))
	if !m.date.IsZero() {
		add("Date", m.date.Format(time.RFC1123Z))
	}
	add("Message-ID", angle(m.messageID))
	add("In-Reply-To", angle(m.inReplyTo))
	add("References", m.references)
	return hs
}

// angle puts an id in angle brackets when it lacks them.
func angle(id string) string {
	id = strings.TrimSpace(id)
	if id == "" || strings.HasPrefix(id, "<") {
		return id
	}
	return "<" + id + ">"
}

// keptHeaders are the transport headers without those that describe a
// body (this one's is written anew), unfolded into fields; none when they
// cannot be read as headers.
func keptHeaders(raw string) []header {
	raw = strings.TrimSpace(strings.ReplaceAll(raw, "\r\n", "\n"))
	if raw == "" {
		return nil
	}
	if _, err := mail.ReadMessage(strings.NewReader(strings.ReplaceAll(raw, "\n", "\r\n") + "\r\n\r\n")); err != nil {
		return nil
	}
	var hs []header
	for _, line := range strings.Split(raw, "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" {
			break
		}
		if (line[0] == ' ' || line[0] == '\t') && len(hs) > 0 {
			hs[len(hs)-1].value += "\r\n" + line
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		hs = append(hs, header{strings.TrimSpace(name), strings.TrimLeft(value, " \t")})
	}
	out := hs[:0]
	for _, h := range hs {
		n := strings.ToLower(h.name)
		if strings.HasPrefix(n, "content-") || n == "mime-version" {
			continue
		}
		out = append(out, h)
	}
	return out
}

// formatAddress writes an address as a header takes it; one known only by
// its name (an Exchange address with no SMTP one beside it) is written as
// an empty group of that name, which every reader accepts and shows.
func formatAddress(a address) string {
	name := strings.TrimSpace(a.name)
	if a.addr != "" {
		if name == "" || name == a.addr {
			return a.addr
		}
		return (&mail.Address{Name: name, Address: a.addr}).String()
	}
	if name == "" {
		return ""
	}
	return phrase(name) + ": ;"
}

// phrase writes a display name as an RFC 5322 phrase.
func phrase(s string) string {
	if !isPrintableASCII(s) {
		return mime.BEncoding.Encode("utf-8", s)
	}
	if strings.ContainsAny(s, "()<>[]:;@\\,.\"") {
		return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
	}
	return s
}

// encodeText writes unstructured text (a subject) as a header takes it.
func encodeText(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if isPrintableASCII(s) {
		return s
	}
	return mime.BEncoding.Encode("utf-8", s)
}

func isPrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// fold breaks a header line longer than 78 characters at its spaces.
func fold(line string) string {
	if len(line) <= 78 || strings.Contains(line, "\r\n") {
		return line
	}
	var b strings.Builder
	for len(line) > 78 {
		i := strings.LastIndexAny(line[:78], " \t")
		if i <= 0 {
			j := strings.IndexAny(line[78:], " \t")
			if j < 0 {
				break
			}
			i = 78 + j
		}
		b.WriteString(line[:i])
		b.WriteString("\r\n")
		line = line[i:]
	}
	b.WriteString(line)
	return b.String()
}

// writeBody makes the body and returns its Content-* headers and its
// bytes, in pieces: each attachment is encoded once and copied once, into
// the email.
func (m *message) writeBody(w *writer) ([]header, [][]byte) {
	if entity := m.smimeEntity(); entity != nil {
		return nil, [][]byte{entity}
	}
	inline, attached := m.attachmentParts(w)
	if m.rtf != nil {
		attached = append(attached, mimePart{
			headers: []header{{"Content-Type", withName("application/rtf", "message.rtf")}, {"Content-Transfer-Encoding", "base64"}, {"Content-Disposition", disposition("attachment", "message.rtf")}},
			body:    base64Lines(m.rtf),
		})
	}
	body := multipartOf(w, "alternative", m.textParts())
	if len(inline) > 0 {
		body = multipartOf(w, "related", append([]mimePart{body}, inline...))
	}
	if len(attached) > 0 {
		body = multipartOf(w, "mixed", append([]mimePart{body}, attached...))
	}
	if body.pieces == nil {
		return body.headers, [][]byte{body.body}
	}
	return body.headers, body.pieces
}

// mimePart is one part of the email's MIME tree as it is written.
type mimePart struct {
	headers []header
	body    []byte   // a part's bytes
	pieces  [][]byte // a multipart's, in order
}

// textParts are the message's text as plain text, HTML or both.
func (m *message) textParts() []mimePart {
	textPart := func(ctype string, b []byte) mimePart {
		return mimePart{headers: []header{{"Content-Type", ctype}, {"Content-Transfer-Encoding", "quoted-printable"}}, body: qp(b)}
	}
	var texts []mimePart
	if m.hasBody || m.html == nil {
		texts = append(texts, textPart("text/plain; charset=utf-8", []byte(strings.ReplaceAll(normalizeNewlines(m.body), "\n", "\r\n"))))
	}
	if m.html != nil {
		ct := "text/html"
		if m.htmlCharset != "" {
			ct += "; charset=" + m.htmlCharset
		}
		texts = append(texts, textPart(ct, m.html))
	}
	return texts
}

// attachmentParts are the message's attachments: those the HTML shows by
// their Content-ID (inline), and the rest, attached messages among them.
func (m *message) attachmentParts(w *writer) (inline, attached []mimePart) {
	for i, a := range m.attachments {
		if a.message != nil {
			attached = append(attached, attachedMessage(w, a, i))
			continue
		}
		name := a.name
		if name == "" {
			name = fmt.Sprintf("attachment-%d%s", i+1, extensionOf(a.mimeType))
		}
		ctype := a.mimeType
		if _, _, err := mime.ParseMediaType(ctype); err != nil || !strings.Contains(ctype, "/") {
			ctype = typeOf(name)
		}
		isInline := a.cid != "" && m.html != nil && (a.hidden || bytes.Contains(m.html, []byte("cid:"+a.cid)))
		disp := "attachment"
		if isInline {
			disp = "inline"
		}
		p := mimePart{headers: []header{{"Content-Type", withName(ctype, name)}, {"Content-Transfer-Encoding", "base64"}, {"Content-Disposition", disposition(disp, name)}}}
		if a.cid != "" {
			p.headers = append(p.headers, header{"Content-ID", "<" + a.cid + ">"})
		}
		p.body = base64Lines(a.data)
		if isInline {
			inline = append(inline, p)
		} else {
			attached = append(attached, p)
		}
	}
	return inline, attached
}

// attachedMessage is an attached message (the i-th attachment) as a
// message/rfc822 part named after its subject.
func attachedMessage(w *writer, a attachment, i int) mimePart {
	name := a.name
	if name == "" {
		name = a.message.subject
	}
	if name == "" {
		name = fmt.Sprintf("message-%d", i+1)
	}
	if !strings.EqualFold(path.Ext(name), ".eml") {
		name += ".eml"
	}
	return mimePart{
		headers: []header{{"Content-Type", "message/rfc822"}, {"Content-Disposition", disposition("attachment", name)}},
		body:    a.message.renderWith(w, false),
	}
}

// multipartOf puts parts into one multipart/sub part, or gives the one part
// alone.
func multipartOf(w *writer, sub string, parts []mimePart) mimePart {
	if len(parts) == 1 {
		return parts[0]
	}
	b := w.boundary()
	var pieces [][]byte
	for _, p := range parts {
		head := "--" + b + "\r\n"
		for _, h := range p.headers {
			head += fold(h.name+": "+h.value) + "\r\n"
		}
		pieces = append(pieces, []byte(head+"\r\n"))
		if p.pieces != nil {
			pieces = append(pieces, p.pieces...)
		} else {
			pieces = append(pieces, p.body)
		}
		pieces = append(pieces, []byte("\r\n")) // the line break before a boundary is the boundary's
	}
	pieces = append(pieces, []byte("--"+b+"--\r\n"))
	return mimePart{headers: []header{{"Content-Type", "multipart/" + sub + `; boundary="` + b + `"`}}, pieces: pieces}
}

func normalizeNewlines(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func qp(b []byte) []byte {
	var buf bytes.Buffer
	w := quotedprintable.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// base64Lines encodes b in lines of 76 characters, into one buffer of
// the exact size: an attachment costs its encoding once.
func base64Lines(b []byte) []byte {
	const in = 57 // bytes per line of 76 characters
	lines := (len(b) + in - 1) / in
	out := make([]byte, 0, base64.StdEncoding.EncodedLen(len(b))+2*lines)
	for len(b) > 0 {
		n := min(in, len(b))
		out = base64.StdEncoding.AppendEncode(out, b[:n])
		out = append(out, '\r', '\n')
		b = b[n:]
	}
	return out
}

func disposition(kind, name string) string {
	return mime.FormatMediaType(kind, map[string]string{"filename": name})
}

func withName(ctype, name string) string {
	t, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		t, params = "application/octet-stream", map[string]string{}
	}
	params["name"] = name
	if s := mime.FormatMediaType(t, params); s != "" {
		return s
	}
	return t
}

// attachmentTypes name the types of attachments Outlook keeps without one,
// by extension (a fixed table: the same on every computer).
var attachmentTypes = map[string]string{
	".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
	".bmp": "image/bmp", ".tif": "image/tiff", ".tiff": "image/tiff", ".webp": "image/webp",
	".pdf": "application/pdf", ".txt": "text/plain", ".htm": "text/html", ".html": "text/html",
	".csv": "text/csv", ".rtf": "application/rtf", ".zip": "application/zip", ".xml": "application/xml",
	".doc": "application/msword", ".xls": "application/vnd.ms-excel", ".ppt": "application/vnd.ms-powerpoint",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	".eml":  "message/rfc822", ".msg": "application/vnd.ms-outlook", ".ics": "text/calendar",
	".mp3": "audio/mpeg", ".mp4": "video/mp4", ".wav": "audio/wav", ".json": "application/json",
}

func typeOf(name string) string {
	if t, ok := attachmentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

func extensionOf(mimeType string) string {
	for ext, t := range attachmentTypes {
		if t == mimeType && ext != ".jpeg" && ext != ".htm" && ext != ".tiff" {
			return ext
		}
	}
	return ""
}

// smimeEntity is the body of a signed or encrypted email (S/MIME), which
// Outlook keeps whole as the item's one attachment; nil for other items.
// Made again into parts, the signature would no longer match.
func (m *message) smimeEntity() []byte {
	if !strings.HasPrefix(strings.ToUpper(m.class), "IPM.NOTE.SMIME") || len(m.attachments) != 1 {
		return nil
	}
	a := m.attachments[0]
	if a.message != nil || len(a.data) == 0 {
		return nil
	}
	if e, err := mail.ReadMessage(bytes.NewReader(a.data)); err == nil {
		if t, _, err := mime.ParseMediaType(e.Header.Get("Content-Type")); err == nil && strings.HasPrefix(t, "multipart/signed") {
			return a.data // the signed entity, headers and all
		}
	}
	if strings.Contains(a.mimeType, "pkcs7-mime") || strings.EqualFold(path.Ext(a.name), ".p7m") {
		head := "Content-Type: application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m\r\n" +
			"Content-Transfer-Encoding: base64\r\nContent-Disposition: attachment; filename=smime.p7m\r\n\r\n"
		return append([]byte(head), base64Lines(a.data)...)
	}
	return nil
}
