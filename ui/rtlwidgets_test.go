package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/ui/dialogs"
	"hoist/ui/internal/testui"
	"hoist/ui/look"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// TestFocusRingInDialogs: a control focused in a dialog has the window's
// focus ring around it, in a colour that stands out 3:1 or more from the
// dialog's background in both themes.
func TestFocusRingInDialogs(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(900, 640))
	h.d.settings.ShowSettings()
	c := h.d.win.Canvas()
	for _, choice := range []string{look.ThemeLight, look.ThemeDark} {
		h.app.Settings().SetTheme(look.NewTheme(choice))
		th, v := h.app.Settings().Theme(), h.app.Settings().ThemeVariant()
		if r := contrast(widgets.FocusColor(th), th.Color(theme.ColorNameOverlayBackground, v)); r < 3 {
			t.Errorf("%s: the ring on a dialog: %.2f:1, want 3:1", choice, r)
		}
		var button fyne.CanvasObject // as the window holds it
		for range 40 {
			c.FocusNext()
			if _, ok := asButton(c.Focused()); ok {
				button = c.Focused().(fyne.CanvasObject)
				break
			}
		}
		if button == nil {
			t.Fatal("Tab found no button in the settings")
		}
		h.Refresh()
		r := h.d.ring.inDialog
		if r == nil || !r.Visible() || r.StrokeColor != widgets.FocusColor(th) {
			t.Fatalf("%s: no ring around the focused button in the dialog", choice)
		}
		drv := fyne.CurrentApp().Driver()
		at, ringAt := drv.AbsolutePositionForObject(button), drv.AbsolutePositionForObject(r)
		if ringAt.X > at.X || ringAt.Y > at.Y || ringAt.X+r.Size().Width < at.X+button.Size().Width || ringAt.Y+r.Size().Height < at.Y+button.Size().Height {
			t.Errorf("%s: the ring %v %v does not go round the button %v %v", choice, ringAt, r.Size(), at, button.Size())
		}
	}
	h.d.frame.CloseTopDialog()
	h.Refresh()
	if h.d.ring.inDialog.Visible() {
		t.Error("the dialog's ring stays after the dialog closed")
	}
}

// TestChooserNamesInPersian: Hoist's own file dialog, in Persian, draws
// every name whole on one line in reading order (the toolkit's dialog
// breaks "جلسه" into "جل / سه"), folders first, and ticks the files chosen.
func TestChooserNamesInPersian(t *testing.T) {
	w := dialogWindow(t, "fa", fyne.NewSize(780, 420))
	home := t.TempDir() // the places: home, and a Persian desktop named by the folder settings
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	os.MkdirAll(filepath.Join(home, ".config"), 0o755)
	os.MkdirAll(filepath.Join(home, "میز کار"), 0o755)
	os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte("XDG_DESKTOP_DIR=\"$HOME/میز کار\"\n"), 0o644)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "عکس‌های جلسه"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := []string{"جلسه هفتگی.png", "نامه مشتری.eml", "صورة الفاتورة.png", "Invoice فاتورة 2026.pdf", ".پنهان"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		when := time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local)
		os.Chtimes(filepath.Join(dir, n), when, when)
	}
	var added []string
	c := widgets.NewChooser(w, filechooser.Options{Title: view.Say("ui.pick.files"), Multiple: true, Folder: dir}, dialogs.ChooserWords(), func(p []string) { added = p })
	c.Dialog.Resize(fyne.NewSize(760, 380))
	when := time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local)
	os.Chtimes(filepath.Join(dir, "عکس‌های جلسه"), when, when)
	c.Show(dir)
	c.Dialog.Show()
	widgets.ReadingTitle(w.Canvas())
	if len(c.Items()) != 5 || !c.Items()[0].Dir || c.Items()[0].Name != "عکس‌های جلسه" {
		t.Fatalf("the chooser lists %+v; want the folder first and no hidden file", c.Items())
	}
	c.Pick(c.Items()[slices.IndexFunc(c.Items(), func(it widgets.ChooserItem) bool { return it.Name == "نامه مشتری.eml" })])
	shown := map[string]bool{}
	walk(c.List, func(o fyne.CanvasObject) {
		if l, ok := o.(*widgets.Label); ok && l.Visible() && l.Text() != "" {
			shown[l.Text()] = true
			if _, r, ok := testui.TextSpan(l); !ok || r > fyne.CurrentApp().Driver().AbsolutePositionForObject(l).X+l.Size().Width+0.5 {
				t.Errorf("%q is drawn beyond its place", l.Text())
			}
		}
	})
	for _, n := range names[:4] {
		if !shown[n] {
			t.Errorf("%q is not shown whole (shown: %v)", n, shown)
		}
	}
	c.Path.SetText("\u2066/home/user/Pictures\u2069") // a fixed place for the image
	test.AssertImageMatches(t, "rtl_chooser_fa.png", w.Canvas().Capture())
	test.Tap(c.Open)
	if len(added) != 1 || filepath.Base(added[0]) != "نامه مشتری.eml" {
		t.Errorf("Open added %v", added)
	}
}
