package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/mail"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
)

// errNoEmailHeaders: a header block that has none of From, Date and Subject.
var errNoEmailHeaders = errors.New("no From, Date or Subject header")

// words decodes RFC 2047 encoded words in any charset the web knows.
var words = &mime.WordDecoder{CharsetReader: charsetReader}

func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	enc, err := lookupCharset(charset)
	if err != nil {
		return nil, err
	}
	return enc.NewDecoder().Reader(input), nil
}

func lookupCharset(charset string) (encoding.Encoding, error) {
	if enc, err := htmlindex.Get(charset); err == nil {
		return enc, nil
	}
	if enc, err := ianaindex.MIME.Encoding(charset); err == nil && enc != nil {
		return enc, nil
	}
	return nil, fmt.Errorf("unknown character set %q", charset)
}

// parseEmail reads the header block at the start of an email file. With
// truncated, head is only the beginning of a longer file.
func parseEmail(head []byte, truncated bool) (*Email, error) {
	b := bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	if truncated {
		// Parse whole lines only: a line cut in the middle is not a header.
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			b = b[:i+1]
		}
	}
	// Some programs keep the mailbox separator line ("From sender date") on top.
	if bytes.HasPrefix(b, []byte("From ")) {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	msg, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	h := msg.Header
	if h.Get("From") == "" && h.Get("Date") == "" && h.Get("Subject") == "" {
		return nil, errNoEmailHeaders
	}
	charset := ""
	if _, params, err := mime.ParseMediaType(h.Get("Content-Type")); err == nil {
		charset = params["charset"]
	}
	e := &Email{
		From:      decodeFrom(raw8bit(h.Get("From"), charset)),
		Subject:   tidy(decodeWords(raw8bit(h.Get("Subject"), charset))),
		MessageID: strings.TrimSpace(h.Get("Message-Id")),
	}
	if d := h.Get("Date"); d != "" {
		if t, err := mail.ParseDate(d); err == nil {
			e.Date = t
		}
	}
	return e, nil
}

// raw8bit makes a header value valid UTF-8. Headers should be ASCII with
// encoded words, but some mailers write raw bytes in the body's charset.
func raw8bit(v, charset string) string {
	if utf8.ValidString(v) {
		return v
	}
	if charset != "" {
		if enc, err := lookupCharset(charset); err == nil {
			if s, err := enc.NewDecoder().String(v); err == nil {
				return s
			}
		}
	}
	return strings.ToValidUTF8(v, "\uFFFD")
}

func decodeWords(v string) string {
	if s, err := words.DecodeHeader(v); err == nil {
		return s
	}
	return v
}

// decodeFrom gives the sender(s) as "Name <address>", decoded for reading.
func decodeFrom(v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	parser := mail.AddressParser{WordDecoder: words}
	list, err := parser.ParseList(v)
	if err != nil || len(list) == 0 {
		return tidy(decodeWords(v))
	}
	parts := make([]string, 0, len(list))
	for _, a := range list {
		name := tidy(a.Name)
		if name == "" || name == a.Address {
			parts = append(parts, a.Address)
			continue
		}
		parts = append(parts, name+" <"+a.Address+">")
	}
	return strings.Join(parts, ", ")
}

// tidy collapses runs of white space and drops control characters.
func tidy(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.IsControl(r):
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}
