package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"hoist/engine"
	"hoist/ui/look"
	"hoist/ui/placement"
	"hoist/ui/queuelist"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// drawn is a piece of a widget as it is drawn: what it shows and where,
// in the window's coordinates.
type drawn struct {
	what     string
	pos      fyne.Position
	size     fyne.Size
	owner    fyne.CanvasObject // the innermost widget it belongs to
	ownerPos fyne.Position
}

// drawnPieces are the texts and images visible inside o, each with the
// widget it belongs to. A text is drawn as wide as its words, whatever
// size it was given, as the toolkit's painter does.
func drawnPieces(o fyne.CanvasObject) []drawn {
	var out []drawn
	drv := fyne.CurrentApp().Driver()
	var visit func(o, owner fyne.CanvasObject)
	visit = func(o, owner fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *canvas.Text:
			if strings.TrimSpace(x.Text) != "" {
				out = append(out, drawn{x.Text, drv.AbsolutePositionForObject(x), x.MinSize(), owner, drv.AbsolutePositionForObject(owner)})
			}
		case *canvas.Image:
			out = append(out, drawn{"an image", drv.AbsolutePositionForObject(x), x.Size(), owner, drv.AbsolutePositionForObject(owner)})
		case *fyne.Container:
			for _, c := range x.Objects {
				visit(c, owner)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(x).Objects() {
				visit(c, x)
			}
		}
	}
	visit(o, o)
	return out
}

// overlapping reports whether a and b, as drawn, cover some of the same
// place (by more than a rounding's worth).
func overlapping(a, b drawn) bool {
	const slack = 0.5
	return a.pos.X+a.size.Width-slack > b.pos.X && b.pos.X+b.size.Width-slack > a.pos.X &&
		a.pos.Y+a.size.Height-slack > b.pos.Y && b.pos.Y+b.size.Height-slack > a.pos.Y
}

// checkNothingDrawnOver fails when a text or an image inside o is drawn
// beyond the widget it belongs to, or over a piece of another widget.
func checkNothingDrawnOver(t *testing.T, name string, o fyne.CanvasObject) {
	t.Helper()
	pieces := drawnPieces(o)
	const slack = 0.5
	for i, p := range pieces {
		own := p.owner.Size()
		if p.pos.X < p.ownerPos.X-slack || p.pos.X+p.size.Width > p.ownerPos.X+own.Width+slack {
			t.Errorf("%s: %q is drawn at x %.1f..%.1f, beyond its %T at %.1f..%.1f", name, p.what,
				p.pos.X, p.pos.X+p.size.Width, p.owner, p.ownerPos.X, p.ownerPos.X+own.Width)
		}
		for _, q := range pieces[i+1:] {
			if p.owner != q.owner && overlapping(p, q) {
				t.Errorf("%s: %q (%T) and %q (%T) are drawn over each other", name, p.what, p.owner, q.what, q.owner)
			}
		}
	}
}

// narrowViews are files in the states that show the most buttons, with
// names long and short, in every script.
func narrowViews() []engine.JobView {
	var out []engine.JobView
	names := []string{"a.png", "گزارش نهایی فصل چهارم برای هیئت مدیره.eml", "تقرير_الحملة_2026.png", "דוח שנתי 2026 לפני הגשה.pdf", "Quarterly update for the whole team.eml"}
	for i, s := range shownStates() {
		v := s.View
		v.ID = engine.JobID(fmt.Sprintf("narrow-%d", i))
		v.Name = names[i%len(names)]
		out = append(out, v)
	}
	failed := shownStates()[2].View
	failed.ID, failed.Name = "narrow-restart", names[1]
	failed.Actions = []engine.Action{engine.Retry, engine.Restart, engine.Remove}
	out = append(out, failed)
	return out
}

// TestRowsDrawNothingOverAnything: however narrow the list (a small screen,
// a large scale, the selection's panel made wide), a row's name, size,
// state and buttons are each drawn inside their own place, never over one
// another or beyond the row: in a Persian window the name of a file was
// drawn over the row's picture and past its edge, in English over its size
// and buttons.
func TestRowsDrawNothingOverAnything(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			a := test.NewTempApp(t)
			a.Settings().SetTheme(look.NewTheme(look.ThemeLight))
			now := time.Unix(1_800_000_000, 0)
			for _, v := range narrowViews() {
				r := queuelist.NewJobRow(rowActions{})
				w := test.NewTempWindow(t, r)
				r.Draw(v, now)
				least := r.MinSize().Width
				for width := least; width <= least+400; width += 24 {
					w.Resize(fyne.NewSize(width+2*widgets.CompactPadding, r.MinSize().Height+8))
					r.Resize(fyne.NewSize(width, r.MinSize().Height))
					checkNothingDrawnOver(t, fmt.Sprintf("%s %s at %v", v.State, v.Name, width), r)
				}
			}
		})
	}
}

// smokeSizes are the windows the real-window test opens (scripts/xvfb-smoke.sh)
// and a small laptop's with its task bar, in Fyne units.
func smokeSizes() map[string]fyne.Size {
	return map[string]fyne.Size{
		"1280×800":        placement.WindowSize(fyne.Size{}, laptop(1280, 800, 0, 1)),
		"1024×600":        placement.WindowSize(fyne.Size{}, laptop(1024, 600, 0, 1)),
		"1024×600 panel":  placement.WindowSize(fyne.Size{}, laptop(1024, 600, 40, 1)),
		"1366×768 200 %":  placement.WindowSize(fyne.Size{}, laptop(1366, 768, 0, 2)),
		"1366×768 150 %":  placement.WindowSize(fyne.Size{}, laptop(1366, 768, 0, 1.5)),
		"1920×1080 200 %": placement.WindowSize(fyne.Size{}, laptop(1920, 1080, 0, 2)),
	}
}

// TestTheWindowFitsSideways: at every size the real-window test opens it
// (200 % on a 1366×768 screen is 580 units wide), in the four languages,
// with rows in every state, nothing in the window is wider than the window:
// it never scrolls sideways, and no row draws anything over anything else.
// The destination bar was 16 units wider than the window at 200 %.
func TestTheWindowFitsSideways(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			now := time.Unix(1_800_000_000, 0)
			h.d.draw(view.NewSnapshots().Make(readingOf(narrowViews(), now)))
			for name, size := range smokeSizes() {
				h.d.win.Resize(size)
				if got := h.d.win.Canvas().Size(); got.Width > size.Width+1 {
					t.Errorf("%s: asked for %v, the window is %v", name, size, got)
				}
				if need := h.d.page.Content.MinSize().Width; need > h.d.page.Size().Width+0.5 {
					t.Errorf("%s: the window's content needs %.1f units, %.1f more than the window: it scrolls sideways", name, need, need-h.d.page.Size().Width)
				}
				if len(drawnPieces(h.d.list)) < len(narrowViews()) {
					t.Fatalf("%s: the list draws no rows", name)
				}
				checkNothingDrawnOver(t, name, h.d.list)
			}
		})
	}
}

// TestTheWindowFitsUpright: at every size the real-window test opens it,
// in the four languages, with rows in every state, the window needs no
// scrolling up and down: the totals and the all-files buttons are on
// screen (at 200 % on 1366×768 the totals were below the window's edge).
func TestTheWindowFitsUpright(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		for _, sandbox := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s sandbox %v", code, sandbox), func(t *testing.T) {
				speakWindow(t, code)
				h := newHarness(t, harnessOptions{sandboxMode: sandbox})
				h.d.draw(view.NewSnapshots().Make(readingOf(narrowViews(), time.Unix(1_800_000_000, 0))))
				for name, size := range smokeSizes() {
					h.d.win.Resize(size)
					if need, have := h.d.page.Content.MinSize().Height, h.d.page.Size().Height; need > have+0.5 {
						t.Errorf("%s: the window's content needs %.1f units of height, %.1f more than the window: the totals are below its edge", name, need, need-have)
					}
					checkNothingDrawnOver(t, name, h.d.bar.Content) // a line that wraps pushes the next one down
					checkOneLine(t, name, h.d.foot.PauseAll, h.d.foot.ResumeAll, h.d.foot.RetryFailed, h.d.foot.ClearFinished)
					checkBelow(t, name, h.d.bar.Content, h.d.list, h.d.selection.Content)
				}
			})
		}
	}
}

// checkOneLine fails when the controls are not all on one line: the
// all-files buttons wrapped to two rows in Persian at 200 % on 1366×768.
func checkOneLine(t *testing.T, name string, controls ...*widgets.Button) {
	t.Helper()
	drv := fyne.CurrentApp().Driver()
	first := drv.AbsolutePositionForObject(controls[0]).Y
	for _, c := range controls[1:] {
		if y := drv.AbsolutePositionForObject(c).Y; y > first+0.5 || y < first-0.5 {
			t.Errorf("%s: the all-files buttons wrap to another line (%q at y %.1f, %q at %.1f)", name, c.Text, y, controls[0].Text, first)
			return
		}
	}
}

// checkBelow fails when something drawn inside top reaches below the top of
// any of under: the Google account line was drawn over the first row and
// the details' heading.
func checkBelow(t *testing.T, name string, top fyne.CanvasObject, under ...fyne.CanvasObject) {
	t.Helper()
	drv := fyne.CurrentApp().Driver()
	for _, u := range under {
		if !u.Visible() {
			continue
		}
		edge := drv.AbsolutePositionForObject(u).Y
		for _, p := range drawnPieces(top) {
			if bottom := p.pos.Y + p.size.Height; bottom > edge+0.5 {
				t.Errorf("%s: %q is drawn down to y %.1f, over %T, which starts at %.1f", name, p.what, bottom, u, edge)
			}
		}
	}
}

// TestSetUpKeepsItsButtonsOnScreen: the guided Google sign-in set-up, at
// every size the window opens at and in every language, shows Sign in and
// Close inside the window; where its steps do not fit they scroll above
// them. At 200 % on a small laptop both were below the dialog's edge.
func TestSetUpKeepsItsButtonsOnScreen(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			for name, size := range smokeSizes() {
				h.d.frame.CloseDialogs()
				h.d.win.Resize(size)
				h.d.google.ShowSetup()
				p := h.d.google.Setup
				drv := fyne.CurrentApp().Driver()
				bottom := h.d.win.Canvas().Size().Height
				for _, b := range []*widgets.Button{p.SignIn, p.CloseButton} {
					if y := drv.AbsolutePositionForObject(b).Y + b.Size().Height; y > bottom+0.5 || b.Size().Height == 0 {
						t.Errorf("%s: %q ends at y %.1f, below the window's %.1f", name, b.Text, y, bottom)
					}
				}
				p.Dialog.Hide()
			}
		})
	}
}
