package ui

import (
	"math"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/ui/widgets"
)

// queueList is the virtualized list of jobs: only the rows on screen exist,
// and only the rows whose job changed are drawn again. It draws the rows and
// the selection of the latest snapshot; a click or a key asks the window for
// another selection, which comes back in the next snapshot.
type queueList struct {
	widget.List

	snap    *snapshot
	rowAt   map[int]*jobRow // the row object last given each index
	cursor  int             // the row the keyboard is on
	focused bool            // the list has the keyboard's focus
	hover   int             // the row under the pointer, -1 for none
	// pointerRow is the row object the pointer last came onto: the one the
	// toolkit tells when the pointer leaves, whatever row it shows by then.
	pointerRow *jobRow
	// wheelLayer lies over the list and takes the mouse wheel (wheel).
	wheelLayer *widgets.Wheel
	d          listController

	modifiers func() fyne.KeyModifier
}

func newQueueList(d listController) *queueList {
	l := &queueList{d: d, rowAt: map[int]*jobRow{}, snap: newSnapshots().last, hover: -1}
	l.modifiers = func() fyne.KeyModifier {
		if dd, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
			return dd.CurrentKeyModifiers()
		}
		return 0
	}
	l.Length = func() int { return len(l.snap.rows) }
	l.CreateItem = func() fyne.CanvasObject {
		r := newJobRow(d)
		r.onHover = l.rowHovered
		return r
	}
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		rows := l.snap.rows
		if id < 0 || id >= len(rows) {
			return
		}
		v := l.snap.view(id)
		r := o.(*jobRow)
		if l.rowAt[r.index] == r {
			delete(l.rowAt, r.index)
		}
		r.index = id
		l.rowAt[id] = r
		r.show(v, l.snap.now)
		if g := l.snap.mailboxes[rows[id].ID]; g != nil {
			r.showMailbox(g)
		}
		r.setSelected(l.snap.selection.has(rows[id].ID))
		r.setHovered(id == l.hover) // a row taken for another index leaves its hover behind
		r.setCursor(l.focused && id == l.cursor)
	}
	// The list's own selection is one row; the window keeps a set of
	// selected jobs, so that Shift+click and Ctrl+click select several.
	l.OnSelected = func(id widget.ListItemID) {
		l.click(id, l.modifiers())
		l.UnselectAll()
	}
	l.wheelLayer = widgets.NewWheel(l.wheel)
	l.ExtendBaseWidget(l)
	return l
}

// wheelRows is how many rows one notch of the mouse wheel moves the list,
// as a desktop list moves about three lines a notch.
const wheelRows = 3

// toolkitNotch is how far the toolkit moves a scroll for one notch of the
// wheel; 0 where its own distance is kept (macOS, whose trackpads send
// many small steps and whose scrolling the user has set up).
func toolkitNotch() float32 {
	if runtime.GOOS == "darwin" {
		return 0
	}
	return 25
}

// wheel moves the list by the wheel's event: wheelRows rows a notch. The
// row under the pointer, which the wheel changed without the pointer
// moving, is the one highlighted.
func (l *queueList) wheel(ev *fyne.ScrollEvent) {
	dy := ev.Scrolled.DY
	step := l.rowHeight() + l.Theme().Size(theme.SizeNamePadding)
	if notch := toolkitNotch(); notch > 0 && step > 0 {
		dy *= wheelRows * step / notch
	}
	l.ScrollToOffset(l.GetScrollOffset() - dy)
	l.hoverAt(ev.Position)
}

// hoverAt highlights the row at pos (relative to the list), or none.
func (l *queueList) hoverAt(pos fyne.Position) {
	step := l.rowHeight() + l.Theme().Size(theme.SizeNamePadding)
	i := -1
	if step > 0 && pos.Y >= 0 && pos.Y < l.Size().Height && pos.X >= 0 && pos.X < l.Size().Width {
		if k := int((l.GetScrollOffset() + pos.Y) / step); k < len(l.snap.rows) {
			i = k
		}
	}
	l.setHover(i)
}

// rowHovered: the pointer came onto row r, or left it.
func (l *queueList) rowHovered(r *jobRow, in bool) {
	switch {
	case in:
		l.pointerRow = r
		l.setHover(r.index)
	case r == l.pointerRow:
		l.pointerRow = nil
		l.setHover(-1)
	}
}

func (l *queueList) setHover(i int) {
	l.hover = i
	for k, r := range l.rowAt {
		if r.index == k {
			r.setHovered(k == i)
		}
	}
}

// drawsOwnFocus: the window's ring is not drawn round the list; its cursor shows.
func (l *queueList) drawsOwnFocus() {}

// views are the rows of the snapshot drawn, each one's whole view (for
// tests: a long list reads only the rows it draws).
func (l *queueList) views() []engine.JobView {
	out := make([]engine.JobView, len(l.snap.rows))
	for i := range out {
		out[i] = l.snap.view(i)
	}
	return out
}

// click asks for the selection a click on row i with these modifiers makes.
func (l *queueList) click(i int, mods fyne.KeyModifier) {
	if i < 0 || i >= len(l.snap.rows) {
		return
	}
	l.cursor = i
	if id := l.snap.rows[i].ID; isMailboxRow(id) && mods == 0 {
		l.d.openMailbox(id) // its emails are listed under it, or no longer
	}
	l.d.selectRows(l.snap.selection.click(l.snap.rows, l.snap.index, i, mods))
}

// selectAll asks for every row to be selected.
func (l *queueList) selectAll() { l.d.selectRows(every(l.snap.rows)) }

// FocusGained: Tab reached the list. Its cursor goes to a row on screen,
// and is outlined.
func (l *queueList) FocusGained() {
	l.focused = true
	if first, last := l.onScreen(); l.cursor < first || l.cursor > last {
		l.cursor = first
	}
	l.moveCursor(l.cursor)
}

// onScreen are the first and last rows wholly on screen.
func (l *queueList) onScreen() (first, last int) {
	n := len(l.snap.rows)
	step := l.rowHeight() + l.Theme().Size(theme.SizeNamePadding) // as the toolkit's list lays rows out
	if step <= 0 {
		return 0, n - 1
	}
	top := l.GetScrollOffset()
	first = int(math.Ceil(float64(top / step)))
	last = int(math.Floor(float64((top+l.Size().Height+l.Theme().Size(theme.SizeNamePadding))/step))) - 1
	return first, max(first, min(last, n-1))
}

// rowHeight is the height of a row, or 0 before any is drawn.
func (l *queueList) rowHeight() float32 {
	for _, r := range l.rowAt {
		return r.Size().Height
	}
	return 0
}

// FocusLost: the cursor's outline goes.
func (l *queueList) FocusLost() {
	l.focused = false
	l.showCursor()
}

// TypedKey: Up, Down, Home, End, Page Up and Page Down move the cursor and
// select its row (with Shift, from the last one clicked; with Ctrl, the
// cursor moves alone); Space selects the cursor's row (with Ctrl, adds or
// takes it away); Delete removes the selected rows.
func (l *queueList) TypedKey(e *fyne.KeyEvent) {
	first, last := l.onScreen()
	switch e.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		l.deleteSelected()
	case fyne.KeySpace:
		l.click(l.cursor, l.modifiers())
		l.showCursor()
	default:
		if to, ok := widgets.CursorMove(e.Name, l.cursor, last-first, len(l.snap.rows)); ok {
			l.step(to)
		}
	}
}

// step moves the cursor to row i and, unless Ctrl is held, selects it.
func (l *queueList) step(i int) {
	if len(l.snap.rows) == 0 {
		return
	}
	i = max(0, min(i, len(l.snap.rows)-1))
	mods := l.modifiers()
	l.moveCursor(i)
	if mods&fyne.KeyModifierShortcutDefault == 0 {
		l.click(i, mods)
	}
}

// moveCursor puts the cursor on row i and scrolls it into view.
func (l *queueList) moveCursor(i int) {
	l.cursor = max(0, min(i, len(l.snap.rows)-1))
	if len(l.snap.rows) > 0 {
		l.ScrollTo(l.cursor)
	}
	l.showCursor()
}

// showCursor outlines the cursor's row while the list has the focus.
func (l *queueList) showCursor() {
	for i, r := range l.rowAt {
		r.setCursor(l.focused && i == l.cursor)
	}
}

func (l *queueList) deleteSelected() {
	if len(l.snap.selected) > 0 {
		l.d.removeRows(l.snap.selected)
	}
}

// show draws snapshot s; it runs on the UI goroutine.
func (l *queueList) show(s *snapshot) {
	was := l.snap
	l.snap = s
	if s.reshaped {
		l.cursor = max(0, min(l.cursor, len(s.rows)-1))
		l.Refresh()
		return
	}
	// List.RefreshItem redraws the whole list; a changed row is drawn alone.
	for _, i := range s.changed {
		if r := l.rowAt[i]; r != nil {
			r.show(s.view(i), s.now)
			if g := s.mailboxes[s.rows[i].ID]; g != nil {
				r.showMailbox(g)
			}
		}
	}
	if !s.selection.same(was.selection) {
		for i, r := range l.rowAt {
			if i < len(s.rows) {
				r.setSelected(s.selection.has(s.rows[i].ID))
			}
		}
	}
}

// sampler tells the sampling goroutine whether the queue may have changed
// since its last reading. It is owned by that goroutine.
type sampler struct {
	summary summaryMark
	started bool
}

// summaryMark is what of a summary tells that the list changed. The sum of
// versions alone does not: jobs brought back from the journal are all at
// version 0, so removing one leaves the sum as it was.
type summaryMark struct {
	version                             uint64
	files, done, failed, active, paused int
	bytes, bytesDone                    int64
}

func markOf(s engine.Summary) summaryMark {
	return summaryMark{s.Version, s.Files, s.Done, s.Failed, s.Active, s.Paused, s.Bytes, s.BytesDone}
}

// needed tells whether the queue may have changed since the last reading,
// and takes sum as the latest. Rows waiting to retry count down, so they
// are looked at every time.
func (s *sampler) needed(sum engine.Summary, retrying bool) bool {
	changed := !s.started || markOf(sum) != s.summary || retrying
	s.started, s.summary = true, markOf(sum)
	return changed
}

// anyRetrying reports whether a countdown is on screen.
func anyRetrying(views []engine.Brief) bool {
	for i := range views {
		if views[i].State == engine.Retrying {
			return true
		}
	}
	return false
}

// listController is what the list asks of the window.
type listController interface {
	rowController
	removeRows(views []engine.JobView) // off the list, with an Undo
	selectRows(sel selection)          // makes sel the selection
	openMailbox(id engine.JobID)       // lists a mailbox's emails under its row, or no longer
}
