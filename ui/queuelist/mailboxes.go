package queuelist

import (
	"hoist/engine"
	"hoist/ui/view"
)

// showMailbox puts on the row what only a mailbox's row says: how many of
// its emails arrived, where a file's row says what it is.
func (r *JobRow) showMailbox(g *view.MailboxRow) {
	if w := g.CountWords(); r.Detail.Text() != w {
		r.Detail.SetText(w)
		r.nameLine.Refresh()
	}
}

// rowName is the name a row shows: a file's, or for an email of a
// mailbox listed under its row, the mailbox's and its place in it.
func rowName(v engine.JobView) string {
	if v.InMailbox > 0 {
		return view.Say("mailbox.email", "File", v.Name, "N", v.InMailbox)
	}
	return v.Name
}
