package view

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
		return Speaking().Fact(*v.Fact)
	}
	return v.Reason
}

// nextWords is the next step after reasonWords, worded the same way.
func nextWords(v engine.JobView) string {
	if v.NextFact != nil {
		return Speaking().Fact(*v.NextFact)
	}
	return v.Next
}

// serverWords names who holds a job's uploads, inside a sentence: Google,
// the sandbox or the server.
func serverWords(v engine.JobView) string { return Speaking().Who(v.Server) }

// StateWords is the state of a job in plain words, with its reason and the
// next step where there is one.
func StateWords(v engine.JobView, now time.Time) string {
	l := Speaking()
	state := string(v.State)
	switch v.State {
	case engine.Checking:
		return l.StateCheckingWith(state, serverWords(v))
	case engine.Uploading:
		return l.StateThen(state, Sentence(nextWords(v))) // e.g. the upload honestly started again from the beginning
	case engine.Retrying:
		msg := Sentence(reasonWords(v))
		if !v.RetryAt.IsZero() && v.NextFact != nil && v.NextFact.Code == fact.AskIn {
			ask := *v.NextFact // it will ask the destination, not send again
			ask.Wait = max(v.RetryAt.Sub(now), 0)
			return joinSentences(msg, l.Fact(ask))
		}
		if !v.RetryAt.IsZero() {
			return joinSentences(msg, Say("ui.retryIn", "When", inWords(v.RetryAt.Sub(now))))
		}
		return joinSentences(msg, nextWords(v))
	case engine.Done:
		done := l.StateAnd(state, checkedWords(v.Result))
		if v.FellBack {
			done += " " + Say("ui.oneGo")
		}
		if r := ResultWords(v.Result); r != "" {
			return joinSentences(done, r)
		}
		return done
	case engine.Refused:
		return l.StateWith(state, Sentence(reasonWords(v)))
	case engine.Paused:
		// A pause gives up what the server had not confirmed: the row
		// shows less than it did a moment ago, and says why.
		var lost string
		if v.Unconfirmed >= unconfirmedSaid {
			lost = Say("ui.paused.unconfirmed", "Size", l.Size(v.Unconfirmed))
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

// GoogleWords are the server's own words behind a row's reason, under
// "Details", e.g. Details — Google said: “The caller does not have
// permission”; "" when it said none.
func GoogleWords(v engine.JobView) string {
	if v.Details == "" {
		return ""
	}
	who := Speaking().Who(v.DetailsFrom)
	return Say("ui.details.said", "Who", words.CapitalFirst(who), "Said", Isolate(v.Details))
}

// ConfirmedWords says what the server confirmed of a file whose bytes went
// further than that; "" when it confirmed all that was sent.
func ConfirmedWords(v engine.JobView) string {
	if v.Delivered <= v.Committed || v.State == engine.Done {
		return ""
	}
	return Say("ui.field.confirmed", "Size", Speaking().Size(v.Committed))
}

// ProgressWords is the byte count, speed and time left of a job, or "" when
// there is nothing to say.
func ProgressWords(v engine.JobView) string {
	if !v.State.ShowsProgress() {
		return ""
	}
	done := max(v.Delivered, v.Committed) // moves while one large request is in flight
	if v.Size <= 0 || (done == 0 && v.State != engine.Uploading) {
		return ""
	}
	l := Speaking()
	parts := []string{Say("ui.progress.of", "Done", l.Size(done), "Total", l.Size(v.Size))}
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
	return strings.Join(parts, Say("ui.progress.sep"))
}

// SummaryWords is the whole queue in a line, e.g.
// "3 of 12 files, 1.2 GB of 3.4 GB, about 4 minutes left". Canceled files
// are not counted among those to upload; they are said apart.
func SummaryWords(s engine.Summary, canceled int) string {
	if s.Files == 0 {
		return Say("ui.summary.none")
	}
	files := s.Files - canceled
	if files <= 0 {
		return Say("ui.summary.allCanceled", "N", canceled)
	}
	l := Speaking()
	parts := []string{Say("count.filesDone", "Done", s.Done, "N", files)}
	if s.Bytes > 0 {
		parts = append(parts, Say("ui.progress.of", "Done", l.Size(s.BytesDone), "Total", l.Size(s.Bytes)))
	}
	switch {
	case s.Active > 0 && s.ETA >= 0 && s.Speed > 0:
		parts = append(parts, l.TimeLeft(s.ETA))
	case s.Active > 0:
		parts = append(parts, Say("ui.summary.working"))
	case s.Paused > 0 && s.Done+s.Failed < s.Files:
		parts = append(parts, Say("ui.summary.paused"))
	}
	line := strings.Join(parts, Say("ui.comma"))
	if canceled > 0 {
		line += " " + Say("ui.summary.canceled", "N", canceled)
	}
	if s.Failed > 0 {
		line += " " + Say("ui.summary.attention", "N", s.Failed)
	}
	return line
}

// inWords is a wait that counts down: "in 8 seconds", "in a moment".
func inWords(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	l := Speaking()
	switch {
	case s <= 0:
		return Say("ui.in.moment")
	case s < 60:
		return Say("ui.in.time", "Time", l.Say("time.seconds", map[string]any{"N": s}))
	}
	return Say("ui.in.time", "Time", l.Duration(d))
}

// Sentence ends s with a full stop unless it ends with one already.
func Sentence(s string) string {
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
		if p = Sentence(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

// ResultWords is what the server made of a finished file, in a line.
func ResultWords(r *engine.Result) string {
	if r == nil {
		return ""
	}
	if f := r.Fact(); f != nil {
		return Speaking().Fact(*f)
	}
	if r.Summary != "" && !Rtl() {
		return r.Summary
	}
	switch {
	case r.URL != "":
		return Isolate(r.URL)
	case r.ID != "":
		return Say("ui.result.savedAs", "ID", Isolate(r.ID))
	}
	return ""
}

// The question asked before quitting while files upload; its buttons say what they do.
func QuitTitle() string   { return Say("ui.quit.title") }
func QuitConfirm() string { return Say("ui.quit.confirm") }
func QuitDismiss() string { return Say("ui.quit.dismiss") }

func QuitQuestion(files int) string { return Say("ui.quit.question", "N", files) }

// ButtonWords names what can be done to a job, on buttons.
func ButtonWords(a engine.Action) string { return Speaking().Action(string(a)) }

// ShowResultWords and detailsWords name the buttons that show a finished
// job's result and the whole state of one that did not go.
func ShowResultWords() string    { return Say("ui.button.result") }
func DetailsButtonWords() string { return Say("ui.button.details") }

// The selection's panel, with nothing or several files selected.
func NoSelectionTitle() string { return Say("ui.selection.none") }
func NoSelectionHint() string  { return Say("ui.selection.hint") }
func UndoWord() string         { return Say("ui.undo") }

func SelectedWords(n int) string { return Say("ui.selection.many", "N", n) }

// RemovedWords says what Delete or Remove took off the list.
func RemovedWords(n int, first string) string {
	if n == 1 {
		return Say("ui.removed.one", "File", Isolate(first))
	}
	return Say("ui.removed.many", "N", n)
}

// The titles of the system's file dialog.
func PickFilesTitle() string  { return Say("ui.pick.files") }
func PickFolderTitle() string { return Say("ui.pick.folders") }

// Keeping on uploading with the window closed, from the system tray.
func BackgroundSetting() string { return Say("ui.background.setting") }

// BackgroundHint offers to keep uploading with the window closed: in the
// tray, or minimised where no tray icon would be seen; where no
// notification can be shown, the window comes back at the end instead.
func BackgroundHint(inTray, notices bool) string {
	switch {
	case !notices:
		return Say("ui.background.hintNoNotice")
	case inTray:
		return Say("ui.background.hint")
	}
	return Say("ui.background.hintMinimised")
}

// ShownInsteadWords say why the window came back when the uploads ended.
func ShownInsteadWords() string { return Say("ui.background.shownInstead") }

// QuitWhenDoneWords say that Hoist quits once the files are up.
func QuitWhenDoneWords() string { return Say("ui.background.quitsWhenDone") }

func BackgroundDismiss() string { return Say("ui.background.dismiss") }
func TrayShow() string          { return Say("ui.tray.show") }
func TrayPauseAll() string      { return Say("ui.tray.pauseAll") }
func TrayQuit() string          { return Say("ui.tray.quit") }

// checkedWords says whether the server's own account of the stored file
// (its size or checksum) was compared with the file and matched.
func checkedWords(r *engine.Result) string {
	switch {
	case r == nil || r.Verified == "":
		return Say("ui.checked.none")
	case r.Verified == "size":
		return Say("ui.checked.size")
	}
	return Say("ui.checked.sum", "Algo", strings.ToUpper(r.Verified))
}

// ErrorWords says an error in the window's language: by the facts it
// carries (a file's problem, a destination's settings or file, the
// queue's refusal, the list of uploads set aside, a sign-in), else in its
// own words, with no secret in them.
func ErrorWords(err error) string {
	if said, ok := Speaking().Error(err); ok {
		return said
	}
	if f, ok := auth.Fact(err); ok {
		return Speaking().Fact(f)
	}
	return auth.Redact(err.Error())
}

// SkipWords says why a file inside a folder was left out.
func SkipWords(s media.Skipped) string {
	return Speaking().Fact(s.Fact)
}

// EventWords is what the window and the notification say about an event,
// with what snapshot s shows.
func EventWords(ev engine.Event, s *Snapshot) string {
	if ev.Fact != nil && ev.Kind != engine.NeedsAttention {
		return Speaking().Fact(*ev.Fact) // the batch's end, the list not saved
	}
	switch ev.Kind {
	case engine.BatchDone:
		if n := s.Totals.Failed; n > 0 {
			return Say("ui.notify.doneAttention", "N", n)
		}
		return Say("ui.notify.done")
	case engine.NeedsAttention:
		if i, ok := s.Index[ev.Job]; ok {
			v := s.View(i)
			v.Fact = ev.Fact // the reason as it was when the job stopped
			return Say("ui.notify.file", "File", Isolate(v.Name), "Why", reasonWords(v))
		}
	case engine.SaveFailed:
		return Say("ui.notify.saveFailed")
	}
	return ""
}

// KindWords names a kind of destination in the picker and the form's title.
func KindWords(k dest.Kind) string { return Speaking().KindName(k) }

// DestTitle is a destination's name as the picker shows it: the name the
// user gave it, or its kind.
func DestTitle(d dest.Destination) string {
	if n := strings.TrimSpace(d.Name); n != "" {
		return n
	}
	return KindWords(d.Kind)
}

// AcceptsWords says what files a kind of destination takes.
func AcceptsWords(k dest.Kind) string { return Speaking().Accepts(k) }

// FieldWords are a form field's label and help in the window's language.
func FieldWords(k dest.Kind, f dest.Field) (label, help string) {
	return Speaking().Field(k, f)
}

// ChoiceWords is how a choice of a kind's setting is shown.
func ChoiceWords(k dest.Kind, value string) string { return Speaking().Choice(k, value) }

// FieldProblemWords says what is wrong with a form field of a destination,
// from the fact the engine's check found, with the field's label in the
// window's language.
func FieldProblemWords(e dest.FieldError) string {
	if e.Fact.Code == "" {
		return Say("ui.form.invalid")
	}
	return Speaking().Fact(e.Fact)
}

// IdLabel is what the result's id is called at the job's destination.
func IdLabel(v engine.JobView) string { return Speaking().IDLabel(dest.Kind(v.DestKind)) }
