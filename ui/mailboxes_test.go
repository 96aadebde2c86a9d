package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/queuelist"
	"hoist/ui/view"
)

// A mailbox sent to Gmail is one row in the window, its name, its bytes
// and how many of its emails arrived; a click lists its emails under it,
// and another puts them away. The totals count every email.
func TestMailboxIsOneRowWithItsEmailsInside(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	var b strings.Builder
	for i := range 3 {
		fmt.Fprintf(&b, "From x@y Tue Mar 03 07:15:00 2026\nFrom: a@example.com\nTo: b@example.org\nSubject: Week %d\nMessage-ID: <w%d@example.com>\n\nNotes %d.\n\n", i, i, i)
	}
	box := filepath.Join(h.files, "Inbox.mbox")
	if err := os.WriteFile(box, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	res := h.q.Add([]string{box}, dest.Destination{Kind: dest.GmailImport, BaseURL: h.sb.Url})
	if len(res.IDs) != 3 {
		t.Fatalf("%d jobs, problems %v", len(res.IDs), res.Problems)
	}
	h.waitFor("the emails to arrive", func() bool {
		rows := h.d.list.Snap.Rows
		return len(rows) == 1 && rows[0].State == engine.Done
	})
	snap := h.d.list.Snap
	if got := snap.Totals.Files; got != 3 {
		t.Errorf("the totals count %d files, want the 3 emails", got)
	}
	v := snap.View(0)
	if v.Name != "Inbox.mbox" || !view.IsMailboxRow(v.ID) {
		t.Fatalf("the row shows %q (%s)", v.Name, v.ID)
	}
	var row *queuelist.JobRow
	walk(h.d.list, func(o fyne.CanvasObject) {
		if r, ok := o.(*queuelist.JobRow); ok && r.Shown != 0 && r.View.ID == v.ID && r.Visible() {
			row = r
		}
	})
	if row == nil {
		t.Fatal("the mailbox's row is not on screen")
	}
	if got := row.Detail.Text(); got != "3 of 3 emails" {
		t.Errorf("the row says %q, want how many of its emails arrived", got)
	}
	h.d.list.Click(0, 0)
	h.Refresh()
	if n := len(h.d.list.Snap.Rows); n != 4 {
		t.Fatalf("opened, the list has %d rows, want the mailbox and its 3 emails", n)
	}
	if e := h.d.list.Snap.View(2); e.InMailbox != 2 || e.Email == nil || e.Email.Subject != "Week 1" {
		t.Errorf("the second email's row shows %+v", e)
	}
	var names []string
	walk(h.d.list, func(o fyne.CanvasObject) {
		if r, ok := o.(*queuelist.JobRow); ok && r.Shown != 0 && r.Visible() {
			names = append(names, r.Name.Text())
		}
	})
	if !slices.Contains(names, "Inbox.mbox, email 2") {
		t.Errorf("the rows are named %q, want each email by its place in the mailbox", names)
	}
	h.d.list.Click(0, 0)
	h.Refresh()
	if n := len(h.d.list.Snap.Rows); n != 1 {
		t.Errorf("closed again, the list has %d rows", n)
	}
}

// The mailbox row's buttons act on each of its emails: Pause pauses every
// email still waiting, and Resume lets them go on.
func TestMailboxRowPausesAndResumesItsEmails(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{Idle: true}})
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, "From x@y Tue Mar 03 07:15:00 2026\nFrom: a@example.com\nSubject: Day %d\nMessage-ID: <d%d@example.com>\n\nNotes.\n\n", i, i)
	}
	box := filepath.Join(h.files, "Archive.mbox")
	if err := os.WriteFile(box, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ids := h.q.Add([]string{box}, dest.Destination{Kind: dest.GmailInsert, BaseURL: h.sb.Url}).IDs
	h.waitFor("the mailbox's row", func() bool { return len(h.d.list.Snap.Rows) == 1 })
	row := h.d.list.Snap.View(0)
	if !row.Allows(engine.Pause) || row.Allows(engine.Resume) {
		t.Fatalf("a waiting mailbox's row offers %v", row.Actions)
	}
	h.d.acts.Do(row, engine.Pause)
	all := func(s engine.State) func() bool {
		return func() bool {
			for _, id := range ids {
				if v, _ := h.q.Job(id); v.State != s {
					return false
				}
			}
			return true
		}
	}
	h.waitFor("every email to pause", all(engine.Paused))
	h.Refresh() // the picture drawn after the last email paused
	row = h.d.list.Snap.View(0)
	if row.State != engine.Paused || !row.Allows(engine.Resume) {
		t.Errorf("the paused mailbox's row is %s offering %v", row.State, row.Actions)
	}
	h.d.acts.Do(row, engine.Resume)
	h.waitFor("every email to wait again", all(engine.Waiting))
}
