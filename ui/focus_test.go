package ui

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hoist/engine"
	"hoist/ui/look"
	"hoist/ui/widgets"
)

// manyJobs are n rows in every state, more than the list shows at once.
func manyJobs(n int) []engine.JobView {
	var views []engine.JobView
	for _, v := range twentyJobs(time.Date(2026, 2, 2, 10, 0, 0, 0, time.UTC)) {
		views = append(views, v)
	}
	for i := len(views); i < n; i++ {
		v := views[i%20]
		v.ID, v.Name = engine.JobID(fmt.Sprintf("job%03d", i)), fmt.Sprintf("Photo %03d.png", i)
		views = append(views, v)
	}
	return views[:n]
}

// OnScreen reports whether obj lies wholly inside the window and inside
// the visible part of the scroll it is in.
func (h *harness) OnScreen(obj fyne.CanvasObject) bool {
	drv := fyne.CurrentApp().Driver()
	at, size := drv.AbsolutePositionForObject(obj), obj.Size()
	win := h.d.win.Canvas().Size()
	if at.X < 0 || at.Y < 0 || at.X+size.Width > win.Width+0.5 || at.Y+size.Height > win.Height+0.5 {
		return false
	}
	if s := h.d.selection.Scroll(); s.Visible() {
		in := drv.AbsolutePositionForObject(s.Content)
		inside := at.X >= in.X && at.Y >= in.Y && at.X <= in.X+s.Content.Size().Width && at.Y <= in.Y+s.Content.Size().Height
		top := drv.AbsolutePositionForObject(s).Y
		bottom := min(at.Y+size.Height, at.Y+s.Size().Height) // a control taller than the panel shows its top
		if inside && (at.Y < top-0.5 || bottom > top+s.Size().Height+0.5) {
			return false
		}
	}
	return true
}

// TestTabStaysOnScreen: on a small window whose list holds more rows than
// fit, Tab goes round every control once; the list is one stop, no button
// inside a row is one, and each control Tab lands on is on screen, the
// window scrolling to it when needed.
func TestTabStaysOnScreen(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(760, 420)) // smaller than the window's controls: the window scrolls
	h.showFixed(manyJobs(60))
	c := h.d.win.Canvas()

	var first fyne.Focusable
	stops, lists := 0, 0
	for range 200 {
		c.FocusNext()
		f := c.Focused()
		if f == nil {
			t.Fatal("Tab focused nothing")
		}
		if f == first {
			break
		}
		if first == nil {
			first = f
		}
		stops++
		h.Refresh()
		obj := f.(fyne.CanvasObject)
		if f == fyne.Focusable(h.d.list) {
			lists++
		} else if inside(obj, h.d.list) {
			t.Fatalf("Tab landed on a %T inside the list's rows", f)
		}
		if !h.OnScreen(obj) {
			t.Errorf("Tab landed on %T at %v (%v), off the %v window", f, fyne.CurrentApp().Driver().AbsolutePositionForObject(obj), obj.Size(), c.Size())
		}
	}
	if lists != 1 {
		t.Errorf("the list was %d stops of Tab, want 1", lists)
	}
	if stops < 5 || stops > 40 {
		t.Errorf("%d stops of Tab: the list's row buttons should not be among them", stops)
	}
}

// TestListCursorScrollsIntoView: with the list focused, Down moves a
// cursor that selects its row and scrolls it into view; after the list was
// scrolled away, Tab coming back puts the cursor on a row on screen.
func TestListCursorScrollsIntoView(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(1000, 700))
	h.showFixed(manyJobs(60))
	l := h.d.list
	c := h.d.win.Canvas()
	c.Focus(l)
	if l.Cursor != 0 || !l.RowAt[0].Cursor.Visible() {
		t.Fatal("the focused list does not outline its first row")
	}
	for range 30 {
		l.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if l.Cursor != 30 {
		t.Fatalf("cursor on row %d after 30 × Down", l.Cursor)
	}
	if l.GetScrollOffset() <= 0 {
		t.Fatal("the list did not scroll to follow the cursor")
	}
	row := l.RowAt[30]
	if row == nil || !row.Cursor.Visible() {
		t.Fatal("row 30 is not drawn with the cursor's outline")
	}
	top := fyne.CurrentApp().Driver().AbsolutePositionForObject(row).Y - fyne.CurrentApp().Driver().AbsolutePositionForObject(l).Y
	if top < 0 || top+row.Size().Height > l.Size().Height+0.5 {
		t.Errorf("the cursor's row is at %v..%v of a list %v high", top, top+row.Size().Height, l.Size().Height)
	}
	if sel := l.Snap.Selected; len(sel) != 1 || sel[0].ID != l.Views()[30].ID {
		t.Errorf("selected %v, want the cursor's row", names(sel))
	}
	if h.d.selection.Title.Text() != l.Views()[30].Name {
		t.Errorf("the selection's panel shows %q", h.d.selection.Title.Text())
	}

	l.ScrollToTop()
	c.Unfocus()
	if row.Cursor.Visible() {
		t.Error("the cursor's outline stays without the focus")
	}
	c.Focus(l)
	first, last := l.OnScreen()
	if l.Cursor < first || l.Cursor > last {
		t.Errorf("back on the list, the cursor is on row %d, off screen (%d–%d on screen)", l.Cursor, first, last)
	}
}

// TestFocusRingStandsOut: the ring around the focused control and the
// list's cursor stand out 3:1 or more from every background they are drawn
// on, in the light and the dark theme, and the ring is drawn around the
// focused control.
func TestFocusRingStandsOut(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(1000, 700))
	h.showFixed(manyJobs(30))
	c := h.d.win.Canvas()
	for _, choice := range []string{look.ThemeLight, look.ThemeDark} {
		h.app.Settings().SetTheme(look.NewTheme(choice))
		th, v := h.app.Settings().Theme(), h.app.Settings().ThemeVariant()
		ring := widgets.FocusColor(th)
		for _, bg := range []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameButton, theme.ColorNameSelection, theme.ColorNameInputBackground} {
			if r := contrast(ring, th.Color(bg, v)); r < 3 {
				t.Errorf("%s: the focus ring on %s: %.2f:1, want 3:1", choice, bg, r)
			}
		}

		add := h.d.bar.Add
		c.Focus(add)
		h.Refresh()
		r := h.d.ring.ring
		if !r.Visible() || r.StrokeColor != ring || r.StrokeWidth < 2 {
			t.Fatalf("%s: the ring is not drawn around the focused button (shown %v, colour %v)", choice, r.Visible(), r.StrokeColor)
		}
		drv := fyne.CurrentApp().Driver()
		at, ringAt := drv.AbsolutePositionForObject(add), drv.AbsolutePositionForObject(r)
		if ringAt.X > at.X || ringAt.Y > at.Y || ringAt.X+r.Size().Width < at.X+add.Size().Width || ringAt.Y+r.Size().Height < at.Y+add.Size().Height {
			t.Errorf("%s: the ring %v %v does not go round the button %v %v", choice, ringAt, r.Size(), at, add.Size())
		}

		c.Focus(h.d.list)
		h.Refresh()
		if h.d.ring.ring.Visible() {
			t.Errorf("%s: the ring goes round the whole list, where its cursor is outlined", choice)
		}
		cur := h.d.list.RowAt[h.d.list.Cursor].Cursor
		if !cur.Visible() || cur.StrokeColor != ring {
			t.Errorf("%s: the list's cursor is not outlined in the ring's colour", choice)
		}
		c.Unfocus()
		h.Refresh()
		if h.d.ring.ring.Visible() {
			t.Errorf("%s: the ring stays with nothing focused", choice)
		}
	}
}

// inside reports whether obj is drawn within the area of o.
func inside(obj, o fyne.CanvasObject) bool {
	drv := fyne.CurrentApp().Driver()
	at, in := drv.AbsolutePositionForObject(obj), drv.AbsolutePositionForObject(o)
	return at.X >= in.X && at.Y >= in.Y && at.X < in.X+o.Size().Width && at.Y < in.Y+o.Size().Height
}

// TestTabInADialogStaysOnScreen: in the settings, longer than a small
// window, each control Tab lands on is scrolled into the dialog's view.
func TestTabInADialogStaysOnScreen(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.win.Resize(fyne.NewSize(700, 320))
	h.d.settings.ShowSettings()
	s := h.d.frame.Scrolls[len(h.d.frame.Scrolls)-1]
	if s.Content.MinSize().Height <= s.Size().Height {
		t.Fatalf("the settings (%v high) fit their dialog (%v): the test needs them to scroll", s.Content.MinSize().Height, s.Size().Height)
	}
	c := h.d.win.Canvas()
	drv := fyne.CurrentApp().Driver()
	var first fyne.Focusable
	scrolled := false
	for range 60 {
		c.FocusNext()
		f := c.Focused()
		if f == nil || f == first {
			break
		}
		if first == nil {
			first = f
		}
		h.Refresh()
		obj := f.(fyne.CanvasObject)
		if !inside(obj, s.Content) {
			continue
		}
		top := drv.AbsolutePositionForObject(obj).Y - drv.AbsolutePositionForObject(s).Y
		bottom := top + min(obj.Size().Height, s.Size().Height)
		if top < -0.5 || bottom > s.Size().Height+0.5 {
			t.Errorf("Tab landed on a %T at %v..%v of a dialog showing 0..%v", f, top, bottom, s.Size().Height)
		}
		scrolled = scrolled || s.Offset.Y > 0
	}
	if !scrolled {
		t.Error("Tab never scrolled the settings")
	}
}
