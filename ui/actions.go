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
	"hoist/ui/widgets"
)

// actions does what the user asks of files: one of the actions the engine
// allows a job, to one or to every selected one, to every file at once from
// the bar under the list, and shows a finished file's result or a file's
// whole state. Removing goes through the removals, with an Undo; signing
// in through the browser first.
type actions struct {
	frame    *windowFrame
	q        *engine.Queue // safe from any goroutine
	log      *slog.Logger
	removals *removals
	signIn   func(v engine.JobView) // the browser's part of a sign-in; the engine's follows
	now      func() time.Time
}

// do takes one of the actions the engine allows a job.
func (a *actions) do(v engine.JobView, act engine.Action) {
	if isMailboxRow(v.ID) {
		a.doSelected(act, []engine.JobView{v}) // to each of its emails
		return
	}
	switch act {
	case engine.SignIn:
		a.signIn(v)
	case engine.Remove:
		a.removals.removeRows([]engine.JobView{v})
	default:
		a.act(act, v)
	}
}

// doSelected takes act on every selected job that allows it, as the engine
// says.
func (a *actions) doSelected(act engine.Action, views []engine.JobView) {
	views = a.emailsOf(views)
	views = slices.DeleteFunc(views, func(v engine.JobView) bool { return !v.Allows(act) })
	if len(views) == 0 {
		return
	}
	switch act {
	case engine.Remove:
		a.removals.removeRows(views)
		return
	case engine.SignIn:
		views = views[:1] // one sign-in in the browser sends on every upload of the account
	}
	for _, v := range views {
		a.do(v, act)
	}
}

// doAll does act to every file that allows it, off the UI goroutine.
func (a *actions) doAll(act allAction) {
	f := map[allAction]func(){pauseEvery: a.q.PauseAll, resumeEvery: a.q.ResumeAll, retryFailed: a.q.RetryFailed, clearFinished: a.q.ClearFinished}[act]
	a.frame.background(func(context.Context) { f() })
}

// act does a job action off the UI goroutine; a refusal is said in words.
func (a *actions) act(act engine.Action, v engine.JobView) {
	a.frame.background(func(context.Context) {
		err := a.q.Do(v.ID, act)
		if err == nil || errors.Is(err, engine.ErrNoJob) {
			return
		}
		a.log.Info("action refused", "action", act, "job", v.ID, "err", err)
		a.frame.later(func() {
			a.frame.tell(say("ui.action.refused", "Action", speaking().Action(string(act)), "File", isolate(v.Name), "Why", errorWords(err)))
		})
	})
}

// showResult shows what the server made of a finished file, with a copy button
// and, where there is a link, a way to open it.
func (a *actions) showResult(v engine.JobView) {
	f := a.frame
	r := v.Result
	if r == nil {
		f.open(widgets.NewSentenceDialog(v.Name, say("ui.result.none"), f.win))
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
		shown := widget.NewLabel(visual(value))
		shown.Selectable = true
		shown.Truncation = fyne.TextTruncateEllipsis
		copyButton := widgets.NewIconButton(visual(say("ui.copy")), theme.ContentCopyIcon(), func() {
			f.copyText(value)
			f.tell(say("ui.copied", "What", label))
		})
		rows.Add(widgets.NewLabel(label))
		rows.Add(widgets.Border(nil, nil, nil, copyButton, shown))
	}
	if resultWords(r) != "" {
		rows.Add(widgets.NewParagraph(resultWords(r)))
	}
	field(idLabel(v), r.ID)
	field(say("ui.result.thread"), r.ThreadID)
	field(say("ui.result.name"), r.Name)
	field(say("ui.result.link"), r.URL)
	if u, err := url.Parse(r.URL); err == nil && (u.Scheme == "https" || u.Scheme == "http") {
		rows.Add(widgets.NewIconButton(visual(say("ui.browser.open")), theme.ComputerIcon(), func() {
			if err := f.app.OpenURL(u); err != nil {
				f.tell(say("ui.browser.failed", "Why", errorWords(err)))
			}
		}))
	}
	dlg := widgets.NewInfoDialog(v.Name, visual(say("ui.close")), rows, f.win)
	dlg.Resize(f.fit(fyne.NewSize(520, 0)))
	f.open(dlg)
}

// showDetails shows a row's whole state, which the row may have cut short.
func (a *actions) showDetails(v engine.JobView) {
	text := stateWords(v, a.now())
	if g := googleWords(v); g != "" {
		text += "\n\n" + g
	}
	if p := progressWords(v); p != "" {
		text += "\n\n" + p
		if c := confirmedWords(v); c != "" {
			text += "\n" + c
		}
	}
	text += "\n\n" + say("ui.field.file", "File", isolate(v.Path)) + "\n" + say("ui.field.size", "Size", speaking().Size(v.Size)) + "\n" + say("ui.field.to", "To", destWords(v))
	l := widgets.NewParagraph(text)
	dlg := widgets.NewInfoDialog(v.Name, visual(say("ui.close")), l, a.frame.win)
	dlg.Resize(a.frame.fit(fyne.NewSize(520, 0)))
	a.frame.open(dlg)
}

// emailsOf is views with each mailbox's row replaced by its emails, as
// the queue holds them now (an action on the row is taken on each).
func (a *actions) emailsOf(views []engine.JobView) []engine.JobView {
	if !slices.ContainsFunc(views, func(v engine.JobView) bool { return isMailboxRow(v.ID) }) {
		return views
	}
	briefs := a.q.Briefs()
	out := make([]engine.JobView, 0, len(views))
	for _, v := range views {
		if !isMailboxRow(v.ID) {
			out = append(out, v)
			continue
		}
		first := engine.JobID(strings.TrimPrefix(string(v.ID), mailboxRowPrefix))
		for _, run := range mailboxRuns(briefs) {
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
