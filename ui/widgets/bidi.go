package widgets

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/bidi"
)

// Fyne draws the runs of a text in logical order and does no bidirectional
// reordering, so a name such as "Invoice فاتورة 2026.pdf" comes out jumbled.
// This file puts a line of text into visual order with the Unicode
// Bidirectional Algorithm (UAX #9) for a left-to-right paragraph, the
// window's direction, and cuts it into pieces that Fyne can draw one after
// the other: left-to-right pieces in their order, and right-to-left pieces
// handed over in logical order, each of one level and one script with
// strong letters at both ends, which Fyne's shaper then lays out right to
// left as a single run. The levels are the standard's (uba.go).

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

// wrappedSegments cuts each line of a text wrapped into lines (spans of
// its parts between line breaks) into pieces in the order they appear on
// screen, as the standard says: the levels are resolved over the whole
// paragraph, so a name isolated in a sentence stays isolated on both
// lines it is cut across, and each line is put in order on its own.
func wrappedSegments(parts [][]rune, spans []lineSpan, rtlPara bool) [][]segment {
	dir := paraLTR
	if rtlPara {
		dir = paraRTL
	}
	out := make([][]segment, len(spans))
	var t ubaText
	var res resolved
	resolvedPart := -1
	for i, sp := range spans {
		part := parts[sp.part]
		runes := part[sp.from:sp.to]
		seen(string(runes))
		switch {
		case len(runes) == 0:
			continue
		case !rtlPara && !hasRTL(part) && !hasMarks(part):
			out[i] = []segment{{text: string(runes)}}
			continue
		case sp.part != resolvedPart:
			t = ubaText{classes: classesOf(part), runes: part}
			res, resolvedPart = t.resolve(dir), sp.part
		}
		out[i] = levelSegments(runes, t.line(res, sp.from, sp.to))
	}
	return out
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
// order they appear on screen, from left to right. A piece drawn right to
// left holds one level and letters of one script: the toolkit's
// shaper cuts a text where its script changes and puts the parts side by
// side from the left, so a Hebrew name in a Persian sentence handed over in
// one piece would come out on the wrong side of the Persian words.
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
		// Left-to-right pieces of several levels (a year beside a Latin
		// word) are drawn from the left in the order given, as they are
		// seen; a right-to-left piece is turned round as one, so it holds
		// one level.
		for j < len(order) && levels[order[j]]%2 == lv%2 && (lv%2 == 0 || levels[order[j]] == lv) {
			j++
		}
		if lv%2 == 0 {
			// A right-to-left letter drawn left to right (under an override)
			// is a piece of its own: the toolkit would turn a run of them round.
			var b strings.Builder
			for _, k := range order[i:j] {
				if isStrongRTL(runes[k]) {
					if b.Len() > 0 {
						segs = append(segs, segment{text: b.String()})
						b.Reset()
					}
					segs = append(segs, segment{text: string(runes[k])})
					continue
				}
				b.WriteRune(runes[k])
			}
			if b.Len() > 0 {
				segs = append(segs, segment{text: b.String()})
			}
		} else {
			segs = appendRTL(segs, runes, order[i:j])
		}
		i = j
	}
	return segs
}

// appendRTL adds the pieces of a right-to-left stretch whose characters are
// given in visual order (so their logical order is the reverse): each run
// of right-to-left letters of one script, with the spaces and punctuation
// between them, is a piece the toolkit shapes right to left; what stands
// between runs of two scripts, or before the first or after the last, is
// a piece of its own, drawn turned round. The pieces are placed from the
// right in their logical order, so from the left in the reverse.
func appendRTL(segs []segment, runes []rune, visual []int) []segment {
	s := make([]rune, len(visual))
	for i, k := range visual {
		s[len(visual)-1-i] = runes[k]
	}
	var pieces []segment // in logical order
	neutral := func(from, to int) {
		if from < to {
			pieces = append(pieces, segment{text: mirrorReverse(string(s[from:to]))})
		}
	}
	start := 0 // where the text not yet in a piece starts
	for i := 0; i < len(s); {
		if !isStrongRTL(s[i]) {
			i++
			continue
		}
		script := scriptOf(s[i])
		last := i // the last letter of the run
		for j := i + 1; j < len(s); j++ {
			sc := scriptOf(s[j])
			if sc != "" && sc != script || (sc == script && !isStrongRTL(s[j])) || (sc == "" && !betweenWords(s[j])) {
				break
			}
			if isStrongRTL(s[j]) {
				last = j
			}
		}
		// Marks that follow the last letter belong to it.
		for last+1 < len(s) && isMark(s[last+1]) {
			last++
		}
		neutral(start, i)
		pieces = append(pieces, segment{text: string(s[i : last+1]), rtl: true})
		start, i = last+1, last+1
	}
	neutral(start, len(s))
	slices.Reverse(pieces)
	return append(segs, pieces...)
}

// betweenWords reports whether r, of no script of its own, may stay inside
// a right-to-left piece: spaces, punctuation, marks and joiners, which the
// text's own font draws. A symbol (an emoji, a star) may come from another
// font, and the toolkit cuts a text where its font changes and lays the
// parts out from the left: it is a piece of its own.
func betweenWords(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsPunct(r) || unicode.IsMark(r) || unicode.Is(unicode.Cf, r) || isStrongRTL(r)
}

// scriptOf is the script of a letter ("Arabic", "Hebrew", …), or "" for
// characters every script shares (spaces, punctuation, digits, marks).
func scriptOf(r rune) string {
	switch {
	case unicode.Is(unicode.Arabic, r), r == '\u0640': // the Arabic tatweel is of every script
		return "Arabic"
	case unicode.Is(unicode.Hebrew, r):
		return "Hebrew"
	case unicode.Is(unicode.Latin, r):
		return "Latin"
	case unicode.Is(unicode.Common, r), unicode.Is(unicode.Inherited, r):
		return ""
	}
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return ""
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
// line in a paragraph of the given direction by the Unicode Bidirectional
// Algorithm (uba.go). Isolates (FSI, LRI, RLI … PDI), which Hoist's
// sentences put around file names, are resolved on their own and count as
// one neutral in the text around them, so "דוח 2026.eml" inside a Hebrew
// sentence keeps its order. A character the algorithm takes out (a
// direction mark, a zero-width joiner) has the level of the one before it.
func bidiLevels(runes []rune, rtlPara bool) []uint8 {
	dir := paraLTR
	if rtlPara {
		dir = paraRTL
	}
	t := ubaText{classes: classesOf(runes), runes: runes}
	return t.line(t.resolve(dir), 0, len(runes))
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
	if runes := []rune(s); !RightToLeft() && !hasMarks(runes) && !hasRTL(runes) {
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
