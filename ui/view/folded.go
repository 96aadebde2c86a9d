package view

import (
	"hoist/engine"
	"hoist/engine/media"
	"strings"
)

// A mailbox file (.mbox) sent to Gmail is its emails, each an upload of its
// own (engine.Brief.InMailbox), listed one after another. The list shows
// them as one row for the mailbox — its name, a bar of all its bytes and
// "812 of 2,000 emails" — and lists its emails under it only when the row
// is opened (a click on it): a mailbox of thousands of emails is one line
// of the list, not thousands. The totals still count every email.

// MailboxRowPrefix begins the id of a mailbox's row; the rest is the id of
// its first email.
const MailboxRowPrefix = "mailbox:"

// MailboxRow is what a mailbox's row stands for.
type MailboxRow struct {
	emails []engine.JobID
	states map[engine.State]int
	done   int
}

// IsMailboxRow reports whether id is a mailbox's row.
func IsMailboxRow(id engine.JobID) bool { return strings.HasPrefix(string(id), MailboxRowPrefix) }

// mailboxes are rows whose emails of a mailbox are runs of places going
// up (1, 2, 3…): each run is a row of its own; a new run starts where the
// place does not go up.
func MailboxRuns(rows []engine.Brief) [][2]int {
	var runs [][2]int
	for i := 0; i < len(rows); {
		if rows[i].InMailbox <= 0 {
			i++
			continue
		}
		j := i + 1
		for j < len(rows) && rows[j].InMailbox > rows[j-1].InMailbox {
			j++
		}
		runs = append(runs, [2]int{i, j})
		i = j
	}
	return runs
}

// foldMailboxes is rows with each mailbox's emails as one row, followed by
// its emails when open says it is opened; nil groups when there is none.
func foldMailboxes(rows []engine.Brief, open map[engine.JobID]bool) ([]engine.Brief, map[engine.JobID]*MailboxRow) {
	runs := MailboxRuns(rows)
	if len(runs) == 0 {
		return rows, nil
	}
	groups := make(map[engine.JobID]*MailboxRow, len(runs))
	out := make([]engine.Brief, 0, len(rows)-len(runs))
	at := 0
	for _, run := range runs {
		out = append(out, rows[at:run[0]]...)
		emails := rows[run[0]:run[1]]
		id := engine.JobID(MailboxRowPrefix + string(emails[0].ID))
		g := &MailboxRow{states: map[engine.State]int{}}
		b := engine.Brief{ID: id}
		for _, e := range emails {
			g.emails = append(g.emails, e.ID)
			g.states[e.State]++
			b.Version += e.Version + 1
			b.Speed += e.Speed
			if e.State == engine.Done {
				g.done++
			}
			if e.State.Dropped() {
				continue
			}
			b.Size += e.Size
			done := e.Committed
			if e.State == engine.Done {
				done = e.Size
			}
			b.Committed += done
			b.Delivered += max(e.Delivered, done)
		}
		b.State = g.state()
		groups[id] = g
		out = append(out, b)
		if open[id] {
			out = append(out, emails...)
		}
		at = run[1]
	}
	out = append(out, rows[at:]...)
	return out, groups
}

// state is the mailbox's state as its row says it: the liveliest of its
// emails' (one being sent makes it "uploading"), then what needs the user.
func (g *MailboxRow) state() engine.State {
	for _, s := range []engine.State{engine.Uploading, engine.Checking, engine.Retrying, engine.Waiting, engine.Attention, engine.Failed, engine.Paused, engine.Refused, engine.Done} {
		if g.states[s] > 0 {
			return s
		}
	}
	return engine.Canceled
}

// actions are what the mailbox's row offers: what any of its emails allows,
// done to each that allows it.
func (g *MailboxRow) actions() []engine.Action {
	moving := g.states[engine.Waiting] + g.states[engine.Uploading] + g.states[engine.Checking] + g.states[engine.Retrying]
	var out []engine.Action
	if moving > 0 {
		out = append(out, engine.Pause)
	}
	if g.states[engine.Paused] > 0 {
		out = append(out, engine.Resume)
	}
	if g.states[engine.Failed] > 0 {
		out = append(out, engine.Retry)
	}
	if moving+g.states[engine.Paused]+g.states[engine.Failed]+g.states[engine.Attention] > 0 {
		out = append(out, engine.Cancel)
	}
	return append(out, engine.Remove)
}

// View is the mailbox's row as a view: its first email's file and
// destination, the sums of its emails, and no email's own words.
func (g *MailboxRow) View(row engine.Brief, first engine.JobView) engine.JobView {
	return engine.JobView{
		ID: row.ID, Path: first.Path, Name: first.Name, MIME: media.MailboxType,
		Destination: first.Destination, DestKind: first.DestKind, Server: first.Server, Account: first.Account,
		State: row.State, Size: row.Size, Committed: row.Committed, Delivered: row.Delivered, Speed: row.Speed,
		ETA: -1, Actions: g.actions(), Created: first.Created, Version: row.Version,
	}
}

// CountWords says how many of its emails arrived: "812 of 2,000 emails".
func (g *MailboxRow) CountWords() string {
	return Say("count.emailsDone", "Done", g.done, "N", len(g.emails))
}
