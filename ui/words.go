package ui

import (
	"strings"
	"time"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/engine/media"
	"hoist/words"
)

// The words the window uses for states, sizes and times: plain sentences
// for people who have never heard of HTTP, in the window's language.

// reasonWords is why a job stopped: the engine's fact in the window's
// language, or the sentence an older list of uploads holds.
func reasonWords(v engine.JobView) string {
	if v.Fact != nil {
		return speaking().Fact(*v.Fact)
	}
	return v.Reason
}

// nextWords is the next step after reasonWords, worded the same way.
func nextWords(v engine.JobView) string {
	if v.NextFact != nil {
		return speaking().Fact(*v.NextFact)
	}
	return v.Next
}

// serverWords names who holds a job's uploads, inside a sentence: Google,
// the sandbox or the server.
func serverWords(v engine.JobView) string { return speaking().Who(v.Server) }

// stateWords is the state of a job in plain words, with its reason and the
// next step where there is one.
func stateWords(v engine.JobView, now time.Time) string {
	l := speaking()
	state := string(v.State)
	switch v.State {
	case engine.Checking:
		return l.StateCheckingWith(state, serverWords(v))
	case engine.Uploading:
		return l.StateThen(state, sentence(nextWords(v))) // e.g. the upload honestly started again from the beginning
	case engine.Retrying:
		msg := sentence(reasonWords(v))
		if !v.RetryAt.IsZero() && v.NextFact != nil && v.NextFact.Code == fact.AskIn {
			ask := *v.NextFact // it will ask the destination, not send again
			ask.Wait = max(v.RetryAt.Sub(now), 0)
			return joinSentences(msg, l.Fact(ask))
		}
		if !v.RetryAt.IsZero() {
			return joinSentences(msg, say("ui.retryIn", "When", inWords(v.RetryAt.Sub(now))))
		}
		return joinSentences(msg, nextWords(v))
	case engine.Done:
		done := l.StateAnd(state, checkedWords(v.Result))
		if v.FellBack {
			done += " " + say("ui.oneGo")
		}
		if r := resultWords(v.Result); r != "" {
			return joinSentences(done, r)
		}
		return done
	case engine.Refused:
		return l.StateWith(state, sentence(reasonWords(v)))
	case engine.Paused:
		// A pause gives up what the server had not confirmed: the row
		// shows less than it did a moment ago, and says why.
		var lost string
		if v.Unconfirmed >= unconfirmedSaid {
			lost = say("ui.paused.unconfirmed", "Size", l.Size(v.Unconfirmed))
		}
		if why := reasonWords(v); why != "" {
			return l.StateWith(state, joinSentences(lost, why, nextWords(v)))
		}
		if lost != "" {
			return l.StateWith(state, lost)
		}
	case engine.Attention, engine.Failed:
		return l.StateWith(state, joinSentences(reasonWords(v), nextWords(v)))
	}
	return l.State(state)
}

// unconfirmedSaid is the least a pause gives up that a row says: less is
// a moment's sending, and the row's count hardly moves.
const unconfirmedSaid = 1 << 20

// googleWords are the server's own words behind a row's reason, under
// "Details", e.g. Details — Google said: “The caller does not have
// permission”; "" when it said none.
func googleWords(v engine.JobView) string {
	if v.Details == "" {
		return ""
	}
	who := speaking().Who(v.DetailsFrom)
	return say("ui.details.said", "Who", words.CapitalFirst(who), "Said", isolate(v.Details))
}

// confirmedWords says what the server confirmed of a file whose bytes went
// further than that; "" when it confirmed all that was sent.
func confirmedWords(v engine.JobView) string {
	if v.Delivered <= v.Committed || v.State == engine.Done {
		return ""
	}
	return say("ui.field.confirmed", "Size", speaking().Size(v.Committed))
}

// progressWords is the byte count, speed and time left of a job, or "" when
// there is nothing to say.
func progressWords(v engine.JobView) string {
	if !v.State.ShowsProgress() {
		return ""
	}
	done := max(v.Delivered, v.Committed) // moves while one large request is in flight
	if v.Size <= 0 || (done == 0 && v.State != engine.Uploading) {
		return ""
	}
	l := speaking()
	parts := []string{say("ui.progress.of", "Done", l.Size(done), "Total", l.Size(v.Size))}
	if v.State == engine.Uploading {
		if v.Speed > 0 {
			parts = append(parts, l.Speed(v.Speed))
		}
		if v.ETA >= 0 && v.Speed > 0 {
			parts = append(parts, l.TimeLeft(v.ETA))
		}
	}
	// Between the parts: "·" in English and Hebrew; in Persian and Arabic,
	// where a raised dot reads as the digit zero (۰, ٠), their comma.
	return strings.Join(parts, say("ui.progress.sep"))
}

// summaryWords is the whole queue in a line, e.g.
// "3 of 12 files, 1.2 GB of 3.4 GB, about 4 minutes left". Canceled files
// are not counted among those to upload; they are said apart.
func summaryWords(s engine.Summary, canceled int) string {
	if s.Files == 0 {
		return say("ui.summary.none")
	}
	files := s.Files - canceled
	if files <= 0 {
		return say("ui.summary.allCanceled", "N", canceled)
	}
	l := speaking()
	parts := []string{say("count.filesDone", "Done", s.Done, "N", files)}
	if s.Bytes > 0 {
		parts = append(parts, say("ui.progress.of", "Done", l.Size(s.BytesDone), "Total", l.Size(s.Bytes)))
	}
	switch {
	case s.Active > 0 && s.ETA >= 0 && s.Speed > 0:
		parts = append(parts, l.TimeLeft(s.ETA))
	case s.Active > 0:
		parts = append(parts, say("ui.summary.working"))
	case s.Paused > 0 && s.Done+s.Failed < s.Files:
		parts = append(parts, say("ui.summary.paused"))
	}
	line := strings.Join(parts, say("ui.comma"))
	if canceled > 0 {
		line += " " + say("ui.summary.canceled", "N", canceled)
	}
	if s.Failed > 0 {
		line += " " + say("ui.summary.attention", "N", s.Failed)
	}
	return line
}

// inWords is a wait that counts down: "in 8 seconds", "in a moment".
func inWords(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	l := speaking()
	switch {
	case s <= 0:
		return say("ui.in.moment")
	case s < 60:
		return say("ui.in.time", "Time", l.Say("time.seconds", map[string]any{"N": s}))
	}
	return say("ui.in.time", "Time", l.Duration(d))
}

// sentence ends s with a full stop unless it ends with one already.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	for _, end := range []string{".", "!", "?", "…", "؟"} {
		if strings.HasSuffix(s, end) {
			return s
		}
	}
	return s + "."
}

func joinSentences(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = sentence(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// resultWords is what the server made of a finished file, in a line.
func resultWords(r *engine.Result) string {
	if r == nil {
		return ""
	}
	if f := r.Fact(); f != nil {
		return speaking().Fact(*f)
	}
	if r.Summary != "" && !rtl() {
		return r.Summary
	}
	switch {
	case r.URL != "":
		return isolate(r.URL)
	case r.ID != "":
		return say("ui.result.savedAs", "ID", isolate(r.ID))
	}
	return ""
}

// The question asked before quitting while files upload; its buttons say what they do.
func quitTitle() string   { return say("ui.quit.title") }
func quitConfirm() string { return say("ui.quit.confirm") }
func quitDismiss() string { return say("ui.quit.dismiss") }

func quitQuestion(files int) string { return say("ui.quit.question", "N", files) }

// buttonWords names what can be done to a job, on buttons.
func buttonWords(a engine.Action) string { return speaking().Action(string(a)) }

// showResultWords and detailsWords name the buttons that show a finished
// job's result and the whole state of one that did not go.
func showResultWords() string    { return say("ui.button.result") }
func detailsButtonWords() string { return say("ui.button.details") }

// The selection's panel, with nothing or several files selected.
func noSelectionTitle() string { return say("ui.selection.none") }
func noSelectionHint() string  { return say("ui.selection.hint") }
func undoWord() string         { return say("ui.undo") }

func selectedWords(n int) string { return say("ui.selection.many", "N", n) }

// removedWords says what Delete or Remove took off the list.
func removedWords(n int, first string) string {
	if n == 1 {
		return say("ui.removed.one", "File", isolate(first))
	}
	return say("ui.removed.many", "N", n)
}

// The titles of the system's file dialog.
func pickFilesTitle() string  { return say("ui.pick.files") }
func pickFolderTitle() string { return say("ui.pick.folders") }

// Keeping on uploading with the window closed, from the system tray.
func backgroundSetting() string { return say("ui.background.setting") }

// backgroundHint offers to keep uploading with the window closed: in the
// tray, or minimised where no tray icon would be seen; where no
// notification can be shown, the window comes back at the end instead.
func backgroundHint(inTray, notices bool) string {
	switch {
	case !notices:
		return say("ui.background.hintNoNotice")
	case inTray:
		return say("ui.background.hint")
	}
	return say("ui.background.hintMinimised")
}

// shownInsteadWords say why the window came back when the uploads ended.
func shownInsteadWords() string { return say("ui.background.shownInstead") }

// quitWhenDoneWords say that Hoist quits once the files are up.
func quitWhenDoneWords() string { return say("ui.background.quitsWhenDone") }

func backgroundDismiss() string { return say("ui.background.dismiss") }
func trayShow() string          { return say("ui.tray.show") }
func trayPauseAll() string      { return say("ui.tray.pauseAll") }
func trayQuit() string          { return say("ui.tray.quit") }

// checkedWords says whether the server's own account of the stored file
// (its size or checksum) was compared with the file and matched.
func checkedWords(r *engine.Result) string {
	switch {
	case r == nil || r.Verified == "":
		return say("ui.checked.none")
	case r.Verified == "size":
		return say("ui.checked.size")
	}
	return say("ui.checked.sum", "Algo", strings.ToUpper(r.Verified))
}

// errorWords says an error in the window's language: by the facts it
// carries (a file's problem, a destination's settings or file, the
// queue's refusal, the list of uploads set aside, a sign-in), else in its
// own words, with no secret in them.
func errorWords(err error) string {
	if said, ok := speaking().Error(err); ok {
		return said
	}
	if f, ok := auth.Fact(err); ok {
		return speaking().Fact(f)
	}
	return auth.Redact(err.Error())
}

// skipWords says why a file inside a folder was left out.
func skipWords(s media.Skipped) string {
	return speaking().Fact(s.Fact)
}

// eventWords is what the window and the notification say about an event,
// with what snapshot s shows.
func eventWords(ev engine.Event, s *snapshot) string {
	if ev.Fact != nil && ev.Kind != engine.NeedsAttention {
		return speaking().Fact(*ev.Fact) // the batch's end, the list not saved
	}
	switch ev.Kind {
	case engine.BatchDone:
		if n := s.totals.Failed; n > 0 {
			return say("ui.notify.doneAttention", "N", n)
		}
		return say("ui.notify.done")
	case engine.NeedsAttention:
		if i, ok := s.index[ev.Job]; ok {
			v := s.view(i)
			v.Fact = ev.Fact // the reason as it was when the job stopped
			return say("ui.notify.file", "File", isolate(v.Name), "Why", reasonWords(v))
		}
	case engine.SaveFailed:
		return say("ui.notify.saveFailed")
	}
	return ""
}

// kindWords names a kind of destination in the picker and the form's title.
func kindWords(k dest.Kind) string { return speaking().KindName(k) }

// destTitle is a destination's name as the picker shows it: the name the
// user gave it, or its kind.
func destTitle(d dest.Destination) string {
	if n := strings.TrimSpace(d.Name); n != "" {
		return n
	}
	return kindWords(d.Kind)
}

// acceptsWords says what files a kind of destination takes.
func acceptsWords(k dest.Kind) string { return speaking().Accepts(k) }

// fieldWords are a form field's label and help in the window's language.
func fieldWords(k dest.Kind, f dest.Field) (label, help string) {
	return speaking().Field(k, f)
}

// choiceWords is how a choice of a kind's setting is shown.
func choiceWords(k dest.Kind, value string) string { return speaking().Choice(k, value) }

// fieldProblemWords says what is wrong with a form field of a destination,
// from the fact the engine's check found, with the field's label in the
// window's language.
func fieldProblemWords(e dest.FieldError) string {
	if e.Fact.Code == "" {
		return say("ui.form.invalid")
	}
	return speaking().Fact(e.Fact)
}

// idLabel is what the result's id is called at the job's destination.
func idLabel(v engine.JobView) string { return speaking().IDLabel(dest.Kind(v.DestKind)) }
