package ui

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/ui/filechooser"
)

// textSpan is the left and right edges, in the window, of what o draws as
// text (its canvas.Text objects).
func textSpan(o fyne.CanvasObject) (left, right float32, ok bool) {
	drv := fyne.CurrentApp().Driver()
	walk(o, func(o fyne.CanvasObject) {
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

// TestDialogSelectAndEntryReadFromTheRight: in Persian, a dialog's title,
// the choice of a select and the text of an entry start at the right edge
// of their place, the entry's text in the order it is seen and its cursor
// at the end of what was typed, which for Persian letters is the left end.
func TestDialogSelectAndEntryReadFromTheRight(t *testing.T) {
	w := dialogWindow(t, "fa", fyne.NewSize(520, 320))
	choice := newSelect([]string{"خصوصی", "فهرست‌نشده"}, nil)
	choice.SetSelected("خصوصی")
	typed := newEntry()
	empty := newEntry()
	empty.SetPlaceHolder("نام را بنویسید")
	dlg := dialog.NewCustom("نامه مشتری.eml", "بستن", container.NewVBox(choice, typed, empty), w)
	dlg.Resize(fyne.NewSize(420, 260))
	dlg.Show()
	readingTitle(w.Canvas())
	w.Canvas().Focus(typed)
	test.Type(typed, "بایگانی خبرنامه")

	box := dialogBox(w.Canvas().Overlays().Top())
	if box == nil {
		t.Fatal("no dialog on top")
	}
	drv := fyne.CurrentApp().Driver()
	rightOf := func(o fyne.CanvasObject) float32 { return drv.AbsolutePositionForObject(o).X + o.Size().Width }
	pad := theme.InnerPadding()
	near := func(a, b float32) bool { return a > b-2*pad-2 && a <= b+0.5 }

	title, ok := box.Objects[4].(*bidiLabel)
	if !ok {
		t.Fatalf("the dialog's title is a %T, not drawn in reading order", box.Objects[4])
	}
	if _, r, ok := textSpan(title); !ok || !near(r, rightOf(box)) {
		t.Errorf("the title ends at %v; the dialog's right edge is %v", r, rightOf(box))
	}
	if choice.Alignment != fyne.TextAlignTrailing {
		t.Error("the select's choice is not written from the right")
	}
	if _, r, ok := textSpan(choice); !ok || r < rightOf(choice)-choice.Size().Width/3 {
		t.Errorf("the select's choice ends at %v, far from its right edge %v", r, rightOf(choice))
	}
	if _, r, ok := textSpan(typed.seen); !ok || !near(r, rightOf(typed)) {
		t.Errorf("the entry's text ends at %v; its right edge is %v", r, rightOf(typed))
	}
	if _, r, ok := textSpan(empty.seen); !ok || !near(r, rightOf(empty)) || empty.seen.Text() != "نام را بنویسید" {
		t.Errorf("the placeholder %q ends at %v; the entry's right edge is %v", empty.seen.Text(), r, rightOf(empty))
	}
	if !typed.caret.Visible() {
		t.Fatal("the focused entry shows no cursor")
	}
	l, _, _ := textSpan(typed.seen)
	if at := drv.AbsolutePositionForObject(typed.caret).X; at > l+3 || at < l-5 {
		t.Errorf("the cursor after the last Persian word is at %v; the text starts at %v on the left", at, l)
	}
	test.AssertImageMatches(t, "rtl_dialog_widgets_fa.png", w.Canvas().Capture())
}

// TestCaretPlaces: in a right-to-left field, the cursor before a Persian
// letter stands at its right, after the last one at the left end of the
// word, and in a Latin name inside, at the Latin letters' left.
func TestCaretPlaces(t *testing.T) {
	test.NewTempApp(t)
	const width, pad, size = 300, 4, 14
	style := fyne.TextStyle{}
	boxes, end := caretPlaces("سلام", 4, rightToLeft, width, pad, size, style)
	if len(boxes) != 4 {
		t.Fatalf("%d boxes", len(boxes))
	}
	if _, start := caretPlaces("سلام", 0, rightToLeft, width, pad, size, style); start != boxes[0][1] || start < width-pad-0.5 {
		t.Errorf("before the first letter the cursor is at %v; the word ends at %v", start, boxes[0][1])
	}
	if end != boxes[3][0] || end >= boxes[0][1] {
		t.Errorf("after the last letter the cursor is at %v, want the word's left edge %v", end, boxes[3][0])
	}
	// "نامه abc": the Latin word is at the left, read left to right.
	boxes, at := caretPlaces("نامه abc", 6, rightToLeft, width, pad, size, style) // between a and b
	if !(boxes[5][0] < boxes[6][0] && boxes[6][0] < boxes[7][0] && boxes[7][0] < boxes[0][0]) {
		t.Errorf("the letters' places %v are not in reading order", boxes)
	}
	if at != boxes[6][0] {
		t.Errorf("between a and b the cursor is at %v, want %v", at, boxes[6][0])
	}
	if _, none := caretPlaces("", 0, rightToLeft, width, pad, size, style); none != width-pad {
		t.Errorf("in an empty field the cursor is at %v, want the right edge %v", none, width-pad)
	}
}

// TestFocusRingInDialogs: a control focused in a dialog has the window's
// focus ring around it, in a colour that stands out 3:1 or more from the
// dialog's background in both themes.
func TestFocusRingInDialogs(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(900, 640))
	h.d.settings.showSettings()
	c := h.d.win.Canvas()
	for _, choice := range []string{themeLight, themeDark} {
		h.app.Settings().SetTheme(newTheme(choice))
		th, v := h.app.Settings().Theme(), h.app.Settings().ThemeVariant()
		if r := contrast(focusColor(th), th.Color(theme.ColorNameOverlayBackground, v)); r < 3 {
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
		h.refresh()
		r := h.d.ring.inner
		if r == nil || !r.Visible() || r.StrokeColor != focusColor(th) {
			t.Fatalf("%s: no ring around the focused button in the dialog", choice)
		}
		drv := fyne.CurrentApp().Driver()
		at, ringAt := drv.AbsolutePositionForObject(button), drv.AbsolutePositionForObject(r)
		if ringAt.X > at.X || ringAt.Y > at.Y || ringAt.X+r.Size().Width < at.X+button.Size().Width || ringAt.Y+r.Size().Height < at.Y+button.Size().Height {
			t.Errorf("%s: the ring %v %v does not go round the button %v %v", choice, ringAt, r.Size(), at, button.Size())
		}
	}
	h.d.frame.closeTopDialog()
	h.refresh()
	if h.d.ring.inner.Visible() {
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
	c := newChooser(w, filechooser.Options{Title: say("ui.pick.files"), Multiple: true, Folder: dir}, func(p []string) { added = p })
	c.dlg.Resize(fyne.NewSize(760, 380))
	when := time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local)
	os.Chtimes(filepath.Join(dir, "عکس‌های جلسه"), when, when)
	c.show(dir)
	c.dlg.Show()
	readingTitle(w.Canvas())
	if len(c.items) != 5 || !c.items[0].dir || c.items[0].name != "عکس‌های جلسه" {
		t.Fatalf("the chooser lists %+v; want the folder first and no hidden file", c.items)
	}
	c.pick(c.items[slices.IndexFunc(c.items, func(it chooserItem) bool { return it.name == "نامه مشتری.eml" })])
	shown := map[string]bool{}
	walk(c.list, func(o fyne.CanvasObject) {
		if l, ok := o.(*bidiLabel); ok && l.Visible() && l.Text() != "" {
			shown[l.Text()] = true
			if _, r, ok := textSpan(l); !ok || r > fyne.CurrentApp().Driver().AbsolutePositionForObject(l).X+l.Size().Width+0.5 {
				t.Errorf("%q is drawn beyond its place", l.Text())
			}
		}
	})
	for _, n := range names[:4] {
		if !shown[n] {
			t.Errorf("%q is not shown whole (shown: %v)", n, shown)
		}
	}
	c.path.SetText(pathText("/home/user/Pictures")) // a fixed place for the image
	test.AssertImageMatches(t, "rtl_chooser_fa.png", w.Canvas().Capture())
	test.Tap(c.open)
	if len(added) != 1 || filepath.Base(added[0]) != "نامه مشتری.eml" {
		t.Errorf("Open added %v", added)
	}
}
