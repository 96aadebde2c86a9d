package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"hoist/engine"
	"hoist/engine/media"
)

// display shows the uploads of one `hoist send`.
type display interface {
	update(views []engine.JobView)
	final(views []engine.JobView)
}

// humanDisplay draws a bar per file on a terminal, or prints a line at each
// change of state (and every 10 %) when the output is a file or a pipe.
type humanDisplay struct {
	w     io.Writer
	tty   bool
	lines int                     // lines drawn last time, to redraw in place
	seen  map[engine.JobID]string // last thing printed per job, without a terminal
}

func newHumanDisplay(w io.Writer, tty bool) *humanDisplay {
	return &humanDisplay{w: w, tty: tty, seen: map[engine.JobID]string{}}
}

func (h *humanDisplay) update(views []engine.JobView) {
	if h.tty {
		h.redraw(views)
		return
	}
	for _, v := range views {
		key := string(v.State)
		if v.State == engine.Uploading {
			key += v.Next // a restart from the beginning says why
			if v.Size > 0 {
				key += fmt.Sprint(v.Committed * 10 / v.Size)
			}
		}
		if h.seen[v.ID] == key {
			continue
		}
		h.seen[v.ID] = key
		fmt.Fprintln(h.w, visible(line(v)))
	}
}

func (h *humanDisplay) redraw(views []engine.JobView) {
	var b strings.Builder
	if h.lines > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", h.lines)
	}
	for _, v := range views {
		b.WriteString("\x1b[2K")
		b.WriteString(bar(v))
		b.WriteByte('\n')
	}
	h.lines = len(views)
	io.WriteString(h.w, b.String())
}

func (h *humanDisplay) final(views []engine.JobView) {
	if h.tty {
		h.redraw(views)
	}
	var done, failed int
	var bytes int64
	for _, v := range views {
		switch v.State {
		case engine.Done:
			done++
			bytes += v.Size
			if v.Result != nil && v.Result.Summary != "" {
				fmt.Fprintln(h.w, visible(fmt.Sprintf("✓ %s: %s%s%s", v.Name, v.Result.Summary, verifiedWords(v), fellBackWords(v))))
			}
		default:
			if v.State.Finished() || v.State == engine.Attention {
				failed++
				fmt.Fprintln(h.w, visible(fmt.Sprintf("✗ %s: %s", v.Name, reasonOf(v))))
			}
		}
	}
	fmt.Fprintf(h.w, "%d of %d %s uploaded (%s).", done, len(views), pluralize(len(views), "file", "files"), media.FormatSize(bytes))
	if failed > 0 {
		fmt.Fprintf(h.w, " %d did not upload.", failed)
	}
	fmt.Fprintln(h.w)
}

// fellBackWords says, after a result, that the destination refused a resumable upload.
// verifiedWords says whether the server's own account of the file matched it.
func verifiedWords(v engine.JobView) string {
	if v.Result == nil {
		return ""
	}
	switch v.Result.Verified {
	case "":
		return " Not verified: the server gave no size or checksum to compare."
	case "size":
		return " Verified by size only."
	}
	return " Verified: the server's " + strings.ToUpper(v.Result.Verified) + " matches the file."
}

func fellBackWords(v engine.JobView) string {
	if !v.FellBack {
		return ""
	}
	return " Sent in one piece: this destination does not take uploads in parts."
}

func reasonOf(v engine.JobView) string {
	r := v.Reason
	if r == "" {
		r = stateWords(v)
	}
	if w := v.Said(); w != "" {
		r += " " + w
	}
	if next := nextWords(v); next != "" {
		r += " " + next
	}
	return r
}

// nextWords is a stopped job's next step in command-line terms: the queue
// words it for the window's buttons.
func nextWords(v engine.JobView) string {
	switch {
	case v.Allows(engine.Restart):
		return fmt.Sprintf("To send it as it is now, run hoist queue restart %s, then hoist send --resume.", argWord(v.Path))
	case v.Allows(engine.SignIn):
		return `Sign in again with "hoist login", then run "hoist send --resume".`
	case v.Allows(engine.Resume) && v.Locked:
		return `Unlock the keychain, then run "hoist send --resume".`
	case v.Allows(engine.Resume):
		return `Run "hoist send --resume" to continue from where the server stands.`
	case v.State == engine.Failed:
		return `Run "hoist send --resume" to try again, or give up on it with: hoist queue remove ` + argWord(v.Name)
	case v.State == engine.Canceled:
		return `To upload it again, send it again with "hoist send".`
	}
	return v.Next
}

// bar is one file's line on a terminal: name, bar, percent, speed, time left.
func bar(v engine.JobView) string {
	const width = 24
	frac := 0.0
	if v.Size > 0 {
		frac = float64(v.Committed) / float64(v.Size)
	} else if v.State == engine.Done {
		frac = 1
	}
	filled := int(frac * width)
	name := visible(v.Name)
	if r := []rune(name); len(r) > 28 {
		name = string(r[:27]) + "…"
	}
	s := fmt.Sprintf("%-28s [%s%s] %3d%% %9s", name, strings.Repeat("█", filled), strings.Repeat("░", width-filled), int(frac*100), media.FormatSize(v.Size))
	switch {
	case v.State == engine.Uploading && v.Speed > 0:
		s += fmt.Sprintf("  %s/s", media.FormatSize(int64(v.Speed)))
		if v.ETA >= 0 {
			s += "  " + media.FormatDuration(v.ETA) + " left"
		}
	default:
		s += "  " + stateWords(v)
	}
	return s
}

// line is one file's progress as a plain line, for logs and pipes.
func line(v engine.JobView) string {
	switch v.State {
	case engine.Uploading:
		pct := 0
		if v.Size > 0 {
			pct = int(v.Committed * 100 / v.Size)
		}
		s := fmt.Sprintf("%s: uploading, %d%% of %s", v.Name, pct, media.FormatSize(v.Size))
		if v.Next != "" {
			s += ". " + v.Next
		}
		return s
	case engine.Done, engine.Failed, engine.Refused, engine.Attention, engine.Retrying:
		return fmt.Sprintf("%s: %s", v.Name, reasonOrState(v))
	}
	return fmt.Sprintf("%s: %s", v.Name, stateWords(v))
}

func reasonOrState(v engine.JobView) string {
	if v.State == engine.Done {
		if v.Result != nil && v.Result.Summary != "" {
			return "done. " + v.Result.Summary
		}
		return "done"
	}
	return stateWords(v) + ": " + reasonOf(v)
}

// stateWords is a state in plain words.
func stateWords(v engine.JobView) string {
	switch v.State {
	case engine.Waiting:
		return "waiting"
	case engine.Checking:
		return "resuming, checking with the server"
	case engine.Uploading:
		return "uploading"
	case engine.Retrying:
		return "waiting to try again"
	case engine.Paused:
		return "paused"
	case engine.Attention:
		return "needs you"
	case engine.Done:
		return "done"
	case engine.Failed:
		return "failed"
	case engine.Refused:
		return "refused"
	case engine.Canceled:
		return "canceled"
	}
	return string(v.State)
}

// argWord is s as one argument of a command to type, quoted when it has to be.
func argWord(s string) string {
	if s == "" || strings.ContainsAny(s, " \t'\"\\$`&|;<>()*?[]#~!{}") || needsEscape(s) {
		return strconv.Quote(s)
	}
	return s
}

func pluralize(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// jsonDisplay prints one JSON object per line: a "progress" object whenever a
// job changes, and a "result" object per job at the end.
type jsonDisplay struct {
	enc  *json.Encoder
	seen map[engine.JobID]uint64
}

func newJSONDisplay(w io.Writer) *jsonDisplay {
	return &jsonDisplay{enc: json.NewEncoder(w), seen: map[engine.JobID]uint64{}}
}

// jobJSON is the shape of --json output.
type jobJSON struct {
	Event     string  `json:"event"`
	ID        string  `json:"id"`
	File      string  `json:"file"`
	Name      string  `json:"name"`
	Size      int64   `json:"size"`
	State     string  `json:"state"`
	Sent      int64   `json:"sent"`
	Committed int64   `json:"committed"`
	Speed     float64 `json:"bytesPerSecond,omitempty"`
	ETA       float64 `json:"secondsLeft,omitempty"`
	Method    string  `json:"method,omitempty"`
	FellBack  bool    `json:"fellBackToMultipart,omitempty"`
	Restarts  int     `json:"restarts,omitempty"`
	Reason    string  `json:"reason,omitempty"`
	// GoogleMessage is the server's own words behind Reason (Google's error message).
	GoogleMessage string      `json:"googleMessage,omitempty"`
	Next          string      `json:"next,omitempty"`
	Actions       []string    `json:"actions"` // what the engine allows now: "hoist queue ACTION FILE"
	Result        *resultJSON `json:"result,omitempty"`
}

type resultJSON struct {
	ID       string `json:"id,omitempty"`
	ThreadID string `json:"threadId,omitempty"`
	Name     string `json:"name,omitempty"`
	URL      string `json:"url,omitempty"`
	Summary  string `json:"summary,omitempty"`
	// Verified names the server's checksum (or size) that matched the file; "" when none was given.
	Verified string          `json:"verified,omitempty"`
	Raw      json.RawMessage `json:"response,omitempty"`
}

func toJSON(event string, v engine.JobView) jobJSON {
	j := jobJSON{
		Event: event, ID: string(v.ID), File: v.Path, Name: v.Name, Size: v.Size,
		State: string(v.State), Sent: v.Sent, Committed: v.Committed, Speed: v.Speed,
		Method: string(v.Method), FellBack: v.FellBack, Restarts: v.Restarts,
		Reason: v.Reason, GoogleMessage: v.Details, Next: nextWords(v), Actions: actionNames(v),
	}
	if v.ETA > 0 {
		j.ETA = v.ETA.Seconds()
	}
	if r := v.Result; r != nil {
		j.Result = &resultJSON{ID: r.ID, ThreadID: r.ThreadID, Name: r.Name, URL: r.URL, Summary: r.Summary, Verified: r.Verified}
		if json.Valid(r.Raw) {
			j.Result.Raw = r.Raw
		}
	}
	return j
}

// actionNames are the actions the engine allows v's job, as the words of
// "hoist queue ACTION FILE".
func actionNames(v engine.JobView) []string {
	out := make([]string, len(v.Actions))
	for i, a := range v.Actions {
		out[i] = string(a)
	}
	return out
}

func (d *jsonDisplay) update(views []engine.JobView) {
	for _, v := range views {
		if d.seen[v.ID] == v.Version {
			continue
		}
		d.seen[v.ID] = v.Version
		_ = d.enc.Encode(toJSON("progress", v))
	}
}

func (d *jsonDisplay) final(views []engine.JobView) {
	for _, v := range views {
		_ = d.enc.Encode(toJSON("result", v))
	}
}
