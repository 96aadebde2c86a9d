package ui

import (
	"fmt"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hoist/ui/look"
)

// luminance is WCAG's relative luminance of c over the background bg (for
// colours that are not opaque).
func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// over blends c onto the opaque bg, as the screen shows it.
func over(c, bg color.Color) color.Color {
	r, g, b, a := c.RGBA()
	br, bgg, bb, _ := bg.RGBA()
	mix := func(f, k uint32) uint8 { return uint8((f + k*(0xffff-a)/0xffff) >> 8) }
	return color.NRGBA{mix(r, br), mix(g, bgg), mix(b, bb), 255}
}

func contrast(fg, bg color.Color) float64 {
	bg = over(bg, color.White) // the window's own background is opaque
	fg = over(fg, bg)
	l1, l2 := luminance(fg), luminance(bg)
	if l1 < l2 {
		l1, l2 = l2, l1
	}
	return (l1 + 0.05) / (l2 + 0.05)
}

// TestTextContrast computes, from the theme itself, the contrast of every
// text colour on every background it is drawn on, in both variants: WCAG AA
// asks 4.5:1 for text.
func TestTextContrast(t *testing.T) {
	texts := []fyne.ThemeColorName{
		theme.ColorNameForeground, theme.ColorNamePlaceHolder, theme.ColorNameHyperlink,
		theme.ColorNameSuccess, theme.ColorNameWarning, theme.ColorNameError, theme.ColorNamePrimary,
	}
	backgrounds := []fyne.ThemeColorName{
		theme.ColorNameBackground, theme.ColorNameInputBackground, theme.ColorNameOverlayBackground,
		theme.ColorNameMenuBackground, theme.ColorNameHeaderBackground,
	}
	type pair struct{ fg, bg fyne.ThemeColorName }
	var pairs []pair
	for _, f := range texts {
		for _, b := range backgrounds {
			pairs = append(pairs, pair{f, b})
		}
	}
	pairs = append(pairs,
		pair{theme.ColorNameForegroundOnPrimary, theme.ColorNamePrimary},
		pair{theme.ColorNameForegroundOnError, theme.ColorNameError},
		pair{theme.ColorNameForegroundOnSuccess, theme.ColorNameSuccess},
		pair{theme.ColorNameForegroundOnWarning, theme.ColorNameWarning},
		pair{theme.ColorNameForeground, theme.ColorNameButton},
	)
	for _, choice := range []string{look.ThemeLight, look.ThemeDark} {
		th := look.NewTheme(choice)
		for _, p := range pairs {
			bg := th.Color(p.bg, theme.VariantLight)
			if p.bg != theme.ColorNameBackground {
				bg = over(bg, over(th.Color(theme.ColorNameBackground, theme.VariantLight), color.White))
			}
			ratio := contrast(th.Color(p.fg, theme.VariantLight), bg)
			if ratio < 4.5 {
				t.Errorf("%s theme: %s on %s has a contrast of %.2f:1, want at least 4.5:1", choice, p.fg, p.bg, ratio)
			}
		}
		// A selected or hovered row keeps its text readable.
		for _, hl := range []fyne.ThemeColorName{theme.ColorNameSelection, theme.ColorNameHover} {
			bg := over(th.Color(hl, theme.VariantLight), over(th.Color(theme.ColorNameBackground, theme.VariantLight), color.White))
			for _, f := range texts {
				if r := contrast(th.Color(f, theme.VariantLight), bg); r < 4.5 {
					t.Errorf("%s theme: %s on %s has a contrast of %.2f:1, want at least 4.5:1", choice, f, hl, r)
				}
			}
		}
	}
	_ = fmt.Sprint
}

// TestDisabledControlsStayReadable computes, from the theme itself, the
// contrast of a disabled button's words and icon on its own background, and
// of a disabled check box or field on the window's backgrounds: at least
// 3:1 in both variants (Fyne's own colours give 1.2:1). A disabled control
// still looks disabled: its words are clearly fainter than enabled ones.
func TestDisabledControlsStayReadable(t *testing.T) {
	for _, choice := range []string{look.ThemeLight, look.ThemeDark} {
		th := look.NewTheme(choice)
		c := func(n fyne.ThemeColorName) color.Color { return th.Color(n, theme.VariantLight) }
		window := over(c(theme.ColorNameBackground), color.White)
		for _, bg := range []fyne.ThemeColorName{
			theme.ColorNameDisabledButton, theme.ColorNameBackground, theme.ColorNameInputBackground,
			theme.ColorNameOverlayBackground, theme.ColorNameMenuBackground,
		} {
			under := over(c(bg), window)
			if r := contrast(c(theme.ColorNameDisabled), under); r < 3 {
				t.Errorf("%s theme: disabled text on %s has a contrast of %.2f:1, want at least 3:1", choice, bg, r)
			}
		}
		fg := contrast(c(theme.ColorNameForeground), over(c(theme.ColorNameDisabledButton), window))
		dis := contrast(c(theme.ColorNameDisabled), over(c(theme.ColorNameDisabledButton), window))
		if fg < dis*1.5 {
			t.Errorf("%s theme: disabled words (%.2f:1) look almost like enabled ones (%.2f:1)", choice, dis, fg)
		}
	}
}
