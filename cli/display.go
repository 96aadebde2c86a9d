package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"hoist/auth"
	"hoist/engine"
	"hoist/engine/dest"
	"hoist/engine/fact"
	"hoist/words"
)

// display shows the uploads of one `hoist send`.
type display interface {
	update(views []engine.JobView)
	final(views []engine.JobView)
}

// humanDisplay draws a bar per file on a terminal, or prints a line at each
// change of state (and every 10 %) when the output is a file or a pipe, in
// the user's language.
type humanDisplay struct {
	w     io.Writer
	l     *words.Lang
	tty   bool
	lines int                     // lines drawn last time, to redraw in place
	seen  map[engine.JobID]string // last thing printed per job, without a terminal
}

func newHumanDisplay(w io.Writer, l *words.Lang, tty bool) *humanDisplay {
	return &humanDisplay{w: w, l: l, tty: tty, seen: map[engine.JobID]string{}}
}

func (h *humanDisplay) update(views []engine.JobView) {
	if h.tty {
		h.redraw(views)
		return
	}
	for _, v := range views {
		key := string(v.State)
		if !v.RetryAt.IsZero() {
			key += v.RetryAt.String() // each wait is said anew, with its own length
		}
		if v.Later {
			key += "later"
		}
		if v.State == engine.Uploading {
			key += v.Next // a restart from the beginning says why
			if v.NextFact != nil {
				key += string(v.NextFact.Code)
			}
			if v.Size > 0 {
				key += fmt.Sprint(v.Committed * 10 / v.Size)
			}
		}
		if h.seen[v.ID] == key {
			continue
		}
		h.seen[v.ID] = key
		fmt.Fprintln(h.w, line(h.l, v))
	}
}

func (h *humanDisplay) redraw(views []engine.JobView) {
	var b strings.Builder
	if h.lines > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", h.lines)
	}
	lines := rows(views)
	for _, r := range lines {
		b.WriteString("\x1b[2K")
		if r.emails != nil {
			b.WriteString(mailboxBar(h.l, r.emails))
		} else {
			b.WriteString(bar(h.l, r.v))
		}
		b.WriteByte('\n')
	}
	h.lines = len(lines)
	io.WriteString(h.w, b.String())
}

func (h *humanDisplay) final(views []engine.JobView) {
	if h.tty {
		h.redraw(views)
	}
	l := h.l
	var done, failed int
	var emailsDone, emailsIn int // of mailboxes: counted as emails, not files
	var bytes int64
	for _, r := range rows(views) {
		emails := r.emails
		if emails == nil {
			emails = []engine.JobView{r.v}
		} else {
			emailsIn += len(emails)
		}
		mailboxDone := 0
		for _, v := range emails {
			switch v.State {
			case engine.Done:
				if r.emails != nil {
					emailsDone++
				} else {
					done++
				}
				mailboxDone++
				bytes += v.Size
				if hasResult(v) && r.emails == nil {
					fmt.Fprintln(h.w, "✓ "+fileLine(l, v.Name, l.Join(l.Join(resultWords(l, v.Result), verifiedWords(l, v)), fellBackWords(l, v))))
				}
			default:
				if v.State.Finished() || v.State.NeedsUser() {
					failed++
					fmt.Fprintln(h.w, "✗ "+fileLine(l, emailName(l, v), reasonOf(l, v)))
				}
			}
		}
		if r.emails != nil && mailboxDone > 0 {
			// A mailbox's emails are said together: how many arrived.
			fmt.Fprintln(h.w, "✓ "+fileLine(l, r.emails[0].Name, l.Say("count.emailsDone", words.Args{"Done": mailboxDone, "N": len(r.emails)})))
		}
	}
	var counts []string
	if files := len(views) - emailsIn; files > 0 || emailsIn == 0 {
		counts = append(counts, l.Say("count.filesDone", words.Args{"Done": done, "N": files}))
	}
	if emailsIn > 0 {
		counts = append(counts, l.Say("count.emailsDone", words.Args{"Done": emailsDone, "N": emailsIn}))
	}
	s := l.Say("cli.summary", words.Args{"Files": strings.Join(counts, l.Say("ui.comma", nil)), "Size": l.Size(bytes)})
	if failed > 0 {
		s = l.Join(s, l.Say("cli.summary.failed", words.Args{"N": failed}))
	}
	fmt.Fprintln(h.w, s)
}

// fileLine is a line about one file: its name, then what there is to say.
func fileLine(l *words.Lang, file, text string) string {
	return l.Say("cli.fileLine", words.Args{"File": name(l, file), "Text": text})
}

// hasResult reports whether there is something to say of what the server
// made of v's file.
func hasResult(v engine.JobView) bool {
	return v.Result != nil && (v.Result.Fact() != nil || v.Result.Summary != "")
}

// resultWords says what the server made of the file, from its fact; a
// result an older Hoist kept without one is said with the sentence it kept.
func resultWords(l *words.Lang, r *engine.Result) string {
	if f := r.Fact(); f != nil {
		return visible(l.Fact(*f))
	}
	return visible(r.Summary)
}

// verifiedWords says whether the server's own account of the file matched it.
func verifiedWords(l *words.Lang, v engine.JobView) string {
	if v.Result == nil {
		return ""
	}
	switch v.Result.Verified {
	case "":
		return l.Say("cli.verified.none", nil)
	case "size":
		return l.Say("cli.verified.size", nil)
	}
	return l.Say("cli.verified.sum", words.Args{"Sum": l.Isolate(strings.ToUpper(v.Result.Verified))})
}

// fellBackWords says, after a result, that the destination refused a resumable upload.
func fellBackWords(l *words.Lang, v engine.JobView) string {
	if !v.FellBack {
		return ""
	}
	return l.Say("cli.fellBack", nil)
}

// reasonOf is why a job stopped, with the server's own words and the
// command to run next.
func reasonOf(l *words.Lang, v engine.JobView) string {
	r := reasonWords(l, v)
	if r == "" {
		r = stateWords(l, v)
	}
	r = l.Join(r, saidWords(l, v))
	return l.Join(r, nextWords(l, v))
}

// reasonWords is the job's reason: its fact in the user's language, or,
// for a job an older Hoist stopped, the sentence its list of uploads kept.
func reasonWords(l *words.Lang, v engine.JobView) string {
	if v.Fact != nil {
		return visible(l.Fact(*v.Fact))
	}
	return visible(v.Reason)
}

// saidWords quotes the server's own words behind the reason, as they are,
// unless the reason's sentence holds them already.
func saidWords(l *words.Lang, v engine.JobView) string {
	if v.Details == "" || v.Fact != nil && l.QuotesGoogle(*v.Fact) {
		return ""
	}
	who := "who.server"
	switch v.DetailsFrom {
	case "Google":
		who = "who.google"
	case "The sandbox":
		who = "who.sandbox"
	}
	return l.Sentence("cli.said", words.Args{"Who": l.Say(who, nil), "Google": l.Isolate(visible(v.Details))})
}

// nextWords is a stopped job's next step in command-line terms: the queue
// words it for the window's buttons.
func nextWords(l *words.Lang, v engine.JobView) string {
	resume := cmdWords(l, "hoist send --resume")
	// One email of a mailbox is named by its id: the mailbox's path would
	// name every email of it.
	which, byName := argWord(v.Path), argWord(v.Name)
	if v.InMailbox > 0 {
		which, byName = string(v.ID), string(v.ID)
	}
	if v.NextFact != nil {
		login := "hoist login --scopes " + strings.Join(auth.ScopeNames(v.Scopes), ",")
		if v.Account != "" {
			login += " --account " + argWord(v.Account)
		}
		if s := l.CommandNext(*v.NextFact, words.Args{"Cmd": resume, "Restart": cmdWords(l, "hoist queue restart "+which),
			"Remove": cmdWords(l, "hoist queue remove "+which), "Login": cmdWords(l, login), "Send": cmdWords(l, "hoist send"),
			"Retry": cmdWords(l, "hoist queue retry "+which)}); s != "" {
			return visible(s)
		}
	}
	switch {
	case v.Allows(engine.Restart):
		return l.Say("cli.next.changed", words.Args{"Cmd": resume, "Restart": cmdWords(l, "hoist queue restart "+which)})
	case v.Allows(engine.SignIn):
		return l.Say("cli.next.signIn", words.Args{"Cmd": resume, "Login": cmdWords(l, "hoist login")})
	case v.Allows(engine.Resume) && v.Locked:
		return l.Say("cli.next.locked", words.Args{"Cmd": resume})
	case v.Allows(engine.Resume):
		return l.Say("cli.next.paused", words.Args{"Cmd": resume})
	case v.State == engine.Failed:
		return l.Say("cli.next.failed", words.Args{"Cmd": resume, "Remove": cmdWords(l, "hoist queue remove "+byName)})
	case v.State == engine.Canceled:
		return l.Say("cli.next.canceled", words.Args{"Send": cmdWords(l, "hoist send")})
	case v.State == engine.Retrying && !v.RetryAt.IsZero():
		next := fact.Fact{Code: fact.RetryIn}
		if v.NextFact != nil && v.NextFact.Code == fact.AskIn {
			next = *v.NextFact // it will ask the destination, not send again
		}
		next.Wait = max(time.Until(v.RetryAt), 0)
		return visible(l.Fact(next))
	case v.NextFact != nil:
		return visible(l.Fact(*v.NextFact))
	}
	return visible(v.Next)
}

// bar is one file's line on a terminal: name, bar, percent, speed, time left.
func bar(l *words.Lang, v engine.JobView) string {
	const width = 24
	frac := 0.0
	if v.Size > 0 {
		frac = float64(v.Committed) / float64(v.Size)
	} else if v.State == engine.Done {
		frac = 1
	}
	filled := int(frac * width)
	nm := visible(v.Name)
	if r := []rune(nm); len(r) > 28 {
		nm = string(r[:27]) + "…"
	}
	pad := 28 - len([]rune(nm))
	s := l.Isolate(nm) + strings.Repeat(" ", max(pad, 0))
	s += fmt.Sprintf(" [%s%s] %4s %9s", strings.Repeat("█", filled), strings.Repeat("░", width-filled), percent(l, int(frac*100)), l.Size(v.Size))
	switch {
	case v.State == engine.Uploading && v.Speed > 0:
		s += "  " + l.Speed(v.Speed)
		if v.ETA >= 0 {
			s += "  " + l.TimeLeft(v.ETA)
		}
	default:
		s += "  " + stateWords(l, v)
	}
	return s
}

// percent is a whole percentage, never rounded up to 100 before the end.
func percent(l *words.Lang, pct int) string {
	return l.Percent(float64(pct) / 100)
}

// line is one file's progress as a plain line, for logs and pipes.
func line(l *words.Lang, v engine.JobView) string {
	switch v.State {
	case engine.Uploading:
		pct := 0
		if v.Size > 0 {
			pct = int(v.Committed * 100 / v.Size)
		}
		s := l.Say("cli.uploading", words.Args{"File": name(l, emailName(l, v)), "State": stateWords(l, v), "Percent": percent(l, pct), "Size": l.Size(v.Size)})
		if next := nextWords(l, v); next != "" {
			s += ". " + next
		}
		return s
	case engine.Done, engine.Failed, engine.Refused, engine.Attention, engine.Retrying:
		return fileLine(l, emailName(l, v), reasonOrState(l, v))
	case engine.Waiting:
		if v.Later {
			return fileLine(l, emailName(l, v), reasonOrState(l, v))
		}
	}
	return fileLine(l, emailName(l, v), stateWords(l, v))
}

func reasonOrState(l *words.Lang, v engine.JobView) string {
	if v.State == engine.Done {
		if hasResult(v) {
			return l.StateThen(string(v.State), resultWords(l, v.Result))
		}
		return stateWords(l, v)
	}
	return l.StateWith(string(v.State), reasonOf(l, v))
}

// destName names a job's destination: the name its user gave it, or its
// kind in a word or two.
func destName(l *words.Lang, v engine.JobView) string {
	if v.Destination != "" && v.Destination != v.DestKind {
		return name(l, v.Destination)
	}
	return l.KindShort(dest.Kind(v.DestKind))
}

// stateWords is a state in the words the window shows it in; a job that
// waits for a time (a full disk, a wait to try again) says until when.
func stateWords(l *words.Lang, v engine.JobView) string {
	if (v.State == engine.Waiting || v.State == engine.Paused) && v.RetryAt.After(time.Now()) {
		return l.StateUntil(string(engine.Waiting), l.Date(v.RetryAt.Local()))
	}
	return l.State(string(v.State))
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
	Email     int     `json:"email,omitempty"` // its place in the mailbox file File, from 1; 0 for a file sent whole
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
	GoogleMessage string `json:"googleMessage,omitempty"`
	// ReasonFact and NextFact say Reason and Next in no language: a code
	// and its parameters (Google's own words among them, as they are).
	ReasonFact *fact.Fact  `json:"reasonFact,omitempty"`
	Next       string      `json:"next,omitempty"`
	NextFact   *fact.Fact  `json:"nextFact,omitempty"`
	Actions    []string    `json:"actions"` // what the engine allows now: "hoist queue ACTION FILE"
	Result     *resultJSON `json:"result,omitempty"`
}

type resultJSON struct {
	ID       string `json:"id,omitempty"`
	ThreadID string `json:"threadId,omitempty"`
	Name     string `json:"name,omitempty"`
	URL      string `json:"url,omitempty"`
	Summary  string `json:"summary,omitempty"`
	// Fact says Summary in no language: a code and what the server gave.
	Fact *fact.Fact `json:"fact,omitempty"`
	// Verified names the server's checksum (or size) that matched the file; "" when none was given.
	Verified string          `json:"verified,omitempty"`
	Raw      json.RawMessage `json:"response,omitempty"`
}

func toJSON(event string, v engine.JobView) jobJSON {
	j := jobJSON{
		Event: event, ID: string(v.ID), File: v.Path, Name: v.Name, Email: v.InMailbox, Size: v.Size,
		State: string(v.State), Sent: v.Sent, Committed: v.Committed, Speed: v.Speed,
		Method: string(v.Method), FellBack: v.FellBack, Restarts: v.Restarts,
		Reason: reasonWords(words.English(), v), GoogleMessage: v.Details, Next: nextWords(words.English(), v), Actions: actionNames(v),
		ReasonFact: v.Fact, NextFact: v.NextFact,
	}
	if v.ETA > 0 {
		j.ETA = v.ETA.Seconds()
	}
	if r := v.Result; r != nil {
		j.Result = &resultJSON{ID: r.ID, ThreadID: r.ThreadID, Name: r.Name, URL: r.URL, Summary: resultWords(words.English(), r), Fact: r.Fact(), Verified: r.Verified}
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
