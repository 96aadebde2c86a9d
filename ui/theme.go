package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hoist/assets"
)

var (
	iconResource               = fyne.NewStaticResource("hoist.png", assets.IconPNG)
	fontRegular                = fyne.NewStaticResource("DejaVuSans.ttf", assets.FontRegular)
	fontBold                   = fyne.NewStaticResource("DejaVuSans-Bold.ttf", assets.FontBold)
	fontMono                   = fyne.NewStaticResource("DejaVuSansMono.ttf", assets.FontMono)
	defaultAppTheme            = theme.DefaultTheme()
	_               fyne.Theme = (*hoistTheme)(nil)
)

// Theme choices in the settings.
const (
	themeSystem = "system"
	themeLight  = "light"
	themeDark   = "dark"
)

// hoistTheme is Fyne's own theme with a font that covers Latin, Arabic and
// Hebrew, and optionally a forced light or dark variant.
type hoistTheme struct {
	choice string // themeSystem, themeLight or themeDark
}

func newTheme(choice string) *hoistTheme { return &hoistTheme{choice: choice} }

func (t *hoistTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	switch t.choice {
	case themeLight:
		v = theme.VariantLight
	case themeDark:
		v = theme.VariantDark
	}
	return defaultAppTheme.Color(n, v)
}

func (t *hoistTheme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Monospace:
		return fontMono
	case s.Bold:
		return fontBold
	}
	return fontRegular
}

func (t *hoistTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return defaultAppTheme.Icon(n) }

func (t *hoistTheme) Size(n fyne.ThemeSizeName) float32 { return defaultAppTheme.Size(n) }
