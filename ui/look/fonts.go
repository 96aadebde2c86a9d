package look

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
		Emoji.Resource, Emoji.Name, Emoji.Data = r, r.StaticName, r.StaticContent
		HoldEmoji()
		widgets.WatchText(noteEmoji)
	}
}

// HoldEmoji gives the toolkit a small font of a few symbols (its own) in
// place of its emoji font, until a text needs it.
func HoldEmoji() {
	Emoji.Resource.StaticName, Emoji.Resource.StaticContent = "InterSymbols-Regular.ttf", theme.DefaultSymbolFont().Content()
	Emoji.Wanted.Store(false)
	Emoji.Given.Store(false)
}

// share makes the toolkit's font resource r hold Hoist's font.
func share(r fyne.Resource, name string, content []byte) {
	if s, ok := r.(*fyne.StaticResource); ok {
		s.StaticName, s.StaticContent = name, content
	}
}

// Emoji is the toolkit's colour emoji font, held back until a text needs it.
var Emoji struct {
	Resource *fyne.StaticResource // the toolkit's; nil when it was built without one
	Name     string
	Data     []byte // its content

	Wanted atomic.Bool // a text needs it: it is given back (or about to be)
	Given  atomic.Bool // the toolkit has it again

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
	if Emoji.Resource == nil || Emoji.Wanted.Load() {
		return
	}
	for _, r := range s {
		if r >= firstEmoji && needsEmoji(r) {
			if Emoji.Wanted.CompareAndSwap(false, true) {
				if a := fyne.CurrentApp(); a != nil {
					EmojiLater(func() { emojiShown(a) })
				}
			}
			return
		}
	}
}

// EmojiLater runs f on the UI goroutine after the frame being laid out,
// whatever goroutine a text was seen on: changing the theme in the middle
// of a layout would drop the fonts it is measuring with.
var EmojiLater = func(f func()) { go fyne.Do(f) }

// needsEmoji reports whether r is drawn by the emoji font and not by Hoist's.
func needsEmoji(r rune) bool {
	Emoji.mu.Lock()
	defer Emoji.mu.Unlock()
	Emoji.once.Do(func() {
		// Only the character maps are read, from the fonts' bytes in place.
		Emoji.own, _ = sfnt.Parse(assets.FontRegular)
		Emoji.colour, _ = sfnt.Parse(Emoji.Data)
	})
	if Emoji.own == nil || Emoji.colour == nil {
		return r >= 0x1f000 // a guess: most pictographs are there
	}
	if g, err := Emoji.own.GlyphIndex(&Emoji.buf, r); err == nil && g != 0 {
		return false
	}
	g, err := Emoji.colour.GlyphIndex(&Emoji.buf, r)
	return err == nil && g != 0
}

// emojiShown gives the toolkit its emoji font back and has it draw every
// text again with it: a change of theme is what makes it drop the fonts it
// parsed. It runs on the UI goroutine, once.
func emojiShown(a fyne.App) {
	if Emoji.Given.Swap(true) {
		return
	}
	Emoji.Resource.StaticName, Emoji.Resource.StaticContent = Emoji.Name, Emoji.Data
	a.Settings().SetTheme(a.Settings().Theme())
}
