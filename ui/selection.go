package ui

import (
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"hoist/engine"
	"hoist/ui/widgets"
)

// selectionPanel shows everything about the selected files, never cut
// short (it wraps and scrolls), with a button for each action the engine
// allows one of them (JobView.Actions) and, for one finished file, its
// result: one file's details, or how many are selected.
type selectionPanel struct {
	d       selectionController
	title   *widgets.Paragraph
	body    *widgets.Paragraph
	buttons map[engine.Action]*widgets.Button
	result  *widgets.Button
	inner   *fyne.Container
	content fyne.CanvasObject

	snap *snapshot // the snapshot drawn; its selected rows are the panel's
}

func newSelectionPanel(d selectionController) *selectionPanel {
	p := &selectionPanel{d: d, buttons: map[engine.Action]*widgets.Button{}}
	p.title = widgets.NewParagraph("") // a file's name, in any script
	p.title.Style = fyne.TextStyle{Bold: true}
	p.body = widgets.NewParagraph("")
	box := container.NewVBox()
	for _, a := range engine.AllActions() {
		b := widgets.NewIconButton(visual(buttonWords(a)), actionIcon(a), func() {
			if sel := p.snap.selected; len(sel) > 0 {
				p.d.doSelected(a, slices.Clone(sel))
			}
		})
		p.buttons[a] = b
		box.Add(b)
	}
	p.result = widgets.NewIconButton(visual(showResultWords()), theme.InfoIcon(), func() {
		if sel := p.snap.selected; len(sel) == 1 {
			p.d.showResult(sel[0])
		}
	})
	box.Add(p.result)
	p.inner = container.NewVBox(p.title, box, p.body)
	p.content = container.NewVScroll(p.inner)
	p.show(newSnapshots().last)
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

// show draws the selection of snapshot s; it runs on the UI goroutine.
func (p *selectionPanel) show(s *snapshot) {
	p.snap = s
	sel, now := s.selected, s.now
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
	if c := confirmedWords(v); c != "" {
		lines = append(lines, c)
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

// showIf shows o when on is set, else hides it.
func showIf(o fyne.CanvasObject, on bool) {
	if on && !o.Visible() {
		o.Show()
	} else if !on && o.Visible() {
		o.Hide()
	}
}

// scroll is the panel's scroll, which the focus keeps on screen.
func (p *selectionPanel) scroll() *container.Scroll {
	s, _ := p.content.(*container.Scroll)
	return s
}

// selectionController is what the selection's panel asks of the window.
type selectionController interface {
	// doSelected takes a on every job of views that allows it.
	doSelected(a engine.Action, views []engine.JobView)
	showResult(v engine.JobView)
	showDetails(v engine.JobView)
}
