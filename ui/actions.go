package ui

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/ui/queuelist"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// actions does what the user asks of files: one of the actions the engine
// allows a job, to one or to every selected one, to every file at once from
// the bar under the list, and shows a finished file's result or a file's
// whole state. Removing goes through the removals, with an Undo; signing
// in through the browser first.
type actions struct {
	frame    *view.WindowFrame
	q        *engine.Queue // safe from any goroutine
	log      *slog.Logger
	removals *view.Removals
	signIn   func(v engine.JobView) // the browser's part of a sign-in; the engine's follows
	now      func() time.Time
}

// Do takes one of the actions the engine allows a job.
func (a *actions) Do(v engine.JobView, act engine.Action) {
	if view.IsMailboxRow(v.ID) {
		a.DoSelected(act, []engine.JobView{v}) // to each of its emails
		return
	}
	switch act {
	case engine.SignIn:
		a.signIn(v)
	case engine.Remove:
		a.removals.RemoveRows([]engine.JobView{v})
	default:
		a.act(act, v)
	}
}

// DoSelected takes act on every selected job that allows it, as the engine
// says.
func (a *actions) DoSelected(act engine.Action, views []engine.JobView) {
	views = a.emailsOf(views)
	views = slices.DeleteFunc(views, func(v engine.JobView) bool { return !v.Allows(act) })
	if len(views) == 0 {
		return
	}
	switch act {
	case engine.Remove:
		a.removals.RemoveRows(views)
		return
	case engine.SignIn:
		views = views[:1] // one sign-in in the browser sends on every upload of the account
	}
	for _, v := range views {
		a.Do(v, act)
	}
}

// DoAll does act to every file that allows it, off the UI goroutine.
func (a *actions) DoAll(act queuelist.AllAction) {
	f := map[queuelist.AllAction]func(){queuelist.PauseEvery: a.q.PauseAll, queuelist.ResumeEvery: a.q.ResumeAll, queuelist.RetryFailed: a.q.RetryFailed, queuelist.ClearFinished: a.q.ClearFinished}[act]
	a.frame.Background(func(context.Context) { f() })
}

// act does a job action off the UI goroutine; a refusal is said in words.
func (a *actions) act(act engine.Action, v engine.JobView) {
	a.frame.Background(func(context.Context) {
		err := a.q.Do(v.ID, act)
		if err == nil || errors.Is(err, engine.ErrNoJob) {
			return
		}
		a.log.Info("action refused", "action", act, "job", v.ID, "err", err)
		a.frame.Later(func() {
			a.frame.Tell(view.Say("ui.action.refused", "Action", view.Speaking().Action(string(act)), "File", view.Isolate(v.Name), "Why", view.ErrorWords(err)))
		})
	})
}

// ShowResult shows what the server made of a finished file, with a copy button
// and, where there is a link, a way to open it.
func (a *actions) ShowResult(v engine.JobView) {
	f := a.frame
	r := v.Result
	if r == nil {
		f.Open(widgets.NewSentenceDialog(v.Name, view.Say("ui.result.none"), f.Win))
		return
	}
	rows := container.NewVBox()
	field := func(label, value string) {
		if value == "" {
			return
		}
		// Readable and selectable, where a disabled entry would grey it out;
		// the toolkit draws it as it is given, so it is given the value as it
		// is seen (the copy button copies the value itself).
		shown := widget.NewLabel(view.Visual(value))
		shown.Selectable = true
		shown.Truncation = fyne.TextTruncateEllipsis
		copyButton := widgets.NewIconButton(view.Visual(view.Say("ui.copy")), theme.ContentCopyIcon(), func() {
			f.CopyText(value)
			f.Tell(view.Say("ui.copied", "What", label))
		})
		rows.Add(widgets.NewLabel(label))
		rows.Add(widgets.Border(nil, nil, nil, copyButton, shown))
	}
	if view.ResultWords(r) != "" {
		rows.Add(widgets.NewParagraph(view.ResultWords(r)))
	}
	field(view.IdLabel(v), r.ID)
	field(view.Say("ui.result.thread"), r.ThreadID)
	field(view.Say("ui.result.name"), r.Name)
	field(view.Say("ui.result.link"), r.URL)
	if u, err := url.Parse(r.URL); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		rows.Add(widgets.NewIconButton(view.Visual(view.Say("ui.browser.open")), theme.ComputerIcon(), func() {
			if err := f.App.OpenURL(u); err != nil {
				f.Tell(view.Say("ui.browser.failed", "Why", view.ErrorWords(err)))
			}
		}))
	}
	dlg := widgets.NewInfoDialog(v.Name, view.Visual(view.Say("ui.close")), rows, f.Win)
	dlg.Resize(f.Fit(fyne.NewSize(520, 0)))
	f.Open(dlg)
}

// ShowDetails shows a row's whole state, which the row may have cut short.
func (a *actions) ShowDetails(v engine.JobView) {
	text := view.StateWords(v, a.now())
	if g := view.GoogleWords(v); g != "" {
		text += "\n\n" + g
	}
	if p := view.ProgressWords(v); p != "" {
		text += "\n\n" + p
		if c := view.ConfirmedWords(v); c != "" {
			text += "\n" + c
		}
	}
	text += "\n\n" + view.Say("ui.field.file", "File", view.Isolate(v.Path)) + "\n" + view.Say("ui.field.size", "Size", view.Speaking().Size(v.Size)) + "\n" + view.Say("ui.field.to", "To", queuelist.DestWords(v))
	l := widgets.NewParagraph(text)
	dlg := widgets.NewInfoDialog(v.Name, view.Visual(view.Say("ui.close")), l, a.frame.Win)
	dlg.Resize(a.frame.Fit(fyne.NewSize(520, 0)))
	a.frame.Open(dlg)
}

// emailsOf is views with each mailbox's row replaced by its emails, as
// the queue holds them now (an action on the row is taken on each).
func (a *actions) emailsOf(views []engine.JobView) []engine.JobView {
	if !slices.ContainsFunc(views, func(v engine.JobView) bool { return view.IsMailboxRow(v.ID) }) {
		return views
	}
	briefs := a.q.Briefs()
	out := make([]engine.JobView, 0, len(views))
	for _, v := range views {
		if !view.IsMailboxRow(v.ID) {
			out = append(out, v)
			continue
		}
		first := engine.JobID(strings.TrimPrefix(string(v.ID), view.MailboxRowPrefix))
		for _, run := range view.MailboxRuns(briefs) {
			if briefs[run[0]].ID != first {
				continue
			}
			for _, b := range briefs[run[0]:run[1]] {
				if e, ok := a.q.Job(b.ID); ok {
					out = append(out, e)
				}
			}
		}
	}
	return out
}
