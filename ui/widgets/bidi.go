package widgets

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/bidi"
)

// Fyne draws the runs of a text in logical order and does no bidirectional
// reordering, so a name such as "Invoice فاتورة 2026.pdf" comes out jumbled.
// This file puts a line of text into visual order with the Unicode
// Bidirectional Algorithm (UAX #9) for a left-to-right paragraph, the
// window's direction, and cuts it into pieces that Fyne can draw one after
// the other: left-to-right pieces in their order, and right-to-left pieces
// handed over in logical order with strong letters at both ends, which
// Fyne's shaper then lays out right to left as a single run.

// segment is one piece of a line in visual order.
type segment struct {
	text string
	rtl  bool // shaped right to left (a run of Arabic or Hebrew letters)
}

// visualSegments cuts text into pieces in the order they appear on screen,
// from left to right, in a left-to-right paragraph.
func visualSegments(text string) []segment {
	return paragraphSegments(text, false)
}

// paragraphSegments cuts text into pieces in the order they appear on
// screen, from left to right, in a paragraph of the given direction (the
// window's: right to left in Arabic, Persian and Hebrew). Invisible
// direction marks (LRM, RLM, ALM, isolates) steer the order and are not drawn.
func paragraphSegments(text string, rtlPara bool) []segment {
	seen(text)
	runes := []rune(text)
	if len(runes) == 0 {
		return nil
	}
	if !rtlPara && !hasRTL(runes) && !hasMarks(runes) {
		return []segment{{text: text}}
	}
	return levelSegments(runes, bidiLevels(runes, rtlPara))
}

// codeSegments cuts a line of code (JSON) into pieces in the order they
// appear on screen, from left to right: the line is a left-to-right
// paragraph, and each string in it is laid out on its own, in the direction
// of its first letter, so that quotes, colons and braces stay where they
// are written whatever the strings hold.
func codeSegments(text string) []segment {
	seen(text)
	runes := []rune(text)
	if len(runes) == 0 {
		return nil
	}
	return levelSegments(runes, codeLevels(runes))
}

// codeLevels resolves the levels of a line of code: the text of each
// string between its quotes is an isolate (as if between FSI and PDI).
func codeLevels(runes []rune) []uint8 {
	marked := make([]rune, 0, len(runes)+4)
	from := make([]int, 0, len(runes)) // where each of runes is in marked
	inside, escaped := false, false
	for _, r := range runes {
		switch {
		case inside && escaped:
			escaped = false
		case inside && r == '\\':
			escaped = true
		case r == '"' && inside:
			marked = append(marked, '\u2069') // PDI before the closing quote
			inside = false
		case r == '"':
			from = append(from, len(marked))
			marked = append(marked, r, '\u2068') // FSI after the opening quote
			inside = true
			continue
		}
		from = append(from, len(marked))
		marked = append(marked, r)
	}
	all := bidiLevels(marked, false)
	levels := make([]uint8, len(runes))
	for i, k := range from {
		levels[i] = all[k]
	}
	return levels
}

// levelSegments cuts runes whose levels are resolved into pieces in the
// order they appear on screen, from left to right.
func levelSegments(runes []rune, levels []uint8) []segment {
	order := visualOrder(levels)
	order = slices.DeleteFunc(order, func(k int) bool { return isDirectionMark(runes[k]) })
	if len(order) == 0 {
		return nil
	}

	var segs []segment
	for i := 0; i < len(order); {
		lv := levels[order[i]]
		j := i + 1
		for j < len(order) && levels[order[j]]%2 == lv%2 {
			j++
		}
		if lv%2 == 0 {
			var b strings.Builder
			for _, k := range order[i:j] {
				b.WriteRune(runes[k])
			}
			segs = append(segs, segment{text: b.String()})
		} else {
			segs = appendRTL(segs, runes, order[i:j])
		}
		i = j
	}
	return segs
}

// appendRTL adds the pieces of a right-to-left stretch whose characters are
// given in visual order (so their logical order is the reverse).
func appendRTL(segs []segment, runes []rune, visual []int) []segment {
	logical := slices.Clone(visual)
	slices.Reverse(logical)
	s := make([]rune, len(logical))
	for i, k := range logical {
		s[i] = runes[k]
	}
	first, last := -1, -1
	for i, r := range s {
		if isStrongRTL(r) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		// Only neutrals (spaces, punctuation) resolved right to left: draw them Mirrored.
		return append(segs, segment{text: mirrorReverse(string(s))})
	}
	// Marks that follow the last letter belong to it.
	for last+1 < len(s) && isMark(s[last+1]) {
		last++
	}
	if last+1 < len(s) {
		segs = append(segs, segment{text: mirrorReverse(string(s[last+1:]))})
	}
	segs = append(segs, segment{text: string(s[first : last+1]), rtl: true})
	if first > 0 {
		segs = append(segs, segment{text: mirrorReverse(string(s[:first]))})
	}
	return segs
}

// mirrorReverse reverses neutrals drawn right to left and gives each
// Mirrored character its mirror image: brackets (as x/text does) and the
// others a right-to-left reader sees turned, such as « » in «نام».
func mirrorReverse(s string) string {
	return strings.Map(func(r rune) rune {
		if m, ok := mirrors[r]; ok {
			return m
		}
		return r
	}, bidi.ReverseString(s))
}

// mirrors are the Mirrored characters x/text's ReverseString leaves as
// they are (it turns paired brackets only).
var mirrors = map[rune]rune{
	'«': '»', '»': '«', '‹': '›', '›': '‹', '<': '>', '>': '<', '≤': '≥', '≥': '≤',
}

// isDirectionMark reports whether r only steers the order of the text
// around it and has nothing to draw.
func isDirectionMark(r rune) bool {
	switch {
	case r == '\u200e', r == '\u200f', r == '\u061c': // LRM, RLM, ALM
		return true
	case r >= '\u202a' && r <= '\u202e': // embeddings and overrides
		return true
	case r >= '\u2066' && r <= '\u2069': // isolates
		return true
	}
	return false
}

func hasMarks(runes []rune) bool {
	return slices.ContainsFunc(runes, isDirectionMark)
}

func hasRTL(runes []rune) bool {
	for _, r := range runes {
		if isStrongRTL(r) {
			return true
		}
		if p, _ := bidi.LookupRune(r); p.Class() == bidi.AN {
			return true
		}
	}
	return false
}

func isStrongRTL(r rune) bool {
	p, _ := bidi.LookupRune(r)
	c := p.Class()
	return c == bidi.R || c == bidi.AL
}

func isMark(r rune) bool {
	p, _ := bidi.LookupRune(r)
	c := p.Class()
	return c == bidi.NSM || c == bidi.BN
}

// bidiLevels resolves the embedding level of every character of a single
// line in a paragraph of the given direction (UAX #9). Isolates (FSI, LRI,
// RLI … PDI), which Hoist's sentences put around file names, are resolved
// on their own and count as one neutral in the text around them, so
// "דוח 2026.eml" inside a Hebrew sentence keeps its order.
func bidiLevels(runes []rune, rtlPara bool) []uint8 {
	spans := isolates(runes)
	if len(spans) == 0 {
		return lineLevels(runes, rtlPara)
	}
	// The text around the isolates, each isolate one neutral character.
	var outer []rune
	at := make([]int, len(spans)) // each isolate's place in outer
	prev := 0
	for i, sp := range spans {
		outer = append(outer, runes[prev:sp.start]...)
		at[i] = len(outer)
		outer = append(outer, '\ufffc') // OBJECT REPLACEMENT CHARACTER: a neutral
		prev = sp.end + 1
	}
	outer = append(outer, runes[min(prev, len(runes)):]...)
	outerLevels := lineLevels(outer, rtlPara)

	levels := make([]uint8, len(runes))
	k, prev := 0, 0
	for i, sp := range spans {
		for j := prev; j < sp.start; j++ {
			levels[j] = outerLevels[k]
			k++
		}
		lv := outerLevels[at[i]]
		k++
		levels[sp.start] = lv
		if sp.end < len(runes) {
			levels[sp.end] = lv
		}
		inner := runes[sp.start+1 : min(sp.end, len(runes))]
		innerRTL := isolateRTL(runes[sp.start], inner)
		base := lv + 1 // the least level above lv of the isolate's direction
		if (base%2 == 1) != innerRTL {
			base++
		}
		var innerPara uint8
		if innerRTL {
			innerPara = 1
		}
		for j, l := range bidiLevels(inner, innerRTL) {
			levels[sp.start+1+j] = l - innerPara + base
		}
		prev = sp.end + 1
	}
	for j := prev; j < len(runes); j++ {
		levels[j] = outerLevels[k]
		k++
	}
	return levels
}

// span is an isolate: its initiator's index and its PDI's (len(runes) when
// the line ends first).
type span struct{ start, end int }

// isolates finds the outermost isolates of a line.
func isolates(runes []rune) []span {
	var spans []span
	depth, start := 0, 0
	for i, r := range runes {
		switch r {
		case '\u2066', '\u2067', '\u2068': // LRI, RLI, FSI
			if depth == 0 {
				start = i
			}
			depth++
		case '\u2069': // PDI
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				spans = append(spans, span{start, i})
			}
		}
	}
	if depth > 0 {
		spans = append(spans, span{start, len(runes)})
	}
	return spans
}

// isolateRTL is the direction of an isolate: RLI's right to left, LRI's
// left to right, FSI's that of its first strong letter.
func isolateRTL(initiator rune, inner []rune) bool {
	switch initiator {
	case '\u2067':
		return true
	case '\u2066':
		return false
	}
	for _, r := range inner {
		p, _ := bidi.LookupRune(r)
		switch p.Class() {
		case bidi.L:
			return false
		case bidi.R, bidi.AL:
			return true
		}
	}
	return false
}

// lineLevels resolves the levels of a line without isolates (rules W1–W7,
// N1–N2, I1–I2 and L1). Explicit embeddings are treated as boundary
// neutrals: file names and subjects do not use them to mean anything a
// reader would see.
func lineLevels(runes []rune, rtlPara bool) []uint8 {
	sos, para := bidi.L, uint8(0) // the paragraph's direction at both ends of the line
	if rtlPara {
		sos, para = bidi.R, 1
	}
	n := len(runes)
	types := make([]bidi.Class, n)
	orig := make([]bidi.Class, n)
	for i, r := range runes {
		p, _ := bidi.LookupRune(r)
		c := p.Class()
		switch c {
		case bidi.LRO, bidi.RLO, bidi.LRE, bidi.RLE, bidi.PDF, bidi.LRI, bidi.RLI, bidi.FSI, bidi.PDI, bidi.Control:
			c = bidi.BN
		}
		orig[i] = c
		types[i] = c
	}

	// W1: marks (and boundary neutrals) take the type of what precedes them.
	prev := sos
	for i, c := range types {
		if c == bidi.NSM || c == bidi.BN {
			types[i] = prev
			continue
		}
		prev = c
	}
	// W2, W3: European numbers after Arabic letters are Arabic numbers; AL is R.
	strong := sos
	for i, c := range types {
		switch c {
		case bidi.L, bidi.R, bidi.AL:
			strong = c
		case bidi.EN:
			if strong == bidi.AL {
				types[i] = bidi.AN
			}
		}
	}
	for i, c := range types {
		if c == bidi.AL {
			types[i] = bidi.R
		}
	}
	// W4: a single separator between two numbers of the same kind joins them.
	for i := 1; i+1 < n; i++ {
		a, c, b := types[i-1], types[i], types[i+1]
		switch {
		case c == bidi.ES && a == bidi.EN && b == bidi.EN:
			types[i] = bidi.EN
		case c == bidi.CS && a == bidi.EN && b == bidi.EN:
			types[i] = bidi.EN
		case c == bidi.CS && a == bidi.AN && b == bidi.AN:
			types[i] = bidi.AN
		}
	}
	// W5: terminators (%, $, #…) next to European numbers become numbers.
	for i := 0; i < n; {
		if types[i] != bidi.ET {
			i++
			continue
		}
		j := i
		for j < n && types[j] == bidi.ET {
			j++
		}
		if (i > 0 && types[i-1] == bidi.EN) || (j < n && types[j] == bidi.EN) {
			for k := i; k < j; k++ {
				types[k] = bidi.EN
			}
		}
		i = j
	}
	// W6: other separators and terminators are neutral.
	for i, c := range types {
		switch c {
		case bidi.ES, bidi.ET, bidi.CS:
			types[i] = bidi.ON
		}
	}
	// W7: European numbers in left-to-right context are left to right.
	strong = sos
	for i, c := range types {
		switch c {
		case bidi.L, bidi.R:
			strong = c
		case bidi.EN:
			if strong == bidi.L {
				types[i] = bidi.L
			}
		}
	}
	// N1, N2: neutrals between two of the same direction take it, others the paragraph's.
	dirOf := func(c bidi.Class) bidi.Class {
		switch c {
		case bidi.L:
			return bidi.L
		case bidi.R, bidi.EN, bidi.AN:
			return bidi.R
		}
		return bidi.ON
	}
	for i := 0; i < n; {
		if dirOf(types[i]) != bidi.ON {
			i++
			continue
		}
		j := i
		for j < n && dirOf(types[j]) == bidi.ON {
			j++
		}
		before, after := sos, sos // sos and eos of the line
		if i > 0 {
			before = dirOf(types[i-1])
		}
		if j < n {
			after = dirOf(types[j])
		}
		fill := sos // the embedding direction
		if before == after {
			fill = before
		}
		for k := i; k < j; k++ {
			types[k] = fill
		}
		i = j
	}
	// I1, I2: levels on a left-to-right paragraph (0) or a right-to-left one (1).
	levels := make([]uint8, n)
	for i, c := range types {
		switch {
		case para == 0 && c == bidi.R:
			levels[i] = 1
		case para == 0 && (c == bidi.EN || c == bidi.AN):
			levels[i] = 2
		case para == 1 && (c == bidi.L || c == bidi.EN || c == bidi.AN):
			levels[i] = 2
		default:
			levels[i] = para
		}
	}
	// L1: trailing white space goes back to the paragraph level.
	for i := n - 1; i >= 0; i-- {
		c := orig[i]
		if c != bidi.WS && c != bidi.S && c != bidi.BN && c != bidi.B {
			break
		}
		levels[i] = para
	}
	return levels
}

// visualOrder applies rule L2: from the highest level down to 1, every
// stretch at that level or higher is reversed. It returns logical indexes in
// visual order.
func visualOrder(levels []uint8) []int {
	order := make([]int, len(levels))
	var top uint8
	for i, l := range levels {
		order[i] = i
		top = max(top, l)
	}
	for lv := top; lv >= 1; lv-- {
		for i := 0; i < len(order); {
			if levels[order[i]] < lv {
				i++
				continue
			}
			j := i
			for j < len(order) && levels[order[j]] >= lv {
				j++
			}
			slices.Reverse(order[i:j])
			i = j
		}
	}
	return order
}

// Visual is a short text for the toolkit's own widgets (a button, a label,
// a choice, a dialog's title), which draw text as it is: in a right-to-left
// window it is put in the order it is seen, so "افزودن فایل…" ends with its
// ellipsis on the left and a product's name stays in its place.
func Visual(s string) string {
	seen(s)
	if !RightToLeft() && !hasMarks([]rune(s)) {
		return s
	}
	// The marks that isolate a name in a sentence steer the order and are
	// not drawn: the toolkit would draw them as boxes.
	segs := paragraphSegments(s, RightToLeft())
	switch len(segs) {
	case 0:
		return ""
	case 1:
		return segs[0].text
	}
	// The toolkit shapes each run of one script in its own direction, and
	// gives spaces and punctuation the direction of the letter before them:
	// an invisible left-to-right mark between the parts keeps each where it
	// is put.
	var b strings.Builder
	for i, sg := range segs {
		if i > 0 {
			b.WriteRune('\u200e')
		}
		b.WriteString(sg.text)
	}
	return b.String()
}

// HasRightToLeft reports whether s holds letters of a right-to-left script.
func HasRightToLeft(s string) bool { return hasRTL([]rune(s)) }

// Seen is text as a reader sees it, from left to right, in a paragraph of
// the given direction: each right-to-left run's letters in the order they
// stand on screen.
func Seen(text string, rightToLeft bool) string {
	var b strings.Builder
	for _, sg := range paragraphSegments(text, rightToLeft) {
		if sg.rtl {
			r := []rune(sg.text)
			slices.Reverse(r)
			b.WriteString(string(r))
		} else {
			b.WriteString(sg.text)
		}
	}
	return b.String()
}
