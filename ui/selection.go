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

// jobAction is something the user can do to a job from its row or the
// selection's panel.
type jobAction int

const (
	doPause jobAction = iota
	doResume
	doCancel
	doRetry
	doRestart
	doRemove
	doResult
	doDetails
)

// actionsFor are the actions v's state allows, in the order buttons show them.
func actionsFor(v engine.JobView) []jobAction {
	switch v.State {
	case engine.Waiting, engine.Checking, engine.Uploading, engine.Retrying:
		return []jobAction{doPause, doCancel}
	case engine.Paused:
		return []jobAction{doResume, doCancel}
	case engine.Attention:
		if v.FileChanged {
			return []jobAction{doRestart, doRemove} // resuming would only stop again
		}
		return []jobAction{doResume, doRestart, doRemove}
	case engine.Done:
		return []jobAction{doResult, doRemove}
	case engine.Failed:
		return []jobAction{doRetry, doDetails, doRemove}
	case engine.Refused:
		return []jobAction{doDetails, doRemove}
	case engine.Canceled:
		return []jobAction{doRetry, doRemove}
	}
	return nil
}

// selectionPanel shows everything about the selected files, never cut
// short (it wraps and scrolls), with buttons for what they allow: one file's
// details, or how many are selected.
type selectionPanel struct {
	title   *bidiParagraph
	body    *bidiParagraph
	buttons map[jobAction]*widget.Button
	inner   *fyne.Container
	content fyne.CanvasObject

	views []engine.JobView // the selection as last shown
}

func newSelectionPanel(do func(jobAction, []engine.JobView)) *selectionPanel {
	p := &selectionPanel{buttons: map[jobAction]*widget.Button{}}
	p.title = newBidiParagraph("") // a file's name, in any script
	p.title.style = fyne.TextStyle{Bold: true}
	p.body = newBidiParagraph("")
	box := container.NewVBox()
	for _, a := range []jobAction{doPause, doResume, doRetry, doRestart, doResult, doCancel, doRemove} {
		b := widget.NewButtonWithIcon(visual(buttonWords(a)), actionIcon(a), func() {
			if len(p.views) > 0 {
				do(a, slices.Clone(p.views))
			}
		})
		p.buttons[a] = b
		box.Add(b)
	}
	p.inner = container.NewVBox(p.title, box, p.body)
	p.content = container.NewVScroll(p.inner)
	p.show(nil, time.Time{})
	return p
}

func actionIcon(a jobAction) fyne.Resource {
	switch a {
	case doPause:
		return theme.MediaPauseIcon()
	case doResume:
		return theme.MediaPlayIcon()
	case doCancel:
		return theme.CancelIcon()
	case doRetry:
		return theme.ViewRefreshIcon()
	case doRestart:
		return theme.MediaReplayIcon()
	case doRemove:
		return theme.DeleteIcon()
	}
	return theme.InfoIcon()
}

// show puts the selection on the panel; it runs on the UI goroutine.
func (p *selectionPanel) show(sel []engine.JobView, now time.Time) {
	p.views = sel
	allowed := map[jobAction]bool{}
	for _, v := range sel {
		for _, a := range actionsFor(v) {
			allowed[a] = true
		}
	}
	for a, b := range p.buttons {
		if allowed[a] && (a != doResult || len(sel) == 1) {
			b.Show()
		} else {
			b.Hide()
		}
	}
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

// doSelected runs an action on every selected job that allows it.
func (d *desk) doSelected(a jobAction, views []engine.JobView) {
	var some []engine.JobView
	for _, v := range views {
		if slices.Contains(actionsFor(v), a) {
			some = append(some, v)
		}
	}
	if len(some) == 0 {
		return
	}
	switch a {
	case doRemove:
		d.removeRows(some)
		return
	case doResult:
		d.showResult(some[0])
		return
	case doDetails:
		d.showDetails(some[0])
		return
	}
	for _, v := range some {
		d.act(engineAction[a], v)
	}
}
