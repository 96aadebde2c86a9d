package ui

import (
	"fmt"
	"strings"
	"time"

	"hoist/engine"
	"hoist/engine/media"
)

// The words the window uses for states, sizes and times: plain sentences
// for people who have never heard of HTTP.

// stateWords is the state of a job in plain words, with its reason and the
// next step where there is one.
func stateWords(v engine.JobView, now time.Time) string {
	switch v.State {
	case engine.Waiting:
		return "Waiting"
	case engine.Checking:
		return "Resuming — checking with " + v.Server
	case engine.Uploading:
		if v.Next != "" { // e.g. the upload honestly started again from the beginning
			return "Uploading. " + v.Next
		}
		return "Uploading"
	case engine.Retrying:
		msg := sentence(v.Reason)
		if !v.RetryAt.IsZero() {
			return joinSentences(msg, "Hoist will try again "+inWords(v.RetryAt.Sub(now))+".")
		}
		return joinSentences(msg, v.Next)
	case engine.Paused:
		if v.Reason != "" {
			return "Paused: " + joinSentences(v.Reason, v.Next)
		}
		return "Paused"
	case engine.Attention:
		return "Needs you: " + joinSentences(v.Reason, v.Next)
	case engine.Done:
		done := "Done, " + checkedWords(v.Result)
		if v.FellBack {
			done += " (sent in one piece: this destination does not take uploads in parts)"
		}
		if r := resultWords(v.Result); r != "" {
			return done + ". " + sentence(r)
		}
		return done
	case engine.Failed:
		return "Failed: " + joinSentences(v.Reason, v.Next)
	case engine.Refused:
		return "Refused: " + sentence(v.Reason)
	case engine.Canceled:
		return "Canceled"
	}
	return string(v.State)
}

// googleWords are the server's own words behind a row's reason, under
// "Details", e.g. Details — Google said: “The caller does not have
// permission”; "" when it said none.
func googleWords(v engine.JobView) string {
	if s := v.Said(); s != "" {
		return "Details — " + s
	}
	return ""
}

// progressWords is the byte count, speed and time left of a job, or "" when
// there is nothing to say.
func progressWords(v engine.JobView) string {
	switch v.State {
	case engine.Uploading, engine.Checking, engine.Retrying, engine.Paused, engine.Attention, engine.Failed:
	default:
		return ""
	}
	if v.Size <= 0 || (v.Committed == 0 && v.State != engine.Uploading) {
		return ""
	}
	parts := []string{media.FormatSize(v.Committed) + " of " + media.FormatSize(v.Size)}
	if v.State == engine.Uploading {
		if v.Speed > 0 {
			parts = append(parts, media.FormatSize(int64(v.Speed))+"/s")
		}
		if v.ETA >= 0 && v.Speed > 0 {
			parts = append(parts, "about "+media.FormatDuration(v.ETA)+" left")
		}
	}
	return strings.Join(parts, " · ")
}

// summaryWords is the whole queue in a line, e.g.
// "3 of 12 files, 1.2 GB of 3.4 GB, about 4 minutes left". Canceled files
// are not counted among those to upload; they are said apart.
func summaryWords(s engine.Summary, canceled int) string {
	if s.Files == 0 {
		return "No files yet."
	}
	files := s.Files - canceled
	if files <= 0 {
		return fmt.Sprintf("%d %s canceled, nothing left to upload.", canceled, plural(canceled, "file", "files"))
	}
	line := fmt.Sprintf("%d of %d %s", s.Done, files, plural(files, "file", "files"))
	if s.Bytes > 0 {
		line += fmt.Sprintf(", %s of %s", media.FormatSize(s.BytesDone), media.FormatSize(s.Bytes))
	}
	switch {
	case s.Active > 0 && s.ETA >= 0 && s.Speed > 0:
		line += ", about " + media.FormatDuration(s.ETA) + " left"
	case s.Active > 0:
		line += ", working it out…"
	case s.Paused > 0 && s.Done+s.Failed < s.Files:
		line += ", paused"
	}
	if canceled > 0 {
		line += fmt.Sprintf(" (%d canceled)", canceled)
	}
	if s.Failed > 0 {
		line += fmt.Sprintf(" — %d need%s attention", s.Failed, map[bool]string{true: "s"}[s.Failed == 1])
	}
	return line
}

// inWords is a wait that counts down: "in 8 seconds", "in a moment".
func inWords(d time.Duration) string {
	s := int((d + time.Second/2) / time.Second)
	switch {
	case s <= 0:
		return "in a moment"
	case s == 1:
		return "in 1 second"
	case s < 60:
		return fmt.Sprintf("in %d seconds", s)
	}
	return "in " + media.FormatDuration(d)
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	if !strings.ContainsAny(s[len(s)-1:], ".!?…") {
		s += "."
	}
	return s
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
	if r.Summary != "" {
		return r.Summary
	}
	switch {
	case r.URL != "":
		return r.URL
	case r.ID != "":
		return "Saved as " + r.ID
	}
	return ""
}

// The question asked before quitting while files upload; its buttons say what they do.
const (
	quitTitle   = "Pause uploads and quit?"
	quitConfirm = "Pause uploads and quit"
	quitDismiss = "Keep uploading"
)

func quitQuestion(files int) string {
	return fmt.Sprintf("%d %s still uploading or waiting. Hoist will pause %s now and carry on from where %s stopped when you open it again.",
		files, plural(files, "file is", "files are"), plural(files, "it", "them"), plural(files, "it", "they"))
}

// The names of what can be done to a job, on buttons, and as verbs in "Could not … ".
var (
	buttonWords = map[engine.Action]string{
		engine.Pause: "Pause", engine.Resume: "Resume", engine.SignIn: "Sign in", engine.Cancel: "Cancel", engine.Retry: "Retry",
		engine.Restart: "Start over", engine.Remove: "Remove",
	}
	showResultWords = "Show result"
)

// The selection's panel, with nothing or several files selected.
const (
	noSelectionTitle = "No file selected"
	noSelectionHint  = "Click a file to see everything about it here. Shift+click or Ctrl+click selects several; Delete removes them, Ctrl+A selects all."
	undoWord         = "Undo"
)

func selectedWords(n int) string { return fmt.Sprintf("%d files selected", n) }

// removedWords says what Delete or Remove took off the list.
func removedWords(n int, first string) string {
	if n == 1 {
		return "Removed " + first + "."
	}
	return fmt.Sprintf("Removed %d files.", n)
}

// The titles of the system's file dialog.
const (
	pickFilesTitle  = "Add files to Hoist"
	pickFolderTitle = "Add folders to Hoist"
)

// Keeping on uploading with the window closed, from the system tray.
const (
	backgroundSetting = "Keep uploading from the system tray when the window is closed"
	backgroundHint    = "Or keep uploading with the window closed: Hoist stays in the system tray and tells you when the files are up."
	backgroundDismiss = "Keep uploading"
	trayShow          = "Show Hoist"
	trayPauseAll      = "Pause all"
	trayQuit          = "Quit"
)

// checkedWords says whether the server's own account of the stored file
// (its size or checksum) was compared with the file and matched.
func checkedWords(r *engine.Result) string {
	switch {
	case r == nil || r.Verified == "":
		return "unchecked (the server gave no checksum)"
	case r.Verified == "size":
		return "size matched"
	}
	return "checksum matched (" + strings.ToUpper(r.Verified) + ")"
}
