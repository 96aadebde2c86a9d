package ui

import (
	"math"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
)

// queueList is the virtualized list of jobs: only the rows on screen exist,
// and only the rows whose job changed are drawn again.
type queueList struct {
	widget.List

	views    []engine.JobView
	index    map[engine.JobID]int
	rowAt    map[int]*jobRow // the row object last given each index
	selected map[engine.JobID]bool
	anchor   engine.JobID // where a Shift+click range starts
	cursor   int          // the row the keyboard is on
	focused  bool         // the list has the keyboard's focus
	now      func() time.Time
	d        listController

	modifiers func() fyne.KeyModifier
}

func newQueueList(d listController, now func() time.Time) *queueList {
	l := &queueList{d: d, index: map[engine.JobID]int{}, rowAt: map[int]*jobRow{}, selected: map[engine.JobID]bool{}, now: now}
	l.modifiers = func() fyne.KeyModifier {
		if dd, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
			return dd.CurrentKeyModifiers()
		}
		return 0
	}
	l.Length = func() int { return len(l.views) }
	l.CreateItem = func() fyne.CanvasObject { return newJobRow(d) }
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < 0 || id >= len(l.views) {
			return
		}
		r := o.(*jobRow)
		if l.rowAt[r.index] == r {
			delete(l.rowAt, r.index)
		}
		r.index = id
		l.rowAt[id] = r
		r.show(l.views[id], l.now())
		r.setSelected(l.selected[l.views[id].ID])
		r.setCursor(l.focused && id == l.cursor)
	}
	// The list's own selection is one row; Hoist keeps its own set of
	// selected jobs, so that Shift+click and Ctrl+click select several.
	l.OnSelected = func(id widget.ListItemID) {
		l.click(id, l.modifiers())
		l.UnselectAll()
	}
	l.ExtendBaseWidget(l)
	return l
}

// click selects row i as a click with these modifiers would: alone, added
// or taken away (Ctrl), or the range from the last click (Shift).
func (l *queueList) click(i int, mods fyne.KeyModifier) {
	if i < 0 || i >= len(l.views) {
		return
	}
	id := l.views[i].ID
	l.cursor = i
	switch {
	case mods&fyne.KeyModifierShift != 0 && l.anchor != "":
		from, ok := l.index[l.anchor]
		if !ok {
			from = i
		}
		if mods&fyne.KeyModifierShortcutDefault == 0 {
			clear(l.selected)
		}
		for k := min(from, i); k <= max(from, i); k++ {
			l.selected[l.views[k].ID] = true
		}
	case mods&fyne.KeyModifierShortcutDefault != 0:
		if l.selected[id] {
			delete(l.selected, id)
		} else {
			l.selected[id] = true
		}
		l.anchor = id
	default:
		clear(l.selected)
		l.selected[id] = true
		l.anchor = id
	}
	l.selectionChanged()
}

// selectAll selects every row.
func (l *queueList) selectAll() {
	for _, v := range l.views {
		l.selected[v.ID] = true
	}
	l.selectionChanged()
}

// clearSelection selects nothing.
func (l *queueList) clearSelection() {
	if len(l.selected) == 0 {
		return
	}
	clear(l.selected)
	l.anchor = ""
	l.selectionChanged()
}

func (l *queueList) selectionChanged() {
	for i, r := range l.rowAt {
		if i < len(l.views) {
			r.setSelected(l.selected[l.views[i].ID])
		}
	}
	l.d.selectionChanged()
}

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
	step := l.rowHeight() + l.Theme().Size(theme.SizeNamePadding) // as the toolkit's list lays rows out
	if step <= 0 {
		return 0, len(l.views) - 1
	}
	top := l.GetScrollOffset()
	first = int(math.Ceil(float64(top / step)))
	last = int(math.Floor(float64((top+l.Size().Height+l.Theme().Size(theme.SizeNamePadding))/step))) - 1
	return first, max(first, min(last, len(l.views)-1))
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
	page := max(1, last-first)
	switch e.Name {
	case fyne.KeyDelete, fyne.KeyBackspace:
		l.deleteSelected()
	case fyne.KeySpace:
		l.click(l.cursor, l.modifiers())
		l.showCursor()
	case fyne.KeyUp:
		l.step(l.cursor - 1)
	case fyne.KeyDown:
		l.step(l.cursor + 1)
	case fyne.KeyPageUp:
		l.step(l.cursor - page)
	case fyne.KeyPageDown:
		l.step(l.cursor + page)
	case fyne.KeyHome:
		l.step(0)
	case fyne.KeyEnd:
		l.step(len(l.views) - 1)
	}
}

// step moves the cursor to row i and, unless Ctrl is held, selects it.
func (l *queueList) step(i int) {
	if len(l.views) == 0 {
		return
	}
	i = max(0, min(i, len(l.views)-1))
	mods := l.modifiers()
	l.moveCursor(i)
	if mods&fyne.KeyModifierShortcutDefault == 0 {
		l.click(i, mods)
	}
}

// moveCursor puts the cursor on row i and scrolls it into view.
func (l *queueList) moveCursor(i int) {
	l.cursor = max(0, min(i, len(l.views)-1))
	if len(l.views) > 0 {
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
	if sel := l.selectedViews(); len(sel) > 0 {
		l.d.removeRows(sel)
	}
}

// shown are the jobs on the list, as last sampled.
func (l *queueList) shown() []engine.JobView { return l.views }

// selectedViews are the selected jobs as last sampled, in the list's order.
func (l *queueList) selectedViews() []engine.JobView {
	var out []engine.JobView
	if len(l.selected) == 0 {
		return nil
	}
	for _, v := range l.views {
		if l.selected[v.ID] {
			out = append(out, v)
		}
	}
	return out
}

// apply puts a new sample on screen; it runs on the UI goroutine.
func (l *queueList) apply(u update) {
	l.views = u.views
	if u.reshaped {
		l.cursor = max(0, min(l.cursor, len(u.views)-1))
		clear(l.index)
		for i, v := range u.views {
			l.index[v.ID] = i
		}
		gone := false
		for id := range l.selected {
			if _, ok := l.index[id]; !ok {
				delete(l.selected, id)
				gone = true
			}
		}
		l.Refresh()
		if gone {
			l.d.selectionChanged()
		}
		return
	}
	// List.RefreshItem redraws the whole list; a changed row is drawn alone.
	now := l.now()
	for _, i := range u.changed {
		if r := l.rowAt[i]; r != nil {
			r.show(l.views[i], now)
		}
	}
}

// update is one sample of the queue, with what changed since the last one.
type update struct {
	views    []engine.JobView
	summary  engine.Summary
	changed  []int // rows whose job changed (or whose countdown moves on)
	reshaped bool  // jobs were added, removed or reordered: redraw the list
}

// sampler compares successive samples of the queue. It is owned by the
// goroutine that samples; nothing in it is shared with the UI.
type sampler struct {
	ids      []engine.JobID
	versions []uint64
	summary  summaryMark
	started  bool
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

// needed tells whether the queue may have changed since the last sample.
// Rows waiting to retry count down, so they are looked at every second.
func (s *sampler) needed(sum engine.Summary, retrying bool) bool {
	return !s.started || markOf(sum) != s.summary || retrying
}

// diff records views as the latest sample and says which rows changed.
func (s *sampler) diff(views []engine.JobView, sum engine.Summary) update {
	u := update{views: views, summary: sum}
	s.started = true
	s.summary = markOf(sum)
	if len(views) != len(s.ids) {
		u.reshaped = true
	} else {
		for i, v := range views {
			if v.ID != s.ids[i] {
				u.reshaped = true
				break
			}
		}
	}
	if u.reshaped {
		s.ids = s.ids[:0]
		s.versions = s.versions[:0]
		for _, v := range views {
			s.ids = append(s.ids, v.ID)
			s.versions = append(s.versions, v.Version)
		}
		return u
	}
	for i, v := range views {
		if v.Version != s.versions[i] || v.State == engine.Retrying {
			s.versions[i] = v.Version
			u.changed = append(u.changed, i)
		}
	}
	return u
}

// moving counts the jobs waiting or uploading: those that pausing would stop.
func moving(views []engine.JobView) int {
	n := 0
	for i := range views {
		if views[i].State.Moving() {
			n++
		}
	}
	return n
}

// countState counts the jobs in state s.
func countState(views []engine.JobView, s engine.State) int {
	n := 0
	for i := range views {
		if views[i].State == s {
			n++
		}
	}
	return n
}

// anyRetrying reports whether a countdown is on screen.
func anyRetrying(views []engine.JobView) bool {
	for i := range views {
		if views[i].State == engine.Retrying {
			return true
		}
	}
	return false
}
