// Package testui reads what a Fyne window draws, for the tests of the
// window and of its widgets: everything inside an object, and where its
// text stands. For tests only.
package testui

import (
	"bytes"
	"cmp"
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
	"golang.org/x/text/unicode/bidi"

	"hoist/assets"
)

// Walk visits o and everything inside it.
func Walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, c := range x.Objects {
			Walk(c, visit)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(x).Objects() {
			Walk(c, visit)
		}
	}
}

// TextSpan is the left and right edges, in the window, of what o draws as
// text (its visible canvas.Text objects that are not empty); ok is false
// where it draws none.
func TextSpan(o fyne.CanvasObject) (left, right float32, ok bool) {
	drv := fyne.CurrentApp().Driver()
	Walk(o, func(o fyne.CanvasObject) {
		t, isText := o.(*canvas.Text)
		if !isText || !t.Visible() || t.Text == "" {
			return
		}
		at := drv.AbsolutePositionForObject(t).X
		w := fyne.MeasureText(t.Text, t.TextSize, t.TextStyle).Width
		if !ok || at < left {
			left = at
		}
		if !ok || at+w > right {
			right = at + w
		}
		ok = true
	})
	return left, right, ok
}

// Line is a line of text as it is drawn: its characters from the left, as
// the toolkit's painter splits and shapes each of its text objects.
type Line struct {
	Y       float32
	Text    string   // every character of the line's glyphs, from the left
	Pieces  []string // the text objects, from the left
	Overlap string   // the first text object that overlaps the one on its left, if any
}

// DrawnLines are the lines o draws, from the top: its visible text objects,
// each taken from the left by its place in the window, split and shaped as
// Fyne's painter does it (go-text's segmenter, which cuts a text where its
// direction or script changes and lays the parts side by side from the
// left, and HarfBuzz, which lays out each part). A glyph cluster shaped
// right to left gives its characters turned round, as rule L2 of UAX #9
// orders a letter and its marks.
func DrawnLines(o fyne.CanvasObject) []Line {
	drv := fyne.CurrentApp().Driver()
	type placed struct {
		text        string
		x, y, right float32
	}
	var all []placed
	var visit func(o fyne.CanvasObject)
	visit = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if x.Text != "" {
				at := drv.AbsolutePositionForObject(x)
				all = append(all, placed{x.Text, at.X, at.Y, at.X + fyne.MeasureText(x.Text, x.TextSize, x.TextStyle).Width})
			}
		case *fyne.Container:
			for _, c := range x.Objects {
				visit(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				visit(c)
			}
		}
	}
	visit(o)
	slices.SortStableFunc(all, func(a, b placed) int {
		if c := cmp.Compare(a.y, b.y); c != 0 {
			return c
		}
		return cmp.Compare(a.x, b.x)
	})
	var lines []Line
	var prev placed
	for i, p := range all {
		if i == 0 || p.y != prev.y {
			lines = append(lines, Line{Y: p.y})
		} else if p.x < prev.right-0.5 && lines[len(lines)-1].Overlap == "" {
			lines[len(lines)-1].Overlap = p.text
		}
		l := &lines[len(lines)-1]
		l.Text += string(glyphOrder(p.text))
		l.Pieces = append(l.Pieces, p.text)
		prev = p
	}
	return lines
}

var face, fallback = sync.OnceValue(func() *font.Face { return parse(assets.FontRegular) }),
	sync.OnceValue(func() *font.Face { return parse(assets.FontBold) })

func parse(data []byte) *font.Face {
	f, err := font.ParseTTF(bytes.NewReader(data))
	if err != nil {
		panic(err)
	}
	return f
}

// faces is a font map as the toolkit's: the window's font for what it
// has, another face for the rest (an emoji), so that a text is cut where
// its face changes, as the painter cuts it.
type faces struct{}

func (faces) ResolveFace(r rune) *font.Face {
	if _, ok := face().NominalGlyph(r); ok || r == ' ' {
		return face()
	}
	return fallback()
}

// glyphOrder is the characters of text as the painter draws it, from the left.
func glyphOrder(text string) []rune {
	runes := []rune(text)
	in := shaping.Input{
		Text: runes, RunStart: 0, RunEnd: len(runes),
		Direction: di.DirectionLTR, Face: face(), Size: fixed.I(14),
	}
	var seg shaping.Segmenter
	var shaper shaping.HarfbuzzShaper
	var drawn []rune
	for _, run := range seg.Split(in, faces{}) {
		out := shaper.Shape(run)
		rtl := run.Direction.Progression() == di.TowardTopLeft
		for i := 0; i < len(out.Glyphs); {
			g := out.Glyphs[i]
			cluster := slices.Clone(runes[g.ClusterIndex : g.ClusterIndex+g.RuneCount])
			if rtl {
				slices.Reverse(cluster)
			}
			drawn = append(drawn, cluster...)
			i += max(g.GlyphCount, 1)
		}
	}
	return drawn
}

// Comparable is text reduced to what decides the order of glyphs: without
// what draws nothing (direction marks, joiners and other boundary
// neutrals), and with each mirrored character and its mirror counted as
// one, as "(" drawn right to left is the glyph ")".
func Comparable(text string) string {
	var out []rune
	for _, r := range text {
		p, _ := bidi.LookupRune(r)
		if c := p.Class(); c == bidi.BN || c == bidi.LRE || c == bidi.RLE || c == bidi.LRO || c == bidi.RLO ||
			c == bidi.PDF || c == bidi.LRI || c == bidi.RLI || c == bidi.FSI || c == bidi.PDI ||
			r == '\u200e' || r == '\u200f' || r == '\u061c' {
			continue
		}
		if p.IsBracket() {
			r = min(r, []rune(bidi.ReverseString(string(r)))[0])
		}
		if m, ok := mirrored[r]; ok {
			r = min(r, m)
		}
		out = append(out, r)
	}
	return string(out)
}

// mirrored are mirrored characters that are not brackets.
var mirrored = map[rune]rune{'«': '»', '»': '«', '‹': '›', '›': '‹', '<': '>', '>': '<', '≤': '≥', '≥': '≤'}
