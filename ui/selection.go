package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
)

// selectionPanel shows everything about the selected files, never cut
// short (it wraps and scrolls), with a button for each action the engine
// allows one of them (JobView.Actions) and, for one finished file, its
// result: one file's details, or how many are selected.
type selectionPanel struct {
	d       selectionController
	title   *bidiParagraph
	body    *bidiParagraph
	buttons map[engine.Action]*widget.Button
	result  *widget.Button
	inner   *fyne.Container
	content fyne.CanvasObject

	views []engine.JobView // the selection as last shown
}

func newSelectionPanel(d selectionController) *selectionPanel {
	p := &selectionPanel{d: d, buttons: map[engine.Action]*widget.Button{}}
	p.title = newBidiParagraph("") // a file's name, in any script
	p.title.style = fyne.TextStyle{Bold: true}
	p.body = newBidiParagraph("")
	box := container.NewVBox()
	for _, a := range engine.AllActions() {
		b := widget.NewButtonWithIcon(visual(buttonWords(a)), actionIcon(a), func() {
			if len(p.views) > 0 {
				p.d.doSelected(a, slices.Clone(p.views))
			}
		})
		p.buttons[a] = b
		box.Add(b)
	}
	p.result = widget.NewButtonWithIcon(visual(showResultWords()), theme.InfoIcon(), func() {
		if len(p.views) == 1 {
			p.d.showResult(p.views[0])
		}
	})
	box.Add(p.result)
	p.inner = container.NewVBox(p.title, box, p.body)
	p.content = container.NewVScroll(p.inner)
	p.show(nil, time.Time{})
	return p
}

func actionIcon(a engine.Action) fyne.Resource {
	switch a {
	case engine.Pause:
		return theme.MediaPauseIcon()
	case engine.Resume:
		return theme.MediaPlayIcon()
	case engine.SignIn:
		return theme.LoginIcon()
	case engine.Cancel:
		return theme.CancelIcon()
	case engine.Retry:
		return theme.ViewRefreshIcon()
	case engine.Restart:
		return theme.MediaReplayIcon()
	case engine.Remove:
		return theme.DeleteIcon()
	}
	return theme.InfoIcon()
}

// selectionActions are the actions any of the selected jobs allows, as the
// engine says, in the engine's order.
func selectionActions(sel []engine.JobView) []engine.Action {
	var out []engine.Action
	for _, a := range engine.AllActions() {
		for _, v := range sel {
			if v.Allows(a) {
				out = append(out, a)
				break
			}
		}
	}
	return out
}

// show puts the selection on the panel; it runs on the UI goroutine.
func (p *selectionPanel) show(sel []engine.JobView, now time.Time) {
	p.views = sel
	allowed := selectionActions(sel)
	for a, b := range p.buttons {
		showIf(b, slices.Contains(allowed, a))
	}
	showIf(p.result, len(sel) == 1 && sel[0].State == engine.Done)
	switch len(sel) {
	case 0:
		p.title.SetText(noSelectionTitle())
		p.body.SetText(noSelectionHint())
	case 1:
		p.title.SetText(sel[0].Name)
		p.body.SetText(detailsWords(sel[0], now))
	default:
		p.title.SetText(selectedWords(len(sel)))
		var size int64
		for _, v := range sel {
			size += v.Size
		}
		p.body.SetText(say("ui.selection.size", "Size", speaking().Size(size)))
	}
	for _, o := range p.inner.Objects {
		o.Refresh()
	}
	p.inner.Refresh() // buttons came or went
}

// detailsWords is everything about a job, in full.
func detailsWords(v engine.JobView, now time.Time) string {
	var lines []string
	lines = append(lines, stateWords(v, now))
	if g := googleWords(v); g != "" {
		lines = append(lines, g)
	}
	if p := progressWords(v); p != "" {
		lines = append(lines, p)
	}
	if e := v.Email; e != nil {
		lines = append(lines, say("ui.field.subject", "Subject", detailWords(v)))
	}
	if r := v.Result; r != nil {
		if r.ID != "" {
			lines = append(lines, say("ui.field.id", "Label", idLabel(v), "ID", isolate(r.ID)))
		}
		if r.URL != "" {
			lines = append(lines, say("ui.field.link", "Link", isolate(r.URL)))
		}
	}
	lines = append(lines, say("ui.field.file", "File", isolate(v.Path)), say("ui.field.size", "Size", speaking().Size(v.Size)), say("ui.field.to", "To", destWords(v)))
	if v.Account != "" {
		lines = append(lines, say("ui.field.account", "Account", isolate(v.Account)))
	}
	return strings.Join(lines, "\n")
}

// removal is rows taken off the list that Undo can still bring back. Until
// it is final the jobs stay in the queue, hidden from the list.
type removal struct {
	mu     sync.Mutex
	hidden map[engine.JobID]bool // read by the sampling goroutine

	pending []engine.JobID // UI goroutine only
	gen     int
}

func (r *removal) hide(ids []engine.JobID, on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.hidden == nil {
		r.hidden = map[engine.JobID]bool{}
	}
	for _, id := range ids {
		if on {
			r.hidden[id] = true
		} else {
			delete(r.hidden, id)
		}
	}
}

// visible leaves the hidden jobs out of views.
func (r *removal) visible(views []engine.JobView) []engine.JobView {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.hidden) == 0 {
		return views
	}
	return slices.DeleteFunc(views, func(v engine.JobView) bool { return r.hidden[v.ID] })
}

// undoFor is how long a removal can be undone.
const undoFor = 8 * time.Second

// removeRows takes rows off the list at once, with an Undo; the queue
// forgets them when the Undo is gone.
func (d *desk) removeRows(views []engine.JobView) {
	if len(views) == 0 {
		return
	}
	d.commitRemoval() // an earlier removal is final once another starts
	ids := make([]engine.JobID, len(views))
	for i, v := range views {
		ids[i] = v.ID
	}
	d.removal.pending = ids
	d.removal.gen++
	gen := d.removal.gen
	d.removal.hide(ids, true)
	d.list.clearSelection()
	d.undoText.SetText(removedWords(len(views), views[0].Name))
	d.undoBar.Show()
	d.resample.Store(true)
	time.AfterFunc(undoFor, func() {
		d.later(func() {
			if d.removal.gen == gen {
				d.commitRemoval()
			}
		})
	})
}

// undoRemoval brings the last removed rows back.
func (d *desk) undoRemoval() {
	ids := d.removal.pending
	d.removal.pending = nil
	d.removal.gen++
	d.removal.hide(ids, false)
	d.undoBar.Hide()
	d.resample.Store(true)
}

// commitRemoval makes the last removal final: the queue forgets the jobs.
func (d *desk) commitRemoval() {
	ids := d.removal.pending
	if len(ids) == 0 {
		return
	}
	d.removal.pending = nil
	d.removal.gen++
	d.undoBar.Hide()
	d.background(func(context.Context) {
		for _, id := range ids {
			if err := d.q.Remove(id); err != nil {
				d.log.Info("remove refused", "job", id, "err", err)
			}
		}
		d.later(func() { d.removal.hide(ids, false) })
	})
}

// doSelected takes a on every selected job that allows it, as the engine
// says; removing is done with an Undo, signing in through the browser.
func (d *desk) doSelected(a engine.Action, views []engine.JobView) {
	views = slices.DeleteFunc(views, func(v engine.JobView) bool { return !v.Allows(a) })
	if len(views) == 0 {
		return
	}
	switch a {
	case engine.Remove:
		d.removeRows(views)
		return
	case engine.SignIn:
		views = views[:1] // one sign-in in the browser sends on every upload of the account
	}
	for _, v := range views {
		d.do(v, a)
	}
}

// showIf shows o when on is set, else hides it.
func showIf(o fyne.CanvasObject, on bool) {
	if on && !o.Visible() {
		o.Show()
	} else if !on && o.Visible() {
		o.Hide()
	}
}
