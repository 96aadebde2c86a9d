package outlook

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
)

// rtfKind says what a message's RTF was made from.
type rtfKind int

const (
	rtfOwn  rtfKind = iota // written as RTF: its formatting is its own
	rtfHTML                // HTML wrapped in RTF (MS-OXRTFEX \fromhtml1)
	rtfText                // plain text wrapped in RTF (\fromtext)
)

// kindOfRTF reads the RTF's header for \fromhtml1 or \fromtext.
func kindOfRTF(rtf []byte) rtfKind {
	head := rtf[:min(len(rtf), 1024)]
	if i := bytes.Index(head, []byte(`\fonttbl`)); i >= 0 {
		head = head[:i]
	}
	switch {
	case bytes.Contains(head, []byte(`\fromhtml1`)):
		return rtfHTML
	case bytes.Contains(head, []byte(`\fromtext`)):
		return rtfText
	}
	return rtfOwn
}

// fontCharsets are RTF's \fcharset numbers as Windows code pages.
var fontCharsets = map[int]int32{
	0: 1252, 128: 932, 129: 949, 134: 936, 136: 950, 161: 1253, 162: 1254, 163: 1258,
	177: 1255, 178: 1256, 180: 1256, 181: 1255, 186: 1257, 204: 1251, 222: 874, 238: 1250,
}

// destinations whose text is not the message's (tables of fonts and colours,
// pictures, field instructions…).
var skipped = map[string]bool{
	"fonttbl": true, "colortbl": true, "stylesheet": true, "info": true, "pict": true,
	"object": true, "header": true, "footer": true, "headerl": true, "headerr": true,
	"headerf": true, "footerl": true, "footerr": true, "footerf": true, "fldinst": true,
	"listtable": true, "listoverridetable": true, "rsidtbl": true, "generator": true,
	"xmlnstbl": true, "themedata": true, "colorschememapping": true, "latentstyles": true,
	"datastore": true, "filetbl": true, "revtbl": true, "pgdsctbl": true, "footnote": true,
	"mhtmltag": true, "bkmkstart": true, "bkmkend": true, "xe": true, "tc": true,
}

// symbols are control words that stand for one character.
var symbols = map[string]string{
	"tab": "\t", "emdash": "—", "endash": "–", "lquote": "‘", "rquote": "’",
	"ldblquote": "“", "rdblquote": "”", "bullet": "•", "emspace": "\u2003", "enspace": "\u2002",
	"qmspace": "\u2005", "zwj": "\u200d", "zwnj": "\u200c", "ltrmark": "\u200e", "rtlmark": "\u200f",
	"cell": "\t",
}

// rtfState is what a group sets and its end restores.
type rtfState struct {
	skip    bool // an ignored destination
	htmlrtf bool // RTF only: not part of the wrapped HTML
	htmltag bool // inside \*\htmltag: HTML to give back
	fonttbl bool // inside the font table
	uc      int  // characters to skip after \uN
	cp      encoding.Encoding
	star    bool // the group began with \*
	first   bool // nothing read in the group yet
}

// rtfReader turns RTF into its text, or the HTML it wraps.
type rtfReader struct {
	html    bool
	out     strings.Builder
	pending []byte // \'hh bytes not yet decoded
	pendCP  encoding.Encoding
	fonts   map[int]int32
	font    int // the font the font table is describing
	ansi    encoding.Encoding
	high    rune // a \uN that was the first half of a surrogate pair
}

// rtfToText gives the text of an RTF document.
func rtfToText(rtf []byte, fallback encoding.Encoding) string {
	return (&rtfReader{fonts: map[int]int32{}, ansi: fallback}).read(rtf)
}

// rtfToHTML gives back the HTML an RTF wraps (MS-OXRTFEX).
func rtfToHTML(rtf []byte, fallback encoding.Encoding) string {
	return (&rtfReader{html: true, fonts: map[int]int32{}, ansi: fallback}).read(rtf)
}

func (r *rtfReader) flush() {
	if len(r.pending) == 0 {
		return
	}
	enc := r.pendCP
	if enc == nil {
		enc = fallbackCodepage
	}
	s, err := enc.NewDecoder().Bytes(r.pending)
	if err != nil {
		s = r.pending
	}
	r.out.WriteString(strings.ToValidUTF8(string(s), "\uFFFD"))
	r.pending = r.pending[:0]
}

func (r *rtfReader) text(st *rtfState, s string) {
	if r.visible(st) {
		r.flush()
		r.out.WriteString(s)
	}
}

func (r *rtfReader) visible(st *rtfState) bool {
	if st.skip || st.fonttbl {
		return false
	}
	if r.html {
		return st.htmltag || !st.htmlrtf
	}
	return true
}

func (r *rtfReader) read(rtf []byte) string {
	st := rtfState{uc: 1, cp: r.ansi, first: true}
	var stack []rtfState
	skipChars := 0 // characters still to skip after \uN
	for i := 0; i < len(rtf); {
		c := rtf[i]
		switch c {
		case '{':
			if len(stack) > 1000 {
				return r.finish() // nesting no document needs
			}
			stack = append(stack, st)
			st.first, st.star = true, false
			skipChars = 0
			i++
			continue
		case '}':
			if len(stack) == 0 {
				i++
				continue
			}
			st = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			skipChars = 0
			i++
			continue
		case '\r', '\n':
			i++
			continue
		case '\\':
			i = r.control(rtf, i, &st, &skipChars)
			continue
		}
		st.first = false
		if skipChars > 0 {
			skipChars--
			i++
			continue
		}
		// A run of plain text.
		j := i
		for j < len(rtf) && rtf[j] != '{' && rtf[j] != '}' && rtf[j] != '\\' && rtf[j] != '\r' && rtf[j] != '\n' {
			j++
		}
		if r.visible(&st) {
			r.addBytes(&st, rtf[i:j])
		}
		i = j
	}
	return r.finish()
}

func (r *rtfReader) finish() string {
	r.flush()
	return r.out.String()
}

// addBytes adds text in the group's code page.
func (r *rtfReader) addBytes(st *rtfState, b []byte) {
	if utf8.Valid(b) && isASCII(b) {
		r.flush()
		r.out.Write(b)
		return
	}
	if len(r.pending) > 0 && r.pendCP != st.cp {
		r.flush()
	}
	r.pendCP = st.cp
	r.pending = append(r.pending, b...)
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// control reads the control word or symbol at rtf[i] ('\\') and returns where reading goes on.
func (r *rtfReader) control(rtf []byte, i int, st *rtfState, skipChars *int) int {
	i++
	if i >= len(rtf) {
		return i
	}
	c := rtf[i]
	first := st.first
	st.first = false
	if !isLetter(c) {
		i++
		switch c {
		case '\'':
			if i+2 > len(rtf) {
				return len(rtf)
			}
			v, ok := hexByte(rtf[i], rtf[i+1])
			i += 2
			if !ok {
				return i
			}
			if *skipChars > 0 {
				*skipChars--
				return i
			}
			if r.visible(st) {
				r.addBytes(st, []byte{v})
			}
		case '*':
			st.star = first || st.star
			st.first = first // the destination's name still comes first
			if first {
				st.first = true
			}
		case '\\', '{', '}':
			if *skipChars > 0 {
				*skipChars--
				return i
			}
			r.text(st, string(c))
		case '~':
			r.text(st, "\u00a0")
		case '_':
			r.text(st, "\u2011")
		case '\r', '\n':
			r.text(st, "\r\n")
		}
		return i
	}
	j := i
	for j < len(rtf) && isLetter(rtf[j]) && j-i < 32 {
		j++
	}
	word := string(rtf[i:j])
	num, hasNum := 0, false
	neg := false
	if j < len(rtf) && rtf[j] == '-' {
		neg = true
		j++
	}
	k := j
	for k < len(rtf) && rtf[k] >= '0' && rtf[k] <= '9' && k-j < 10 {
		num = num*10 + int(rtf[k]-'0')
		k++
	}
	hasNum = k > j
	if neg {
		num = -num
	}
	if !hasNum && neg {
		k = j - 1
	}
	if k < len(rtf) && rtf[k] == ' ' {
		k++
	}
	next := k
	if word == "bin" && hasNum {
		if num > 0 {
			next = min(len(rtf), k+num)
		}
		return next
	}
	r.word(word, num, hasNum, st, first, skipChars)
	return next
}

// word acts on a control word.
func (r *rtfReader) word(word string, num int, hasNum bool, st *rtfState, first bool, skipChars *int) {
	if first || st.star {
		// The group's destination.
		switch {
		case word == "htmltag" && r.html:
			st.htmltag = true
			st.star = false
			return
		case word == "fonttbl":
			st.fonttbl = true
			return
		case skipped[word]:
			st.skip = true
			return
		case st.star && first:
			st.skip = true // an optional destination Hoist does not know
			return
		}
		st.star = false
	}
	switch word {
	case "ansicpg":
		if enc, _ := codepage(int32(num)); enc != nil {
			r.ansi = enc
			st.cp = enc
		}
	case "f":
		if st.fonttbl {
			r.font = num
			return
		}
		if cp, ok := r.fonts[num]; ok {
			if enc, _ := codepage(cp); enc != nil {
				st.cp = enc
			}
		} else {
			st.cp = r.ansi
		}
	case "fcharset":
		if st.fonttbl {
			if cp, ok := fontCharsets[num]; ok {
				r.fonts[r.font] = cp
			}
		}
	case "htmlrtf":
		st.htmlrtf = !hasNum || num != 0
	case "uc":
		if num >= 0 && num < 10 {
			st.uc = num
		}
	case "u":
		if num < 0 {
			num += 65536
		}
		*skipChars = st.uc
		switch c := rune(num); {
		case utf16.IsSurrogate(c) && c < 0xDC00:
			r.high = c // the first half of a character beyond the BMP (an emoji)
			return
		case utf16.IsSurrogate(c) && r.high != 0:
			c = utf16.DecodeRune(r.high, c)
			r.high = 0
			r.text(st, string(c))
			return
		}
		r.high = 0
		r.text(st, string(rune(num)))
	case "par", "line", "sect", "page", "row":
		r.text(st, "\r\n")
	default:
		if s, ok := symbols[word]; ok {
			r.text(st, s)
		}
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func hexByte(a, b byte) (byte, bool) {
	x, ok1 := hexDigit(a)
	y, ok2 := hexDigit(b)
	return x<<4 | y, ok1 && ok2
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
