//go:build ignore

// Generate writes the golden email files of this folder.
//
//	go run ./testdata/eml/generate.go            # rewrite the small golden files here
//	go run ./testdata/eml/generate.go -large F   # also write a ~40 MB email to F
//
// The large file is made at test time and never checked in.
package main

import (
	"bytes"
	"encoding/base64"
	"flag"
	"image"
	"image/color"
	"image/png"
	"log"
	"mime"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

func main() {
	dir := flag.String("dir", "testdata/eml", "folder to write the golden files to")
	large := flag.String("large", "", "also write a large email (~40 MB) to this path")
	size := flag.Int64("large-size", 40_000_000, "size of the large email in bytes")
	flag.Parse()

	for name, body := range golden() {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(body), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	if *large != "" {
		if err := writeLarge(*large, *size); err != nil {
			log.Fatal(err)
		}
	}
}

const date = "Tue, 03 Mar 2026 09:15:00 +0200"

// crlf turns the LF line ends of a literal into the CRLF that email uses.
func crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }

// encode8bit encodes s in a single-byte charset as an RFC 2047 word.
func encode8bit(cm *charmap.Charmap, name string, s string) string {
	b, err := cm.NewEncoder().String(s)
	if err != nil {
		log.Fatalf("encoding %q in %s: %v", s, name, err)
	}
	return mime.BEncoding.Encode(name, b)
}

func golden() map[string]string {
	all := map[string]string{
		"plain-ascii.eml": crlf(`Return-Path: <alice@example.com>
Received: from mail.example.com (mail.example.com [192.0.2.10])
	by mx.example.org with ESMTPS id abc123
	for <bob@example.org>; Tue, 03 Mar 2026 09:15:02 +0200
From: Alice Example <alice@example.com>
To: Bob Example <bob@example.org>
Subject: Quarterly numbers
Date: ` + date + `
Message-ID: <plain-ascii-1@example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=us-ascii
Content-Transfer-Encoding: 7bit

Hi Bob,

The quarterly numbers are attached to the shared drive.

Alice
`),
		"alternative-html.eml": crlf(`From: "Newsletter Team" <news@example.com>
To: reader@example.org
Subject: March newsletter: what's new
Date: Wed, 04 Mar 2026 18:00:00 +0000
Message-ID: <alt-html-1@example.com>
MIME-Version: 1.0
Content-Type: multipart/alternative; boundary="alt-boundary-42"

--alt-boundary-42
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: quoted-printable

What's new this month: faster uploads and a sandbox to try them.

--alt-boundary-42
Content-Type: text/html; charset=utf-8
Content-Transfer-Encoding: quoted-printable

<html><body><h1>What's new</h1><p>Faster uploads and a <b>sandbox</b> =
to try them.</p></body></html>

--alt-boundary-42--
`),
		"attachment-png.eml": crlf(`From: carol@example.com
To: Dan <dan@example.org>
Subject: Logo for the campaign
Date: Thu, 05 Mar 2026 11:30:45 -0500
Message-ID: <mixed-png-1@example.com>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="mixed-7f3a"

--mixed-7f3a
Content-Type: text/plain; charset=us-ascii

Here is the logo, 16 by 16 pixels.

--mixed-7f3a
Content-Type: image/png; name="logo.png"
Content-Disposition: attachment; filename="logo.png"
Content-Transfer-Encoding: base64

` + smallPNG() + `
--mixed-7f3a--
`),
		// A mailbox separator line on top and raw UTF-8 headers (RFC 6532), as some exporters write.
		"mbox-raw-utf8.eml": crlf(`From yossi@example.co.il Sat Feb 28 12:00:00 2026
From: יוסי לוי <yossi@example.co.il>
To: team@example.org
Subject: סיכום פגישה
Date: Sat, 28 Feb 2026 12:00:00 +0200
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

סיכום הפגישה של היום.
`),
		// Plain text notes that someone saved with an .eml name.
		"not-an-email.eml": `Meeting notes, 3 March

- send the campaign report
- upload the new icons
- ask about the sandbox
`,
	}
	for name, text := range inOtherScripts() {
		all[name] = text
	}
	return all
}

// inOtherScripts are emails in Arabic, Persian and Hebrew, in the encodings
// and code pages mail programs write them in.
func inOtherScripts() map[string]string {
	utf8B := func(s string) string { return mime.BEncoding.Encode("UTF-8", s) }
	utf8Q := func(s string) string { return mime.QEncoding.Encode("UTF-8", s) }
	return map[string]string{
		// Arabic, UTF-8, base64 words; the file name itself is Arabic with underscores.
		"تقرير_الحملة_2026.eml": crlf(`From: ` + utf8B("فريق الحملة") + ` <campaign@example.com>
To: team@example.org
Subject: ` + utf8B("تقرير الحملة النهائي لعام 2026") + `
Date: Sun, 01 Mar 2026 08:00:00 +0300
Message-ID: <arabic-utf8-1@example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

مرحبا، هذا هو التقرير النهائي للحملة.
`),
		// Persian, UTF-8, quoted-printable words, a subject folded over two lines.
		"گزارش نهایی.eml": crlf(`From: ` + utf8Q("مریم رضایی") + ` <maryam@example.ir>
To: office@example.org
Subject: ` + utf8Q("گزارش نهایی ") + `
 ` + utf8Q("پروژه") + `
Date: Mon, 02 Mar 2026 10:20:30 +0330
Message-ID: <persian-utf8-1@example.ir>
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8
Content-Transfer-Encoding: 8bit

سلام، گزارش نهایی پروژه پیوست است.
`),
		// Hebrew in ISO-8859-8, base64 words.
		"דוח שנתי.eml": crlf(`From: ` + encode8bit(charmap.ISO8859_8, "ISO-8859-8", "דנה כהן") + ` <dana@example.co.il>
To: finance@example.org
Subject: ` + encode8bit(charmap.ISO8859_8, "ISO-8859-8", "דוח שנתי 2025") + `
Date: Thu, 26 Feb 2026 14:45:00 +0200
Message-ID: <hebrew-8859-8-1@example.co.il>
MIME-Version: 1.0
Content-Type: text/plain; charset=ISO-8859-8

` + mustEncode(charmap.ISO8859_8, "שלום, הדוח השנתי מצורף.") + `
`),
		// Arabic in windows-1256, as older Outlook versions write it.
		"arabic-windows-1256.eml": crlf(`From: ` + encode8bit(charmap.Windows1256, "windows-1256", "أحمد علي") + ` <ahmed@example.com>
To: sales@example.org
Subject: ` + encode8bit(charmap.Windows1256, "windows-1256", "فاتورة شهر مارس") + `
Date: Fri, 27 Feb 2026 16:05:00 +0300
Message-ID: <arabic-1256-1@example.com>
MIME-Version: 1.0
Content-Type: text/plain; charset=windows-1256

` + mustEncode(charmap.Windows1256, "مرفق فاتورة شهر مارس.") + `
`),
	}
}

func mustEncode(cm *charmap.Charmap, s string) string {
	b, err := cm.NewEncoder().String(s)
	if err != nil {
		log.Fatal(err)
	}
	return b
}

// smallPNG is a 16×16 two-colour image, base64 in lines of 76 characters.
func smallPNG() string {
	img := image.NewPaletted(image.Rect(0, 0, 16, 16), color.Palette{color.White, color.RGBA{0x1a, 0x73, 0xe8, 0xff}})
	for y := 4; y < 12; y++ {
		for x := 4; x < 12; x++ {
			img.SetColorIndex(x, y, 1)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		log.Fatal(err)
	}
	return wrap76(base64.StdEncoding.EncodeToString(buf.Bytes()))
}

func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}

// writeLarge writes an email with a base64 attachment so the file is about size bytes.
func writeLarge(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := crlf(`From: Big Sender <big@example.com>
To: archive@example.org
Subject: Scanned contracts (large)
Date: ` + date + `
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="big-boundary"

--big-boundary
Content-Type: application/pdf; name="contracts.pdf"
Content-Disposition: attachment; filename="contracts.pdf"
Content-Transfer-Encoding: base64

`)
	tail := crlf("--big-boundary--\n")
	if _, err := f.WriteString(head); err != nil {
		return err
	}
	line := strings.Repeat("QUJDRA", 12) + "QUJD\r\n" // 76 characters of base64 and CRLF
	left := size - int64(len(head)) - int64(len(tail))
	var block strings.Builder
	for range 1024 {
		block.WriteString(line)
	}
	for left >= int64(block.Len()) {
		if _, err := f.WriteString(block.String()); err != nil {
			return err
		}
		left -= int64(block.Len())
	}
	for left >= int64(len(line)) {
		if _, err := f.WriteString(line); err != nil {
			return err
		}
		left -= int64(len(line))
	}
	if _, err := f.WriteString(tail); err != nil {
		return err
	}
	// What is left goes after the closing boundary, where readers ignore it.
	if _, err := f.WriteString(strings.Repeat(" ", int(left))); err != nil {
		return err
	}
	return f.Close()
}
