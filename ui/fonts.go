package ui

import (
	"sync"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font/sfnt"

	"hoist/assets"
	"hoist/ui/widgets"
)

// The fonts, and what they cost. The toolkit draws a text style (regular,
// bold, monospace) with a list of fonts that it parses the first time the
// style is drawn and keeps for good: the theme's font for the style, the
// toolkit's own font for it, its colour emoji font, and a system font for
// the language. Parsed, DejaVu Sans takes about 2.6 MB of memory, the
// toolkit's Noto Sans 1.5 MB and its emoji font 4.7 MB; three styles of
// four fonts each were 31 MB, most of an empty window's own memory.
// Hoist shortens each list, keeping every glyph it drew:
//
//   - the toolkit's own regular and bold fonts are Hoist's (DejaVu Sans,
//     which covers Latin, Arabic and Hebrew, so that a name mixing them is
//     shaped in one font): the theme's font and the toolkit's are then one
//     resource, parsed once; monospace is the toolkit's own DejaVu Sans Mono;
//   - the emoji font is parsed only once a text shows an emoji that Hoist's
//     font lacks (a file name, an email's subject): until then the toolkit
//     is given a small font of a few symbols in its place.
//
// The system font stays: it draws the scripts none of these cover (Chinese,
// Thai, Devanagari…).

func init() {
	share(theme.DefaultTextFont(), "DejaVuSans.ttf", assets.FontRegular)
	share(theme.DefaultTextBoldFont(), "DejaVuSans-Bold.ttf", assets.FontBold)
	if r, ok := theme.DefaultEmojiFont().(*fyne.StaticResource); ok && r != nil {
		emoji.resource, emoji.name, emoji.data = r, r.StaticName, r.StaticContent
		holdEmoji()
		widgets.WatchText(noteEmoji)
	}
}

// holdEmoji gives the toolkit a small font of a few symbols (its own) in
// place of its emoji font, until a text needs it.
func holdEmoji() {
	emoji.resource.StaticName, emoji.resource.StaticContent = "InterSymbols-Regular.ttf", theme.DefaultSymbolFont().Content()
	emoji.wanted.Store(false)
	emoji.given.Store(false)
}

// share makes the toolkit's font resource r hold Hoist's font.
func share(r fyne.Resource, name string, content []byte) {
	if s, ok := r.(*fyne.StaticResource); ok {
		s.StaticName, s.StaticContent = name, content
	}
}

// emoji is the toolkit's colour emoji font, held back until a text needs it.
var emoji struct {
	resource *fyne.StaticResource // the toolkit's; nil when it was built without one
	name     string
	data     []byte // its content

	wanted atomic.Bool // a text needs it: it is given back (or about to be)
	given  atomic.Bool // the toolkit has it again

	once        sync.Once
	mu          sync.Mutex
	buf         sfnt.Buffer
	own, colour *sfnt.Font // the glyph maps of Hoist's font and the emoji font
}

// firstEmoji is below every character the emoji font has and Hoist's lacks
// (U+20E3, the keycap, is the first); Latin, Arabic and Hebrew are below it.
const firstEmoji = 0x2000

// noteEmoji looks for a character in s that only the emoji font draws; the
// first one found gives the toolkit its emoji font back (emojiShown). Every
// text a user wrote or named passes here on its way to the screen: the
// window's labels, paragraphs and fields watch their text for it
// (widgets.WatchText), and so does the text of the toolkit's own widgets
// (widgets.Visual).
func noteEmoji(s string) {
	if emoji.resource == nil || emoji.wanted.Load() {
		return
	}
	for _, r := range s {
		if r >= firstEmoji && needsEmoji(r) {
			if emoji.wanted.CompareAndSwap(false, true) {
				if a := fyne.CurrentApp(); a != nil {
					emojiLater(func() { emojiShown(a) })
				}
			}
			return
		}
	}
}

// emojiLater runs f on the UI goroutine after the frame being laid out,
// whatever goroutine a text was seen on: changing the theme in the middle
// of a layout would drop the fonts it is measuring with.
var emojiLater = func(f func()) { go fyne.Do(f) }

// needsEmoji reports whether r is drawn by the emoji font and not by Hoist's.
func needsEmoji(r rune) bool {
	emoji.mu.Lock()
	defer emoji.mu.Unlock()
	emoji.once.Do(func() {
		// Only the character maps are read, from the fonts' bytes in place.
		emoji.own, _ = sfnt.Parse(assets.FontRegular)
		emoji.colour, _ = sfnt.Parse(emoji.data)
	})
	if emoji.own == nil || emoji.colour == nil {
		return r >= 0x1f000 // a guess: most pictographs are there
	}
	if g, err := emoji.own.GlyphIndex(&emoji.buf, r); err == nil && g != 0 {
		return false
	}
	g, err := emoji.colour.GlyphIndex(&emoji.buf, r)
	return err == nil && g != 0
}

// emojiShown gives the toolkit its emoji font back and has it draw every
// text again with it: a change of theme is what makes it drop the fonts it
// parsed. It runs on the UI goroutine, once.
func emojiShown(a fyne.App) {
	if emoji.given.Swap(true) {
		return
	}
	emoji.resource.StaticName, emoji.resource.StaticContent = emoji.name, emoji.data
	a.Settings().SetTheme(a.Settings().Theme())
}
