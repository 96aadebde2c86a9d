package outlook

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"hoist/internal/msgfile"
)

// refereeDifferences are the fields in which msgconvert's email differs
// from Hoist's, for each fixture; docs/outlook.md says why for each.
// A field listed here that no longer differs fails too, so the page stays true.
var refereeDifferences = map[string][]string{
	"arabic-1256.msg":        {"files"},                     // msgconvert reads 8-bit attachment names as Latin-1
	"hebrew-1255.msg":        {"files", "body"},             // the same, and it decodes text only by PidTagInternetCodepage
	"exchange-addresses.msg": {"from", "cc"},                // msgconvert writes X.500 addresses Gmail refuses
	"rtf-html.msg":           {"html", "rtf", "files"},      // msgconvert keeps the RTF and does not unwrap its HTML
	"rtf-only.msg":           {"body", "files"},             // msgconvert gives no text, and the RTF as a body part without a name
	"draft-no-id.msg":        {"date", "message-id", "bcc"}, // msgconvert dates a draft now, gives it no Message-ID and drops Bcc
	"attached-messages.msg":  {"attached"},
	"signed.msg":             {"files"}, // msgconvert makes the signed body an attachment whose type lost its boundary                  // msgconvert names no attached message
}

// refereeFails are the fixtures msgconvert cannot convert at all.
var refereeFails = map[string]bool{
	"persian-1256.msg": true, // 8-bit text without PidTagInternetCodepage: it dies on U+FFFD
}

// refereeCodepages are the code pages of the fixtures' 8-bit text, which
// msgconvert copies into headers as raw bytes.
var refereeCodepages = map[string]*charmap.Charmap{
	"arabic-1256.msg": charmap.Windows1256, "persian-1256.msg": charmap.Windows1256,
	"hebrew-1255.msg": charmap.Windows1255, "western-1252.msg": charmap.Windows1252,
}

// TestRefereeMsgconvert converts every fixture with Debian's msgconvert too
// and compares what each says: Subject, Date, Message-ID, the addresses,
// the text and each attachment's name and bytes.
func TestRefereeMsgconvert(t *testing.T) {
	tool, err := exec.LookPath("msgconvert")
	if err != nil {
		t.Fatalf("msgconvert (Debian's libemail-outlook-message-perl, the referee) is not installed: %v; make deps installs it", err)
	}
	dir := t.TempDir()
	for name, m := range msgfile.Fixtures() {
		if msgfile.NotEmails[name] != "" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			in := filepath.Join(dir, name)
			b := m.Bytes()
			if err := os.WriteFile(in, b, 0o644); err != nil {
				t.Fatal(err)
			}
			ours, err := Convert(bytes.NewReader(b), int64(len(b)), Limits{})
			if err != nil {
				t.Fatal(err)
			}
			out := in + ".referee.eml"
			cmd := exec.Command(tool, "--outfile", out, in)
			msg, err := cmd.CombinedOutput()
			if refereeFails[name] {
				if err == nil {
					t.Errorf("msgconvert converts %s now; compare it and update docs/outlook.md", name)
				}
				return
			}
			if err != nil {
				t.Fatalf("msgconvert: %v\n%s", err, msg)
			}
			theirs, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			cp := refereeCodepages[name]
			a, b2 := summarize(t, ours, cp), summarize(t, theirs, cp)
			allowed := refereeDifferences[name]
			for _, field := range slices.Sorted(maps.Keys(a)) {
				differ := a[field] != b2[field]
				switch {
				case differ && !slices.Contains(allowed, field):
					t.Errorf("%s differs:\n hoist:      %q\n msgconvert: %q", field, a[field], b2[field])
				case !differ && slices.Contains(allowed, field):
					t.Errorf("%s no longer differs (%q); update refereeDifferences and docs/outlook.md", field, a[field])
				}
			}
		})
	}
}

// summarize reads an email into the fields the referee compares.
func summarize(t *testing.T, b []byte, cp *charmap.Charmap) map[string]string {
	t.Helper()
	p := parseEmail(t, b)
	raw := func(s string) string {
		if !utf8.ValidString(s) && cp != nil {
			if d, err := cp.NewDecoder().String(s); err == nil {
				return d
			}
		}
		return s
	}
	s := map[string]string{}
	s["subject"] = raw(p.subject)
	if d, err := mail.ParseDate(p.header.Get("Date")); err == nil {
		s["date"] = d.UTC().Format(time.RFC3339)
	} else {
		s["date"] = "unreadable: " + p.header.Get("Date")
	}
	s["message-id"] = p.header.Get("Message-ID")
	for _, key := range []string{"From", "To", "Cc", "Bcc"} {
		s[strings.ToLower(key)] = addressList(raw(p.header.Get(key)))
	}
	s["body"] = strings.TrimSpace(strings.ReplaceAll(strings.Join(p.plain, "\n"), "\r\n", "\n"))
	s["html"] = strings.TrimSpace(strings.ReplaceAll(strings.Join(p.html, "\n"), "\r\n", "\n"))
	var files, rtf, attached []string
	for _, f := range p.files {
		switch {
		case f.message != nil:
			inner := summarize(t, f.data, cp)
			attached = append(attached, fmt.Sprintf("%s: %s / %s / %s / %s", f.name, inner["subject"], inner["message-id"], inner["body"], inner["files"]))
		case f.ctype == "application/rtf":
			// RTF readers skip line breaks; msgconvert's dictionary has
			// them the other way round (see docs/outlook.md).
			sum := sha256.Sum256(bytes.NewBuffer(bytes.Map(func(r rune) rune {
				if r == '\r' || r == '\n' {
					return -1
				}
				return r
			}, f.data)).Bytes())
			rtf = append(rtf, hex.EncodeToString(sum[:8]))
			files = append(files, f.name+" (rtf)")
		default:
			sum := sha256.Sum256(f.data)
			files = append(files, f.name+" "+hex.EncodeToString(sum[:8]))
		}
	}
	s["files"] = strings.Join(files, ", ")
	s["rtf"] = strings.Join(rtf, ", ")
	s["attached"] = strings.Join(attached, "\n")
	return s
}

// addressList writes a header's addresses one way whoever wrote them:
// "name <address>" with the name decoded, and a name alone as itself.
func addressList(v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	list, err := (&mail.AddressParser{WordDecoder: decoder}).ParseList(v)
	if err != nil {
		return "unreadable: " + v
	}
	var out []string
	for _, a := range list {
		out = append(out, a.Name+" <"+strings.ToLower(a.Address)+">")
	}
	return strings.Join(out, ", ")
}
