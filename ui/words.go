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
		done := "Done"
		if v.FellBack {
			done = "Done (sent in one piece: this destination does not take uploads in parts)"
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
// "3 of 12 files, 1.2 GB of 3.4 GB, about 4 minutes left".
func summaryWords(s engine.Summary) string {
	if s.Files == 0 {
		return "No files yet."
	}
	files := "files"
	if s.Files == 1 {
		files = "file"
	}
	line := fmt.Sprintf("%d of %d %s, %s of %s", s.Done, s.Files, files, media.FormatSize(s.BytesDone), media.FormatSize(s.Bytes))
	switch {
	case s.Active > 0 && s.ETA >= 0 && s.Speed > 0:
		line += ", about " + media.FormatDuration(s.ETA) + " left"
	case s.Active > 0:
		line += ", working it out…"
	case s.Paused > 0 && s.Done+s.Failed < s.Files:
		line += ", paused"
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
