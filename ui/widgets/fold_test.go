package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// TestFlowWrapsInReadingOrder: a Flow of buttons is one line where it fits
// and wraps where it does not, never narrower than its widest object, each
// line from the reading side or at the end side.
func TestFlowWrapsInReadingOrder(t *testing.T) {
	app(t)
	pad := theme.Padding()
	for _, rtl := range []bool{false, true} {
		direction(t, rtl)
		a, b, c := box(100, 20), box(100, 30), box(100, 20)
		f := Flow(fyne.TextAlignLeading, a, b, c)
		if got := f.MinSize().Width; got != 100 {
			t.Errorf("rtl %v: a Flow is %v wide at least, want its widest object's 100", rtl, got)
		}
		f.Resize(fyne.NewSize(400, f.MinSize().Height))
		if b.Position().Y != 0 || a.Position().Y != c.Position().Y || f.MinSize().Height != 30 {
			t.Errorf("rtl %v: at 400 wide the Flow is not one line 30 high: %v, %v, height %v", rtl, a.Position(), c.Position(), f.MinSize().Height)
		}
		first := a.Position().X
		if want := float32(0); rtl {
			if want = 400 - 100; first != want {
				t.Errorf("rtl %v: the first object is at %v, want the reading side %v", rtl, first, want)
			}
		} else if first != want {
			t.Errorf("rtl %v: the first object is at %v, want the reading side %v", rtl, first, want)
		}
		f.Resize(fyne.NewSize(250, f.MinSize().Height))
		if c.Position().Y != 30+pad || f.MinSize().Height != 30+pad+20 {
			t.Errorf("rtl %v: at 250 wide the third object is at %v and the Flow %v high, want a second line", rtl, c.Position(), f.MinSize().Height)
		}
		if c.Position().X != a.Position().X {
			t.Errorf("rtl %v: the second line starts at %v, the first at %v: both start at the reading side", rtl, c.Position().X, a.Position().X)
		}

		end := Flow(fyne.TextAlignTrailing, box(100, 20))
		end.Resize(fyne.NewSize(300, 20))
		x := end.Objects[0].Position().X
		if (rtl && x != 0) || (!rtl && x != 200) {
			t.Errorf("rtl %v: a trailing Flow's line starts at %v", rtl, x)
		}
	}
}

// TestFoldPutsTheEndUnderWhenNarrow: where start, centre and end fit on
// one line they are a Border's; where they do not, the end goes under the
// others at the end side, and the Fold is never wider than it has to be.
// The centre's room is kept when it is hidden.
func TestFoldPutsTheEndUnderWhenNarrow(t *testing.T) {
	app(t)
	pad := theme.Padding()
	for _, rtl := range []bool{false, true} {
		direction(t, rtl)
		start, centre := box(60, 20), box(150, 20)
		b1, b2 := box(100, 30), box(100, 30)
		end := Flow(fyne.TextAlignTrailing, b1, b2)
		f := Fold(start, centre, end)
		if got, want := f.MinSize().Width, 60+pad+150; got != want {
			t.Errorf("rtl %v: the Fold is %v wide at least, want start and centre's %v", rtl, got, want)
		}
		wide := 60 + pad + 150 + pad + 200 + pad + 50
		f.Resize(fyne.NewSize(wide, 30))
		if f.MinSize().Height != 30 || b1.Position().Y != 0 {
			t.Errorf("rtl %v: at %v wide the Fold is %v high with the end at %v, want one line", rtl, wide, f.MinSize().Height, b1.Position())
		}
		if got := centre.Size().Width; got != wide-60-pad-(200+pad)-pad {
			t.Errorf("rtl %v: the centre is %v wide, want the rest of the line", rtl, got)
		}
		f.Resize(fyne.NewSize(300, f.MinSize().Height))
		if got, want := f.MinSize().Height, 20+pad+30; got != want {
			t.Errorf("rtl %v: at 300 wide the Fold is %v high, want %v (two lines)", rtl, got, want)
		}
		f.Resize(fyne.NewSize(300, f.MinSize().Height))
		if b1.Position().Y+end.Position().Y != 20+pad {
			t.Errorf("rtl %v: at 300 wide the end is at %v, want the second line", rtl, end.Position())
		}
		if got := centre.Size().Width; got != 300-60-pad {
			t.Errorf("rtl %v: folded, the centre is %v wide, want the whole line but the start", rtl, got)
		}
		endX := end.Position().X
		if (rtl && endX != 0) || (!rtl && endX+end.Size().Width != 300) {
			t.Errorf("rtl %v: the folded end is at %v..%v, want the end side of 300", rtl, endX, endX+end.Size().Width)
		}
		for _, o := range []fyne.CanvasObject{start, centre, end} {
			if o.Position().X < 0 || o.Position().X+o.Size().Width > 300 {
				t.Errorf("rtl %v: %v at %v..%v is outside the 300 wide Fold", rtl, o, o.Position().X, o.Position().X+o.Size().Width)
			}
		}
		h := f.MinSize().Height
		centre.Hide()
		if f.MinSize().Height != h {
			t.Errorf("rtl %v: hiding the centre changed the Fold's height from %v to %v", rtl, h, f.MinSize().Height)
		}
		centre.Show()
	}
}

// TestWidthFirstPutsWhatFollowsAWrappedLineBelowIt: a column whose first
// line wraps when the window narrows, under WidthFirst, has its next line
// below the wrapped one; laid out once, it was under it.
func TestWidthFirstPutsWhatFollowsAWrappedLineBelowIt(t *testing.T) {
	app(t)
	a, b := box(100, 20), box(100, 20)
	next := box(50, 20)
	column := container.NewVBox(Flow(fyne.TextAlignLeading, a, b), next)
	root := container.New(&WidthFirst{}, column)
	root.Resize(fyne.NewSize(400, 200)) // one line
	if next.Position().Y != b.Position().Y+20+theme.Padding() {
		t.Fatalf("wide: the next line is at %v, the flow's line at %v", next.Position().Y, b.Position().Y)
	}
	root.Resize(fyne.NewSize(150, 200)) // two lines now
	if b.Position().Y == 0 {
		t.Fatal("narrow: the flow did not wrap")
	}
	if bottom := b.Position().Y + 20; next.Position().Y < bottom {
		t.Errorf("narrow: the next line is at %v, under the flow's second line (%v..%v)", next.Position().Y, b.Position().Y, bottom)
	}
}
