package queuelist

import (
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"hoist/engine"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// SelectionPanel shows everything about the selected files, never cut
// short (it wraps and scrolls), with a button for each action the engine
// allows one of them (JobView.Actions) and, for one finished file, its
// result: one file's details, or how many are selected.
type SelectionPanel struct {
	Host    SelectionController
	Title   *widgets.Paragraph
	Body    *widgets.Paragraph
	Buttons map[engine.Action]*widgets.Button
	Result  *widgets.Button
	Inner   *fyne.Container
	Content fyne.CanvasObject

	Snap *view.Snapshot // the snapshot drawn; its selected rows are the panel's
}

func NewSelectionPanel(d SelectionController) *SelectionPanel {
	p := &SelectionPanel{Host: d, Buttons: map[engine.Action]*widgets.Button{}}
	p.Title = widgets.NewParagraph("") // a file's name, in any script
	p.Title.Style = fyne.TextStyle{Bold: true}
	p.Body = widgets.NewParagraph("")
	box := container.NewVBox()
	for _, a := range engine.AllActions() {
		b := widgets.NewIconButton(view.Visual(view.ButtonWords(a)), actionIcon(a), func() {
			if sel := p.Snap.Selected; len(sel) > 0 {
				p.Host.DoSelected(a, slices.Clone(sel))
			}
		})
		p.Buttons[a] = b
		box.Add(b)
	}
	p.Result = widgets.NewIconButton(view.Visual(view.ShowResultWords()), theme.InfoIcon(), func() {
		if sel := p.Snap.Selected; len(sel) == 1 {
			p.Host.ShowResult(sel[0])
		}
	})
	box.Add(p.Result)
	p.Inner = container.NewVBox(p.Title, box, p.Body)
	p.Content = container.NewVScroll(p.Inner)
	p.Draw(view.NewSnapshots().Last)
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

// Draw draws the selection of snapshot s; it runs on the UI goroutine.
func (p *SelectionPanel) Draw(s *view.Snapshot) {
	p.Snap = s
	sel, now := s.Selected, s.Now
	allowed := selectionActions(sel)
	for a, b := range p.Buttons {
		ShowIf(b, slices.Contains(allowed, a))
	}
	ShowIf(p.Result, len(sel) == 1 && sel[0].State == engine.Done)
	switch len(sel) {
	case 0:
		p.Title.SetText(view.NoSelectionTitle())
		p.Body.SetText(view.NoSelectionHint())
	case 1:
		p.Title.SetText(sel[0].Name)
		p.Body.SetText(DetailsWords(sel[0], now))
	default:
		p.Title.SetText(view.SelectedWords(len(sel)))
		var size int64
		for _, v := range sel {
			size += v.Size
		}
		p.Body.SetText(view.Say("ui.selection.size", "Size", view.Speaking().Size(size)))
	}
	for _, o := range p.Inner.Objects {
		o.Refresh()
	}
	p.Inner.Refresh() // buttons came or went
}

// DetailsWords is everything about a job, in full.
func DetailsWords(v engine.JobView, now time.Time) string {
	var lines []string
	lines = append(lines, view.StateWords(v, now))
	if g := view.GoogleWords(v); g != "" {
		lines = append(lines, g)
	}
	if p := view.ProgressWords(v); p != "" {
		lines = append(lines, p)
	}
	if c := view.ConfirmedWords(v); c != "" {
		lines = append(lines, c)
	}
	if e := v.Email; e != nil {
		lines = append(lines, view.Say("ui.field.subject", "Subject", detailWords(v)))
	}
	if r := v.Result; r != nil {
		if r.ID != "" {
			lines = append(lines, view.Say("ui.field.id", "Label", view.IdLabel(v), "ID", view.Isolate(r.ID)))
		}
		if r.URL != "" {
			lines = append(lines, view.Say("ui.field.link", "Link", view.Isolate(r.URL)))
		}
	}
	lines = append(lines, view.Say("ui.field.file", "File", view.Isolate(v.Path)), view.Say("ui.field.size", "Size", view.Speaking().Size(v.Size)), view.Say("ui.field.to", "To", DestWords(v)))
	if v.Account != "" {
		lines = append(lines, view.Say("ui.field.account", "Account", view.Isolate(v.Account)))
	}
	return strings.Join(lines, "\n")
}

// ShowIf shows o when on is set, else hides it.
func ShowIf(o fyne.CanvasObject, on bool) {
	if on && !o.Visible() {
		o.Show()
	} else if !on && o.Visible() {
		o.Hide()
	}
}

// Scroll is the panel's scroll, which the focus keeps on screen.
func (p *SelectionPanel) Scroll() *container.Scroll {
	s, _ := p.Content.(*container.Scroll)
	return s
}

// SelectionController is what the selection's panel asks of the window.
type SelectionController interface {
	// DoSelected takes a on every job of views that allows it.
	DoSelected(a engine.Action, views []engine.JobView)
	ShowResult(v engine.JobView)
	ShowDetails(v engine.JobView)
}
