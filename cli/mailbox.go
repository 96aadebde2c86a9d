package cli

import (
	"fmt"
	"strings"

	"hoist/engine"
	"hoist/words"
)

// A mailbox file's emails are uploads of their own (engine.JobView's
// InMailbox); on a terminal they are drawn as one line for the mailbox,
// "812 of 2,000 emails", not a bar each, and the last words name each
// email that needs the user by its place in the mailbox.

// row is what one line of the terminal shows: one file, or the emails of
// one mailbox to one destination.
type row struct {
	v      engine.JobView   // a file sent whole
	emails []engine.JobView // a mailbox's emails, in order
}

// rows puts each mailbox's emails together, where its first one stands.
func rows(views []engine.JobView) []row {
	out := make([]row, 0, len(views))
	at := map[string]int{} // mailbox and destination → index in out
	for _, v := range views {
		if v.InMailbox == 0 {
			out = append(out, row{v: v})
			continue
		}
		key := v.Path + "\x00" + v.Destination + "\x00" + v.DestKind + "\x00" + v.Account
		if i, ok := at[key]; ok {
			out[i].emails = append(out[i].emails, v)
			continue
		}
		at[key] = len(out)
		out = append(out, row{emails: []engine.JobView{v}})
	}
	return out
}

// emailName names one email of a mailbox: the mailbox and its place in it.
func emailName(l *words.Lang, v engine.JobView) string {
	if v.InMailbox == 0 {
		return v.Name
	}
	return l.Say("mailbox.email", words.Args{"File": v.Name, "N": v.InMailbox})
}

// mailboxBar is a mailbox's line on a terminal: its name, a bar of the
// bytes its emails hold, and how many of them are done.
func mailboxBar(l *words.Lang, emails []engine.JobView) string {
	const width = 24
	var size, committed, moving int64
	var speed float64
	done := 0
	for _, v := range emails {
		if v.State.Dropped() {
			continue
		}
		size += v.Size
		committed += v.Committed
		if v.State == engine.Done {
			done++
			moving += v.Size
		}
		if v.State == engine.Uploading {
			speed += v.Speed
		}
	}
	frac := 0.0
	if size > 0 {
		frac = float64(committed) / float64(size)
	}
	filled := min(int(frac*width), width)
	nm := visible(emails[0].Name)
	if r := []rune(nm); len(r) > 28 {
		nm = string(r[:27]) + "…"
	}
	s := l.Isolate(nm) + strings.Repeat(" ", max(28-len([]rune(nm)), 0))
	s += fmt.Sprintf(" [%s%s] %4s %9s", strings.Repeat("█", filled), strings.Repeat("░", width-filled), percent(l, int(frac*100)), l.Size(size))
	s += "  " + l.Say("count.emailsDone", words.Args{"Done": done, "N": len(emails)})
	if speed > 0 {
		s += "  " + l.Speed(speed)
	}
	return s
}
