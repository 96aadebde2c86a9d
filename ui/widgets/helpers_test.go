package widgets

import (
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/assets"
	"hoist/ui/internal/testui"
)

// textTheme is Fyne's light theme with a font that covers Latin, Arabic
// and Hebrew (DejaVu Sans), so that the pictures show every script.
type textTheme struct{}

var (
	dejaVu     = fyne.NewStaticResource("DejaVuSans.ttf", assets.FontRegular)
	dejaVuBold = fyne.NewStaticResource("DejaVuSans-Bold.ttf", assets.FontBold)
)

func (textTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return theme.DefaultTheme().Color(n, theme.VariantLight)
}

func (textTheme) Font(s fyne.TextStyle) fyne.Resource {
	switch {
	case s.Monospace:
		return theme.DefaultTextMonospaceFont() // DejaVu Sans Mono
	case s.Bold:
		return dejaVuBold
	}
	return dejaVu
}

func (textTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return theme.DefaultTheme().Icon(n) }
func (textTheme) Size(n fyne.ThemeSizeName) float32       { return theme.DefaultTheme().Size(n) }

// app is a test app drawing with textTheme.
func app(t *testing.T) fyne.App {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(textTheme{})
	return a
}

// direction makes the window read right to left, or not, for one test.
func direction(t *testing.T, rtl bool) {
	t.Helper()
	before := RightToLeft()
	SetRightToLeft(rtl)
	t.Cleanup(func() { SetRightToLeft(before) })
}

// readsRight says whether a language of the tests reads right to left.
func readsRight(code string) bool { return code == "fa" || code == "ar" || code == "he" }

// window is a window of size, reading right to left or not.
func window(t *testing.T, rtl bool, size fyne.Size) fyne.Window {
	t.Helper()
	app(t)
	direction(t, rtl)
	w := test.NewTempWindow(t, NewLabel(""))
	w.Resize(size)
	return w
}

// walk visits o and everything inside it.
var walk = testui.Walk

func box(w, h float32) *canvas.Rectangle {
	r := canvas.NewRectangle(color.Black)
	r.SetMinSize(fyne.NewSize(w, h))
	return r
}
