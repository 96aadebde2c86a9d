package outlook

import (
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/unicode"
)

// codepageNames are Windows code pages by the names mail and the web give
// them; htmlindex knows each name's encoding.
var codepageNames = map[int32]string{
	874: "windows-874", 932: "shift_jis", 936: "gbk", 949: "euc-kr", 950: "big5",
	1250: "windows-1250", 1251: "windows-1251", 1252: "windows-1252", 1253: "windows-1253",
	1254: "windows-1254", 1255: "windows-1255", 1256: "windows-1256", 1257: "windows-1257",
	1258: "windows-1258", 866: "ibm866", 10000: "macintosh", 20866: "koi8-r", 21866: "koi8-u",
	28591: "iso-8859-1", 28592: "iso-8859-2", 28593: "iso-8859-3", 28594: "iso-8859-4",
	28595: "iso-8859-5", 28596: "iso-8859-6", 28597: "iso-8859-7", 28598: "iso-8859-8",
	38598: "iso-8859-8-i", 28599: "iso-8859-9", 28603: "iso-8859-13", 28605: "iso-8859-15",
	50220: "iso-2022-jp", 50221: "iso-2022-jp", 50222: "iso-2022-jp", 51932: "euc-jp",
	51936: "gbk", 51949: "euc-kr", 52936: "gbk", 54936: "gb18030", 65001: "utf-8",
	20127: "us-ascii",
}

// localeCodepages are the ANSI code pages of the locales whose mail most
// often comes without a code page of its own (MS-LCID).
var localeCodepages = map[int32]int32{
	0x0401: 1256, 0x0801: 1256, 0x0c01: 1256, 0x1001: 1256, 0x1401: 1256, 0x1801: 1256,
	0x1c01: 1256, 0x2001: 1256, 0x2401: 1256, 0x2801: 1256, 0x2c01: 1256, 0x3001: 1256,
	0x3401: 1256, 0x3801: 1256, 0x3c01: 1256, 0x4001: 1256, // Arabic
	0x0429: 1256, // Persian
	0x040D: 1255, // Hebrew
	0x0420: 1256, // Urdu
	0x0409: 1252, 0x0809: 1252, 0x040C: 1252, 0x0407: 1252, 0x0410: 1252, 0x0C0A: 1252, 0x0413: 1252,
	0x0419: 1251, 0x0422: 1251, 0x0408: 1253, 0x041F: 1254, 0x0415: 1250, 0x0405: 1250, 0x040E: 1250,
	0x0411: 932, 0x0804: 936, 0x0412: 949, 0x0404: 950, 0x041E: 874,
}

// fallbackCodepage is for 8-bit text of a message that names no code page
// and no locale: Outlook's Western default, not Latin-1 (they differ in
// 0x80–0x9F, where Windows puts quotes and dashes).
var fallbackCodepage encoding.Encoding = charmap.Windows1252

// codepage is the encoding and MIME name of a Windows code page; nil, "" when unknown.
func codepage(cp int32) (encoding.Encoding, string) {
	if cp == 1200 {
		return unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), "utf-16le"
	}
	name, ok := codepageNames[cp]
	if !ok {
		return nil, ""
	}
	if name == "us-ascii" {
		return charmap.Windows1252, name
	}
	enc, err := htmlindex.Get(name)
	if err != nil {
		return nil, ""
	}
	return enc, name
}
