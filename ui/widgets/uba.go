package widgets

import (
	"slices"
	"strings"

	"golang.org/x/text/unicode/bidi"
)

// This file resolves the embedding levels of a paragraph by the Unicode
// Bidirectional Algorithm (UAX #9), rules P2–P3, X1–X10, W1–W7, N0–N2,
// I1–I2 for a paragraph, and L1 for each of its lines; visualOrder
// (bidi.go) is rule L2. It is checked against Unicode's own conformance files
// (BidiTest.txt and BidiCharacterTest.txt, see uba_conformance_test.go).
// golang.org/x/text/unicode/bidi gives the classes and brackets of the
// characters; its Paragraph does not pair brackets, ignores a paragraph
// direction asked for, and misses many of those cases.

// maxDepth is the deepest embedding level (BD2).
const maxDepth = 125

// Paragraph directions as the conformance files name them.
const (
	paraLTR  = 0
	paraRTL  = 1
	paraAuto = 2 // the first strong letter's direction (P2, P3), left to right if none
)

// ubaText is a paragraph to resolve: each character's class and, where
// known, the character itself (for its brackets, rule N0).
type ubaText struct {
	classes []bidi.Class
	runes   []rune // nil where only classes are known
}

// resolved is a paragraph's outcome: each character's level, which
// characters rule X9 removes (they have no level of their own: they take
// the level of the character before them), and the paragraph's level.
type resolved struct {
	levels  []uint8
	removed []bool
	para    uint8
}

// classesOf looks up the class of every character.
func classesOf(runes []rune) []bidi.Class {
	classes := make([]bidi.Class, len(runes))
	for i, r := range runes {
		p, _ := bidi.LookupRune(r)
		classes[i] = p.Class()
	}
	return classes
}

// isIsolateInitiator: LRI, RLI, FSI.
func isIsolateInitiator(c bidi.Class) bool {
	return c == bidi.LRI || c == bidi.RLI || c == bidi.FSI
}

// removedByX9: embeddings, overrides, their end, and boundary neutrals.
func removedByX9(c bidi.Class) bool {
	switch c {
	case bidi.RLE, bidi.LRE, bidi.RLO, bidi.LRO, bidi.PDF, bidi.BN:
		return true
	}
	return false
}

// resolve runs the algorithm over one paragraph in the given direction
// (paraLTR, paraRTL or paraAuto).
func (t ubaText) resolve(direction int) resolved {
	n := len(t.classes)
	types := t.classes
	matchPDI, matchedBy := isolatePairs(types)
	var para uint8
	switch direction {
	case paraRTL:
		para = 1
	case paraAuto:
		if rtl, _ := firstStrong(types, matchPDI, 0, n); rtl {
			para = 1
		}
	}
	res := resolved{removed: make([]bool, n), para: para}
	var cur []bidi.Class // the types as the rules change them
	res.levels, cur = explicitLevels(types, matchPDI, para)
	levels := res.levels

	// X9: embeddings, overrides and boundary neutrals take no part.
	var kept []int
	for i, c := range types {
		if removedByX9(c) {
			res.removed[i] = true
			continue
		}
		kept = append(kept, i)
	}
	explicit := slices.Clone(levels) // before the implicit rules raise some
	for _, seq := range runSequences(types, kept, levels, matchPDI, matchedBy) {
		t.resolveSequence(seq, cur, levels, explicit, para, kept)
	}
	// Removed characters take the level of the character before them.
	for i := range levels {
		if res.removed[i] {
			if i > 0 {
				levels[i] = levels[i-1]
			} else {
				levels[i] = para
			}
		}
	}
	return res
}

// isolatePairs (BD9): each isolate initiator's matching PDI, and each PDI's
// initiator; -1 where there is none.
func isolatePairs(types []bidi.Class) (matchPDI, matchedBy []int) {
	n := len(types)
	matchPDI, matchedBy = make([]int, n), make([]int, n)
	var open []int
	for i, c := range types {
		matchPDI[i], matchedBy[i] = -1, -1
		switch {
		case isIsolateInitiator(c):
			open = append(open, i)
		case c == bidi.PDI && len(open) > 0:
			k := open[len(open)-1]
			open = open[:len(open)-1]
			matchPDI[k], matchedBy[i] = i, k
		case c == bidi.B:
			open = open[:0]
		}
	}
	return matchPDI, matchedBy
}

// firstStrong (P2, P3): the direction of the first strong letter outside
// isolates between from and to.
func firstStrong(types []bidi.Class, matchPDI []int, from, to int) (rtl, found bool) {
	for i := from; i < to; i++ {
		switch c := types[i]; {
		case c == bidi.L:
			return false, true
		case c == bidi.R || c == bidi.AL:
			return true, true
		case c == bidi.B:
			return false, false
		case isIsolateInitiator(c):
			if matchPDI[i] < 0 {
				return false, false
			}
			i = matchPDI[i]
		}
	}
	return false, false
}

// embeddingStatus is one entry of the directional status stack (X1).
type embeddingStatus struct {
	level    uint8
	override bidi.Class // ON (none), L or R
	isolate  bool
}

// embeddings are the rules X1–X8 as they walk a paragraph: the status
// stack and its overflow counters.
type embeddings struct {
	stack                                               []embeddingStatus
	overflowIsolates, overflowEmbeddings, validIsolates int
}

func (e *embeddings) top() embeddingStatus { return e.stack[len(e.stack)-1] }

// nextLevel is the least odd (rtl) or even level above level.
func nextLevel(level uint8, rtl bool) uint8 {
	if rtl {
		return (level + 1) | 1
	}
	return (level + 2) &^ 1
}

// push (X2–X5): an embedding or override, c.
func (e *embeddings) push(c bidi.Class) {
	nl := nextLevel(e.top().level, c == bidi.RLE || c == bidi.RLO)
	if nl <= maxDepth && e.overflowIsolates == 0 && e.overflowEmbeddings == 0 {
		ov := bidi.ON
		switch c {
		case bidi.RLO:
			ov = bidi.R
		case bidi.LRO:
			ov = bidi.L
		}
		e.stack = append(e.stack, embeddingStatus{level: nl, override: ov})
	} else if e.overflowIsolates == 0 {
		e.overflowEmbeddings++
	}
}

// pushIsolate (X5a–X5c): an isolate of the given direction.
func (e *embeddings) pushIsolate(rtl bool) {
	nl := nextLevel(e.top().level, rtl)
	if nl <= maxDepth && e.overflowIsolates == 0 && e.overflowEmbeddings == 0 {
		e.validIsolates++
		e.stack = append(e.stack, embeddingStatus{level: nl, override: bidi.ON, isolate: true})
	} else {
		e.overflowIsolates++
	}
}

// popIsolate (X6a): a PDI ends the isolate it matches, and every embedding
// inside it.
func (e *embeddings) popIsolate() {
	switch {
	case e.overflowIsolates > 0:
		e.overflowIsolates--
	case e.validIsolates == 0:
	default:
		e.overflowEmbeddings = 0
		for !e.top().isolate {
			e.stack = e.stack[:len(e.stack)-1]
		}
		e.stack = e.stack[:len(e.stack)-1]
		e.validIsolates--
	}
}

// pop (X7): a PDF ends the embedding or override it matches.
func (e *embeddings) pop() {
	switch {
	case e.overflowIsolates > 0:
	case e.overflowEmbeddings > 0:
		e.overflowEmbeddings--
	case !e.top().isolate && len(e.stack) >= 2:
		e.stack = e.stack[:len(e.stack)-1]
	}
}

// explicitLevels (X1–X8): every character's explicit level, and the types
// with overrides applied.
func explicitLevels(types []bidi.Class, matchPDI []int, para uint8) (levels []uint8, cur []bidi.Class) {
	n := len(types)
	levels, cur = make([]uint8, n), slices.Clone(types)
	e := &embeddings{stack: []embeddingStatus{{level: para, override: bidi.ON}}}
	overridden := func(i int) {
		if top := e.top(); top.override != bidi.ON {
			cur[i] = top.override
		}
	}
	for i, c := range types {
		levels[i] = e.top().level
		switch c {
		case bidi.RLE, bidi.LRE, bidi.RLO, bidi.LRO:
			e.push(c)
		case bidi.RLI, bidi.LRI, bidi.FSI:
			overridden(i)
			rtl := c == bidi.RLI
			if c == bidi.FSI {
				end := matchPDI[i]
				if end < 0 {
					end = n
				}
				rtl, _ = firstStrong(types, matchPDI, i+1, end)
			}
			e.pushIsolate(rtl)
		case bidi.PDI:
			e.popIsolate()
			levels[i] = e.top().level
			overridden(i)
		case bidi.PDF:
			e.pop()
		case bidi.B:
			levels[i] = para
		case bidi.BN:
		default:
			overridden(i)
		}
	}
	return levels, cur
}

// runSequences (X10): the level runs of the kept characters, chained
// through isolates into isolating run sequences, each as its characters'
// indexes in order.
func runSequences(types []bidi.Class, kept []int, levels []uint8, matchPDI, matchedBy []int) [][]int {
	type run struct{ from, to int } // indexes into kept, [from, to)
	var runs []run
	runAt := make([]int, len(types)) // a character's index → the run it starts, -1 if none
	for i := range runAt {
		runAt[i] = -1
	}
	for k := 0; k < len(kept); {
		j := k + 1
		for j < len(kept) && levels[kept[j]] == levels[kept[k]] {
			j++
		}
		runAt[kept[k]] = len(runs)
		runs = append(runs, run{k, j})
		k = j
	}
	endsRun := make([]bool, len(types)) // the last character of each run
	for _, r := range runs {
		endsRun[kept[r.to-1]] = true
	}
	var seqs [][]int
	for _, r := range runs {
		// A run that begins with a PDI whose initiator ends a run goes on that run's sequence.
		if first := kept[r.from]; types[first] == bidi.PDI && matchedBy[first] >= 0 && endsRun[matchedBy[first]] {
			continue
		}
		var seq []int
		cr := r
		for {
			seq = append(seq, kept[cr.from:cr.to]...)
			last := kept[cr.to-1]
			if !isIsolateInitiator(types[last]) || matchPDI[last] < 0 {
				break
			}
			ri := runAt[matchPDI[last]]
			if ri < 0 {
				break
			}
			cr = runs[ri]
		}
		seqs = append(seqs, seq)
	}
	return seqs
}

// line is the levels of the characters [from, to) of a resolved paragraph
// shown as one line (rule L1): separators, and white space and isolate
// marks before them or at the end of the line, go back to the paragraph's
// level.
func (t ubaText) line(res resolved, from, to int) []uint8 {
	levels := slices.Clone(res.levels[from:to])
	trailing := true
	for i := to - 1; i >= from; i-- {
		switch c := t.classes[i]; {
		case c == bidi.S || c == bidi.B:
			levels[i-from] = res.para
			trailing = true
		case c == bidi.WS || isIsolateInitiator(c) || c == bidi.PDI || removedByX9(c):
			if trailing {
				levels[i-from] = res.para
			}
		default:
			trailing = false
		}
	}
	return levels
}

// strongDir is the direction a resolved type counts as in rules N0–N2:
// L, or R for R and numbers, or ON for a neutral.
func strongDir(c bidi.Class) bidi.Class {
	switch c {
	case bidi.L:
		return bidi.L
	case bidi.R, bidi.AL, bidi.EN, bidi.AN:
		return bidi.R
	}
	return bidi.ON
}

// isNI: neutrals and isolate marks (rules N1, N2).
func isNI(c bidi.Class) bool {
	switch c {
	case bidi.B, bidi.S, bidi.WS, bidi.ON, bidi.LRI, bidi.RLI, bidi.FSI, bidi.PDI:
		return true
	}
	return false
}

// resolveSequence resolves the weak and neutral types of one isolating run
// sequence (its characters' indexes in order) and their implicit levels;
// explicit are the levels rules X1–X8 gave.
func (t ubaText) resolveSequence(seq []int, cur []bidi.Class, levels, explicit []uint8, para uint8, kept []int) {
	sos, eos, e := t.sequenceEnds(seq, explicit, para, kept)
	ts := make([]bidi.Class, len(seq))
	for k, i := range seq {
		ts[k] = cur[i]
	}
	resolveWeak(ts, sos)
	if t.runes != nil {
		t.resolveBrackets(seq, ts, sos, e)
	}
	resolveNeutrals(ts, sos, eos, e)
	// I1, I2: implicit levels.
	for k, i := range seq {
		l := levels[i]
		switch c := ts[k]; {
		case l%2 == 0 && c == bidi.R:
			levels[i] = l + 1
		case l%2 == 0 && (c == bidi.AN || c == bidi.EN):
			levels[i] = l + 2
		case l%2 == 1 && (c == bidi.L || c == bidi.EN || c == bidi.AN):
			levels[i] = l + 1
		}
	}
}

// sequenceEnds are a sequence's sos and eos, each the direction of the
// higher of the sequence's level and its neighbour's, and e, the direction
// of its embedding.
func (t ubaText) sequenceEnds(seq []int, explicit []uint8, para uint8, kept []int) (sos, eos, e bidi.Class) {
	level := explicit[seq[0]]
	first, last := seq[0], seq[len(seq)-1]
	before, after := para, para
	if k, _ := slices.BinarySearch(kept, first); k > 0 {
		before = explicit[kept[k-1]]
	}
	if !isIsolateInitiator(t.classes[last]) {
		if k, _ := slices.BinarySearch(kept, last); k+1 < len(kept) {
			after = explicit[kept[k+1]]
		}
	}
	dirOf := func(l uint8) bidi.Class {
		if l%2 == 1 {
			return bidi.R
		}
		return bidi.L
	}
	return dirOf(max(level, before)), dirOf(max(level, after)), dirOf(level)
}

// resolveWeak (W1–W7) resolves the weak types of a sequence's types ts.
func resolveWeak(ts []bidi.Class, sos bidi.Class) {
	n := len(ts)
	// W1: a mark takes the type of what precedes it (ON after an isolate mark).
	for k, c := range ts {
		if c != bidi.NSM {
			continue
		}
		switch {
		case k == 0:
			ts[k] = sos
		case isIsolateInitiator(ts[k-1]) || ts[k-1] == bidi.PDI:
			ts[k] = bidi.ON
		default:
			ts[k] = ts[k-1]
		}
	}
	// W2: a European number after Arabic letters is an Arabic number.
	strong := sos
	for k, c := range ts {
		switch c {
		case bidi.L, bidi.R, bidi.AL:
			strong = c
		case bidi.EN:
			if strong == bidi.AL {
				ts[k] = bidi.AN
			}
		}
	}
	// W3: Arabic letters are right to left.
	for k, c := range ts {
		if c == bidi.AL {
			ts[k] = bidi.R
		}
	}
	// W4: one separator between two numbers of a kind joins them.
	for k := 1; k+1 < n; k++ {
		a, c, b := ts[k-1], ts[k], ts[k+1]
		switch {
		case c == bidi.ES && a == bidi.EN && b == bidi.EN,
			c == bidi.CS && a == bidi.EN && b == bidi.EN:
			ts[k] = bidi.EN
		case c == bidi.CS && a == bidi.AN && b == bidi.AN:
			ts[k] = bidi.AN
		}
	}
	// W5: terminators next to European numbers are numbers.
	for k := 0; k < n; {
		if ts[k] != bidi.ET {
			k++
			continue
		}
		j := k
		for j < n && ts[j] == bidi.ET {
			j++
		}
		if (k > 0 && ts[k-1] == bidi.EN) || (j < n && ts[j] == bidi.EN) {
			for m := k; m < j; m++ {
				ts[m] = bidi.EN
			}
		}
		k = j
	}
	// W6: the other separators and terminators are neutral.
	for k, c := range ts {
		switch c {
		case bidi.ES, bidi.ET, bidi.CS:
			ts[k] = bidi.ON
		}
	}
	// W7: European numbers after left-to-right letters are left to right.
	strong = sos
	for k, c := range ts {
		switch c {
		case bidi.L, bidi.R:
			strong = c
		case bidi.EN:
			if strong == bidi.L {
				ts[k] = bidi.L
			}
		}
	}
}

// resolveBrackets (N0): paired brackets take the direction of what they hold.
func (t ubaText) resolveBrackets(seq []int, ts []bidi.Class, sos, e bidi.Class) {
	n := len(ts)
	for _, p := range t.bracketPairs(seq, ts) {
		var inE, inO bool
		for k := p[0] + 1; k < p[1]; k++ {
			switch d := strongDir(ts[k]); {
			case d == e:
				inE = true
			case d != bidi.ON:
				inO = true
			}
		}
		to := bidi.ON
		switch {
		case inE:
			to = e
		case inO:
			context := sos
			for k := p[0] - 1; k >= 0; k-- {
				if d := strongDir(ts[k]); d != bidi.ON {
					context = d
					break
				}
			}
			to = e
			if context != e {
				to = context
			}
		}
		if to == bidi.ON {
			continue
		}
		for _, b := range p {
			ts[b] = to
			for k := b + 1; k < n && t.classes[seq[k]] == bidi.NSM; k++ {
				ts[k] = to
			}
		}
	}
}

// resolveNeutrals (N1, N2): neutrals between two of a direction take it,
// others the embedding's.
func resolveNeutrals(ts []bidi.Class, sos, eos, e bidi.Class) {
	n := len(ts)
	for k := 0; k < n; {
		if !isNI(ts[k]) {
			k++
			continue
		}
		j := k
		for j < n && isNI(ts[j]) {
			j++
		}
		b, a := sos, eos
		if k > 0 {
			b = strongDir(ts[k-1])
		}
		if j < n {
			a = strongDir(ts[j])
		}
		fill := e
		if b == a {
			fill = b
		}
		for m := k; m < j; m++ {
			ts[m] = fill
		}
		k = j
	}
}

// bracketPairs finds the sequence's paired brackets (BD16) whose type is
// still neutral, as positions in seq, in the order of their openings.
func (t ubaText) bracketPairs(seq []int, ts []bidi.Class) [][2]int {
	type opening struct {
		closer rune // the closing bracket that matches it
		at     int
	}
	var stack []opening
	var pairs [][2]int
	for k, i := range seq {
		if ts[k] != bidi.ON {
			continue
		}
		r := t.runes[i]
		p, _ := bidi.LookupRune(r)
		if !p.IsBracket() {
			continue
		}
		if p.IsOpeningBracket() {
			if len(stack) == 63 {
				break
			}
			stack = append(stack, opening{closer: canonicalBracket(pairedBracket(r)), at: k})
			continue
		}
		c := canonicalBracket(r)
		for j := len(stack) - 1; j >= 0; j-- {
			if stack[j].closer == c {
				pairs = append(pairs, [2]int{stack[j].at, k})
				stack = stack[:j]
				break
			}
		}
	}
	slices.SortFunc(pairs, func(a, b [2]int) int { return a[0] - b[0] })
	return pairs
}

// pairedBracket is a bracket's other half: x/text turns brackets round
// when it reverses a text.
func pairedBracket(r rune) rune {
	return []rune(bidi.ReverseString(string(r)))[0]
}

// canonicalBracket is a bracket's canonical equivalent: the angle brackets
// U+2329 and U+232A are U+3008 and U+3009.
func canonicalBracket(r rune) rune {
	switch r {
	case '\u2329':
		return '\u3008'
	case '\u232a':
		return '\u3009'
	}
	return r
}

// StandardOrder is text as a reader sees it in a paragraph of the given
// direction, from the left, by the standard alone: the levels of the
// Unicode Bidirectional Algorithm and its rule L2, without the marks that
// only steer the order; mirrored characters are left as they are written.
// Tests hold what the widgets draw against it.
func StandardOrder(text string, rightToLeft bool) string {
	runes := []rune(text)
	dir := paraLTR
	if rightToLeft {
		dir = paraRTL
	}
	t := ubaText{classes: classesOf(runes), runes: runes}
	res := t.resolve(dir)
	var seen []rune
	for _, k := range visualOrder(t.line(res, 0, len(runes))) {
		if !isDirectionMark(runes[k]) {
			seen = append(seen, runes[k])
		}
	}
	return string(seen)
}

// StandardLines is StandardOrder for a text drawn in lines, each line a
// piece of the text, in order (Paragraph.Lines): the levels are those of
// the whole paragraph it is in (the text between two line breaks), and
// each line is put in order on its own (rules L1, L2). An empty line stays
// empty.
func StandardLines(text string, lines []string, rightToLeft bool) []string {
	dir := paraLTR
	if rightToLeft {
		dir = paraRTL
	}
	parts := strings.Split(text, "\n")
	out := make([]string, len(lines))
	part, at := 0, 0 // where the next line is looked for
	for i, line := range lines {
		if line == "" {
			continue
		}
		for part < len(parts) && !strings.Contains(parts[part][at:], line) {
			part, at = part+1, 0
		}
		if part == len(parts) {
			out[i] = "(not in the text)"
			continue
		}
		from := at + strings.Index(parts[part][at:], line)
		at = from + len(line)
		runes := []rune(parts[part])
		rf, rt := len([]rune(parts[part][:from])), len([]rune(parts[part][:at]))
		t := ubaText{classes: classesOf(runes), runes: runes}
		var seen []rune
		for _, k := range visualOrder(t.line(t.resolve(dir), rf, rt)) {
			if r := runes[rf+k]; !isDirectionMark(r) {
				seen = append(seen, r)
			}
		}
		out[i] = string(seen)
	}
	return out
}
