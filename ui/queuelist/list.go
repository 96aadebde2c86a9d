// Package queuelist is the list of uploads and what stands around it:
// the rows (a file's, or a mailbox's folded into one), their thumbnails and
// status lines, the selection's panel with its details, and the bar under
// the list with the totals, the all-files buttons and Undo. Each part draws
// a view.Snapshot and sends what the user asks for through the small
// interface of its own (ListController, FooterController,
// SelectionController; a row asks through the list's).
package queuelist

import (
	"math"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// QueueList is the virtualized list of jobs: only the rows on screen exist,
// and only the rows whose job changed are drawn again. It draws the rows and
// the selection of the latest snapshot; a click or a key asks the window for
// another selection, which comes back in the next snapshot.
type QueueList struct {
	widget.List

	Snap    *view.Snapshot
	RowAt   map[int]*JobRow // the row object last given each index
	Cursor  int             // the row the keyboard is on
	focused bool            // the list has the keyboard's focus
	hover   int             // the row under the pointer, -1 for none
	// pointerRow is the row object the pointer last came onto: the one the
	// toolkit tells when the pointer leaves, whatever row it shows by then.
	pointerRow *JobRow
	// WheelLayer lies over the list and takes the mouse wheel (wheel).
	WheelLayer *widgets.Wheel
	Host       ListController

	modifiers func() fyne.KeyModifier
}

func NewQueueList(d ListController) *QueueList {
	l := &QueueList{Host: d, RowAt: map[int]*JobRow{}, Snap: view.NewSnapshots().Last, hover: -1}
	l.modifiers = func() fyne.KeyModifier {
		if dd, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
			return dd.CurrentKeyModifiers()
		}
		return 0
	}
	l.Length = func() int { return len(l.Snap.Rows) }
	l.CreateItem = func() fyne.CanvasObject {
		r := NewJobRow(d)
		r.onHover = l.rowHovered
		return r
	}
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		rows := l.Snap.Rows
		if id < 0 || id >= len(rows) {
			return
		}
		v := l.Snap.View(id)
		r := o.(*JobRow)
		if l.RowAt[r.Index] == r {
			delete(l.RowAt, r.Index)
		}
		r.Index = id
		l.RowAt[id] = r
		r.Draw(v, l.Snap.Now)
		if g := l.Snap.Mailboxes[rows[id].ID]; g != nil {
			r.showMailbox(g)
		}
		r.setSelected(l.Snap.Selection.Has(rows[id].ID))
		r.setHovered(id == l.hover) // a row taken for another index leaves its hover behind
		r.setCursor(l.focused && id == l.Cursor)
	}
	// The list's own selection is one row; the window keeps a set of
	// selected jobs, so that Shift+click and Ctrl+click select several.
	l.OnSelected = func(id widget.ListItemID) {
		l.Click(id, l.modifiers())
		l.UnselectAll()
	}
	l.WheelLayer = widgets.NewWheel(l.wheel)
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
func (l *QueueList) wheel(ev *fyne.ScrollEvent) {
	dy := ev.Scrolled.DY
	step := l.RowHeight() + l.Theme().Size(theme.SizeNamePadding)
	if notch := toolkitNotch(); notch > 0 && step > 0 {
		dy *= wheelRows * step / notch
	}
	l.ScrollToOffset(l.GetScrollOffset() - dy)
	l.hoverAt(ev.Position)
}

// hoverAt highlights the row at pos (relative to the list), or none.
func (l *QueueList) hoverAt(pos fyne.Position) {
	step := l.RowHeight() + l.Theme().Size(theme.SizeNamePadding)
	i := -1
	if step > 0 && pos.Y >= 0 && pos.Y < l.Size().Height && pos.X >= 0 && pos.X < l.Size().Width {
		if k := int((l.GetScrollOffset() + pos.Y) / step); k < len(l.Snap.Rows) {
			i = k
		}
	}
	l.setHover(i)
}

// rowHovered: the pointer came onto row r, or left it.
func (l *QueueList) rowHovered(r *JobRow, in bool) {
	switch {
	case in:
		l.pointerRow = r
		l.setHover(r.Index)
	case r == l.pointerRow:
		l.pointerRow = nil
		l.setHover(-1)
	}
}

func (l *QueueList) setHover(i int) {
	l.hover = i
	for k, r := range l.RowAt {
		if r.Index == k {
			r.setHovered(k == i)
		}
	}
}

// DrawsOwnFocus: the window's ring is not drawn round the list; its cursor shows.
func (l *QueueList) DrawsOwnFocus() {}

// Views are the rows of the snapshot drawn, each one's whole view (for
// tests: a long list reads only the rows it draws).
func (l *QueueList) Views() []engine.JobView {
	out := make([]engine.JobView, len(l.Snap.Rows))
	for i := range out {
		out[i] = l.Snap.View(i)
	}
	return out
}

// Click asks for the selection a click on row i with these modifiers makes.
func (l *QueueList) Click(i int, mods fyne.KeyModifier) {
	if i < 0 || i >= len(l.Snap.Rows) {
		return
	}
	l.Cursor = i
	if id := l.Snap.Rows[i].ID; view.IsMailboxRow(id) && mods == 0 {
		l.Host.OpenMailbox(id) // its emails are listed under it, or no longer
	}
	l.Host.SelectRows(l.Snap.Selection.Click(l.Snap.Rows, l.Snap.Index, i, mods))
}

// SelectAll asks for every row to be selected.
func (l *QueueList) SelectAll() { l.Host.SelectRows(view.Every(l.Snap.Rows)) }

// FocusGained: Tab reached the list. Its cursor goes to a row on screen,
// and is outlined.
func (l *QueueList) FocusGained() {
	l.focused = true
	if first, last := l.OnScreen(); l.Cursor < first || l.Cursor > last {
		l.Cursor = first
	}
	l.moveCursor(l.Cursor)
}

// OnScreen are the first and last rows wholly on screen.
func (l *QueueList) OnScreen() (first, last int) {
	n := len(l.Snap.Rows)
	step := l.RowHeight() + l.Theme().Size(theme.SizeNamePadding) // as the toolkit's list lays rows out
	if step <= 0 {
		return 0, n - 1
	}
	top := l.GetScrollOffset()
	first = int(math.Ceil(float64(top / step)))
	last = int(math.Floor(float64((top+l.Size().Height+l.Theme().Size(theme.SizeNamePadding))/step))) - 1
	return first, max(first, min(last, n-1))
}

// RowHeight is the height of a row, or 0 before any is drawn.
func (l *QueueList) RowHeight() float32 {
	for _, r := range l.RowAt {
		return r.Size().Height
	}
	return 0
}

// FocusLost: the cursor's outline goes.
func (l *QueueList) FocusLost() {
	l.focused = false
	l.showCursor()
}

// TypedKey: Up, Down, Home, End, Page Up and Page Down move the cursor and
// select its row (with Shift, from the last one clicked; with Ctrl, the
// cursor moves alone); Space selects the cursor's row (with Ctrl, adds or
// takes it away); Delete removes the selected rows.
func (l *QueueList) TypedKey(e *fyne.KeyEvent) {
	first, last := l.OnScreen()
	switch e.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		l.DeleteSelected()
	case fyne.KeySpace:
		l.Click(l.Cursor, l.modifiers())
		l.showCursor()
	default:
		if to, ok := widgets.CursorMove(e.Name, l.Cursor, last-first, len(l.Snap.Rows)); ok {
			l.step(to)
		}
	}
}

// step moves the cursor to row i and, unless Ctrl is held, selects it.
func (l *QueueList) step(i int) {
	if len(l.Snap.Rows) == 0 {
		return
	}
	i = max(0, min(i, len(l.Snap.Rows)-1))
	mods := l.modifiers()
	l.moveCursor(i)
	if mods&fyne.KeyModifierShortcutDefault == 0 {
		l.Click(i, mods)
	}
}

// moveCursor puts the cursor on row i and scrolls it into view.
func (l *QueueList) moveCursor(i int) {
	l.Cursor = max(0, min(i, len(l.Snap.Rows)-1))
	if len(l.Snap.Rows) > 0 {
		l.ScrollTo(l.Cursor)
	}
	l.showCursor()
}

// showCursor outlines the cursor's row while the list has the focus.
func (l *QueueList) showCursor() {
	for i, r := range l.RowAt {
		r.setCursor(l.focused && i == l.Cursor)
	}
}

func (l *QueueList) DeleteSelected() {
	if len(l.Snap.Selected) > 0 {
		l.Host.RemoveRows(l.Snap.Selected)
	}
}

// Draw draws snapshot s; it runs on the UI goroutine.
func (l *QueueList) Draw(s *view.Snapshot) {
	was := l.Snap
	l.Snap = s
	if s.Reshaped {
		l.Cursor = max(0, min(l.Cursor, len(s.Rows)-1))
		l.Refresh()
		return
	}
	// List.RefreshItem redraws the whole list; a changed row is drawn alone.
	for _, i := range s.Changed {
		if r := l.RowAt[i]; r != nil {
			r.Draw(s.View(i), s.Now)
			if g := s.Mailboxes[s.Rows[i].ID]; g != nil {
				r.showMailbox(g)
			}
		}
	}
	if !s.Selection.Same(was.Selection) {
		for i, r := range l.RowAt {
			if i < len(s.Rows) {
				r.setSelected(s.Selection.Has(s.Rows[i].ID))
			}
		}
	}
}

// Sampler tells the sampling goroutine whether the queue may have changed
// since its last reading. It is owned by that goroutine.
type Sampler struct {
	Summary summaryMark
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

// Needed tells whether the queue may have changed since the last reading,
// and takes sum as the latest. Rows waiting to retry count down, so they
// are looked at every time.
func (s *Sampler) Needed(sum engine.Summary, retrying bool) bool {
	changed := !s.started || markOf(sum) != s.Summary || retrying
	s.started, s.Summary = true, markOf(sum)
	return changed
}

// AnyRetrying reports whether a countdown is on screen.
func AnyRetrying(views []engine.Brief) bool {
	for i := range views {
		if views[i].State == engine.Retrying {
			return true
		}
	}
	return false
}

// ListController is what the list asks of the window.
type ListController interface {
	rowController
	RemoveRows(views []engine.JobView) // off the list, with an Undo
	SelectRows(sel view.Selection)     // makes sel the selection
	OpenMailbox(id engine.JobID)       // lists a mailbox's emails under its row, or no longer
}
