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
	h.waitFor("the file uploaded", func() bool { return len(h.Queue.Jobs()) == 1 && h.state("report.eml") == engine.Done })

	ask := func() {
		t.Helper()
		h.Host.sentQuestion = nil
		h.drop(file)
		h.waitFor("the question", func() bool { return h.Host.sentQuestion != nil && len(h.Host.Frame.Dialogs) == 1 })
		said := overlayTexts(h)
		for _, want := range []string{"report.eml\u2069 is already in the sandbox", "(uploaded ", "Send again anyway, or skip?"} {
			if !strings.Contains(said, want) {
				t.Errorf("the question says %q, without %q", said, want)
			}
		}
		if q := h.Host.sentQuestion; q.Confirm.Text != "Skip" || q.Dismiss.Text != "Send again" {
			t.Errorf("its answers are %q (the default) and %q", q.Confirm.Text, q.Dismiss.Text)
		}
	}
	ask()
	h.Host.sentQuestion.PressDefault() // Enter: Skip
	h.Host.Frame.Work.Wait()
	h.Refresh()
	if n := len(h.Queue.Jobs()); n != 1 {
		t.Fatalf("skipped, yet %d uploads listed", n)
	}
	ask()
	h.Host.sentQuestion.Hide() // Escape: nothing sent either
	h.Host.Frame.Work.Wait()
	h.Refresh()
	if n := len(h.Queue.Jobs()); n != 1 {
		t.Fatalf("closed, yet %d uploads listed", n)
	}
	ask()
	h.Host.sentQuestion.Dismiss.OnTapped() // Send again
	h.waitFor("the file sent again", func() bool {
		jobs := h.Queue.Jobs()
		return len(jobs) == 2 && jobs[0].State == engine.Done && jobs[1].State == engine.Done
	})
}
