// Package assets holds the files Hoist ships inside its binary: the app icon
// and a font that covers Latin, Arabic and Hebrew, so file names in any of
// them display on machines that lack such a font.
package assets

import _ "embed"

// IconPNG is the app icon, 512 × 512 pixels.
//
//go:embed icon.png
var IconPNG []byte

// IconSVG is the app icon as a drawing; icon.png is rendered from it.
//
//go:embed icon.svg
var IconSVG []byte

// The fonts are DejaVu Sans 2.37 (Bitstream Vera licence, see fonts/LICENSE-DejaVu.txt).
var (
	//go:embed fonts/DejaVuSans.ttf
	FontRegular []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	FontBold []byte
	//go:embed fonts/LICENSE-DejaVu.txt
	FontLicence []byte
)
