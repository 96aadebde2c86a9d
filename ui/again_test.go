package ui

import (
	"strings"
	"testing"

	"hoist/engine"
)

// TestAddingWhatWentBeforeAsks: files already uploaded whole to the same
// place are not sent again without a word: the window says where and when
// they went and asks; Skip (the default) adds nothing, Send again sends them.
func TestAddingWhatWentBeforeAsks(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	file := h.writeFile("report.eml", emailBytes("A <a@example.com>", "report"))
	h.drop(file)
	h.waitFor("the file uploaded", func() bool { return len(h.q.Jobs()) == 1 && h.state("report.eml") == engine.Done })

	ask := func() {
		t.Helper()
		h.d.sentQuestion = nil
		h.drop(file)
		h.waitFor("the question", func() bool { return h.d.sentQuestion != nil && len(h.d.frame.Dialogs) == 1 })
		said := overlayTexts(h)
		for _, want := range []string{"report.eml\u2069 is already in the sandbox", "(uploaded ", "Send again anyway, or skip?"} {
			if !strings.Contains(said, want) {
				t.Errorf("the question says %q, without %q", said, want)
			}
		}
		if q := h.d.sentQuestion; q.Confirm.Text != "Skip" || q.Dismiss.Text != "Send again" {
			t.Errorf("its answers are %q (the default) and %q", q.Confirm.Text, q.Dismiss.Text)
		}
	}
	ask()
	h.d.sentQuestion.PressDefault() // Enter: Skip
	h.d.frame.Work.Wait()
	h.Refresh()
	if n := len(h.q.Jobs()); n != 1 {
		t.Fatalf("skipped, yet %d uploads listed", n)
	}
	ask()
	h.d.sentQuestion.Hide() // Escape: nothing sent either
	h.d.frame.Work.Wait()
	h.Refresh()
	if n := len(h.q.Jobs()); n != 1 {
		t.Fatalf("closed, yet %d uploads listed", n)
	}
	ask()
	h.d.sentQuestion.Dismiss.OnTapped() // Send again
	h.waitFor("the file sent again", func() bool {
		jobs := h.q.Jobs()
		return len(jobs) == 2 && jobs[0].State == engine.Done && jobs[1].State == engine.Done
	})
}
