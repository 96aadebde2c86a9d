package outlook

import (
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"

	"golang.org/x/text/encoding/htmlindex"
)

// parsed is what a test reads of an email: its headers decoded, its texts
// and its attachments, walked through every part.
type parsed struct {
	header      mail.Header
	subject     string
	plain, html []string
	files       []file
	parts       []string // every leaf part's content type, in order
}

type file struct {
	name, ctype, cid, disposition string
	data                          []byte
	message                       *parsed // a message/rfc822 part, read too
}

var decoder = &mime.WordDecoder{CharsetReader: func(charset string, r io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(charset)
	if err != nil {
		return nil, err
	}
	return enc.NewDecoder().Reader(r), nil
}}

func parseEmail(t *testing.T, b []byte) *parsed {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not an email: %v\n%s", err, b)
	}
	p := &parsed{header: m.Header}
	p.subject, err = decoder.DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		t.Errorf("subject %q: %v", m.Header.Get("Subject"), err)
	}
	body, _ := io.ReadAll(m.Body)
	p.walk(t, textproto(m.Header), body)
	return p
}

type textproto map[string][]string

func (h textproto) Get(k string) string {
	v := mail.Header(h).Get(k)
	return v
}

func (p *parsed) walk(t *testing.T, h textproto, body []byte) {
	t.Helper()
	ctype := h.Get("Content-Type")
	if ctype == "" {
		ctype = "text/plain"
	}
	mt, params, err := mime.ParseMediaType(ctype)
	if err != nil {
		t.Errorf("content type %q: %v", ctype, err)
		return
	}
	if strings.HasPrefix(mt, "multipart/") && params["boundary"] != "" { // without one, a part to read as it is
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			part, err := r.NextRawPart()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Errorf("multipart: %v", err)
				return
			}
			b, _ := io.ReadAll(part)
			p.walk(t, textproto(part.Header), b)
		}
	}
	p.parts = append(p.parts, mt)
	var data []byte
	switch strings.ToLower(h.Get("Content-Transfer-Encoding")) {
	case "base64":
		data, err = base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(body)), ""))
		if err != nil {
			t.Errorf("base64: %v", err)
		}
	case "quoted-printable":
		data, err = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
		if err != nil {
			t.Errorf("quoted-printable: %v", err)
		}
	default:
		data = body
	}
	disp, dparams, _ := mime.ParseMediaType(h.Get("Content-Disposition"))
	name := dparams["filename"]
	if name == "" {
		name = params["name"]
	}
	if n, err := decoder.DecodeHeader(name); err == nil {
		name = n
	}
	if name == "" && mt == "message/rfc822" {
		name = "(message)"
	}
	if (mt == "text/plain" || mt == "text/html") && disp != "attachment" && name == "" {
		text := string(data)
		if cs := params["charset"]; cs != "" {
			if enc, err := htmlindex.Get(cs); err == nil {
				if s, err := enc.NewDecoder().Bytes(data); err == nil {
					text = string(s)
				}
			}
		}
		if mt == "text/plain" {
			p.plain = append(p.plain, text)
		} else {
			p.html = append(p.html, text)
		}
		return
	}
	f := file{name: name, ctype: mt, cid: h.Get("Content-ID"), disposition: disp, data: data}
	if mt == "message/rfc822" {
		f.message = parseEmail(t, data)
	}
	p.files = append(p.files, f)
}

// addresses are a header's addresses, as "name <addr>" with the name decoded.
func (p *parsed) addresses(t *testing.T, key string) []string {
	t.Helper()
	v := p.header.Get(key)
	if v == "" {
		return nil
	}
	list, err := (&mail.AddressParser{WordDecoder: decoder}).ParseList(v)
	if err != nil {
		t.Errorf("%s %q: %v", key, v, err)
		return nil
	}
	var out []string
	for _, a := range list {
		out = append(out, a.Name+" <"+a.Address+">")
	}
	return out
}
