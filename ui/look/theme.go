// Package look is the window's look: its theme (light, dark or the
// system's, with colours that keep 3:1 and more where they must) and its
// fonts (the scripts Hoist's users read, and emoji loaded when needed).
// It knows only ui/widgets.
package look

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hoist/assets"
)

var (
	IconResource               = fyne.NewStaticResource("hoist.png", assets.IconPNG)
	defaultAppTheme            = theme.DefaultTheme()
	_               fyne.Theme = (*HoistTheme)(nil)
)

// Theme choices in the settings.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// HoistTheme is Fyne's own theme with a font that covers Latin, Arabic and
// Hebrew (the toolkit's own regular and bold fonts are made Hoist's:
// fonts.go), and optionally a forced light or dark variant.
type HoistTheme struct {
	Choice string // themeSystem, themeLight or themeDark
}

func NewTheme(choice string) *HoistTheme { return &HoistTheme{Choice: choice} }

func (t *HoistTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch t.Choice {
	case ThemeLight:
		v = theme.VariantLight
	case ThemeDark:
		v = theme.VariantDark
	}
	if c, ok := readable[v][n]; ok {
		return c
	}
	return defaultAppTheme.Color(n, v)
}

// readable are the colours Hoist draws differently from Fyne's theme, so that
// every text reaches a contrast of 4.5:1 on its background (WCAG AA) in both
// variants, the states' colours included (TestTextContrast measures them),
// and a disabled control's words and icon 3:1 on whatever they sit on
// (TestDisabledControlsStayReadable).
var readable = map[fyne.ThemeVariant]map[fyne.ThemeColorName]color.Color{
	theme.VariantLight: {
		theme.ColorNamePrimary:             rgb(0x1a, 0x5f, 0xb4),
		theme.ColorNameHyperlink:           rgb(0x1a, 0x5f, 0xb4),
		theme.ColorNameForegroundOnPrimary: rgb(0xff, 0xff, 0xff),
		theme.ColorNamePlaceHolder:         rgb(0x5c, 0x5c, 0x5c),
		theme.ColorNameSuccess:             rgb(0x1b, 0x6e, 0x30),
		theme.ColorNameForegroundOnSuccess: rgb(0xff, 0xff, 0xff),
		theme.ColorNameWarning:             rgb(0x8a, 0x4b, 0x00),
		theme.ColorNameForegroundOnWarning: rgb(0xff, 0xff, 0xff),
		theme.ColorNameError:               rgb(0xb3, 0x26, 0x1e),
		theme.ColorNameForegroundOnError:   rgb(0xff, 0xff, 0xff),
		theme.ColorNameSelection:           rgb(0xdb, 0xe8, 0xfa),
		theme.ColorNameHover:               rgb(0xee, 0xee, 0xee),
		theme.ColorNameFocus:               color.NRGBA{R: 0x1a, G: 0x5f, B: 0xb4, A: 0x66},
		theme.ColorNameDisabled:            rgb(0x73, 0x73, 0x73),
	},
	theme.VariantDark: {
		theme.ColorNamePrimary:             rgb(0x78, 0xae, 0xed),
		theme.ColorNameHyperlink:           rgb(0x78, 0xae, 0xed),
		theme.ColorNameForegroundOnPrimary: rgb(0x10, 0x10, 0x10),
		theme.ColorNameSuccess:             rgb(0x6c, 0xd6, 0x7a),
		theme.ColorNameForegroundOnSuccess: rgb(0x10, 0x10, 0x10),
		theme.ColorNameWarning:             rgb(0xf5, 0xb0, 0x4c),
		theme.ColorNameForegroundOnWarning: rgb(0x10, 0x10, 0x10),
		theme.ColorNameError:               rgb(0xff, 0x8a, 0x80),
		theme.ColorNameForegroundOnError:   rgb(0x10, 0x10, 0x10),
		theme.ColorNameSelection:           rgb(0x1d, 0x35, 0x55),
		theme.ColorNameHover:               rgb(0x2e, 0x2e, 0x2e),
		theme.ColorNameFocus:               color.NRGBA{R: 0x78, G: 0xae, B: 0xed, A: 0x80},
		theme.ColorNameDisabled:            rgb(0x8c, 0x8c, 0x8c),
	},
}

func rgb(r, g, b uint8) color.Color { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// Font is the toolkit's own font resource for each style, which fonts.go
// makes Hoist's: a style whose theme font is the toolkit's fallback for it is
// parsed once, not twice.
func (t *HoistTheme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Monospace:
		return theme.DefaultTextMonospaceFont()
	case s.Bold:
		return theme.DefaultTextBoldFont()
	}
	return theme.DefaultTextFont()
}

func (t *HoistTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return defaultAppTheme.Icon(n) }

func (t *HoistTheme) Size(n fyne.ThemeSizeName) float32 { return defaultAppTheme.Size(n) }
