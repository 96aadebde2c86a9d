package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/emulator"
)

// takeoutMailbox writes a mailbox of n emails as Google Takeout does.
func takeoutMailbox(t *testing.T, dir string, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "From 17%d@xxx Tue Mar 03 07:15:00 +0000 2026\nX-GM-THRID: 17%d\nX-Gmail-Labels: Inbox\n"+
			"From: Noa <noa@example.co.il>\nTo: office@example.org\nSubject: Week %d\nMessage-ID: <week-%d@example.co.il>\n\n"+
			"Notes of week %d.\n>From the minutes.\n\n", i, i, i, i, i)
	}
	path := filepath.Join(dir, "Takeout.mbox")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A real `hoist send` of a mailbox is killed (kill -9) while Gmail holds
// the answer to its third email; --resume asks Gmail for that email by its
// Message-ID, goes on at the fourth, and every email arrives exactly once.
// The terminal's last words count the mailbox's emails.
func TestKilledInTheMiddleOfAMailboxSendsEachEmailOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills real processes")
	}
	emu, base := serveEmulator(t, emulator.Options{})
	hold := make(chan struct{})
	emu.Inject(emulator.Fault{Match: emulator.Match{Stage: emulator.StageUpload}, Skip: 2, Action: emulator.DropAnswer{Hold: hold}})
	home := t.TempDir()
	box := takeoutMailbox(t, home, 6)
	args := []string{"send", "--no-auth", "--journal", filepath.Join(home, "journal.db"), "--to", "gmail-import", "--base-url", base, "--parallel", "1"}
	p := startHoist(t, home, append(args, box)...)
	waitFor(t, p, "the third email arriving", func() bool { return emu.Received() == 3 })
	p.kill()
	close(hold)

	p = startHoist(t, home, append(args, "--resume")...)
	if code := p.wait(t); code != 0 {
		t.Fatalf("hoist send --resume exited %d:\n%s", code, p.out.String())
	}
	seen := map[string]int{}
	for _, o := range emu.Objects() {
		seen[o.MessageID]++
	}
	for i := range 6 {
		if n := seen[fmt.Sprintf("week-%d@example.co.il", i)]; n != 1 {
			t.Errorf("email %d arrived %d times; output:\n%s", i, n, p.out.String())
		}
	}
	if len(emu.Objects()) != 6 {
		t.Errorf("%d emails in Gmail, want 6", len(emu.Objects()))
	}
	if out := p.out.String(); !strings.Contains(out, "Takeout.mbox") || !strings.Contains(out, "emails") {
		t.Errorf("the last words do not count the mailbox's emails:\n%s", out)
	}
}

// The totals line of hoist send counts a mailbox's emails as emails, and
// other files as files: each is said with its own word.
func TestSendTotalsCountAMailboxsEmails(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	box := takeoutMailbox(t, t.TempDir(), 3)
	eml := filepath.Join("..", "testdata", "eml", "plain-ascii.eml")
	code, stdout, stderr := l.send("--to", "gmail-import", "--base-url", l.url, box)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if want := "\n3 of 3 emails uploaded ("; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	other := takeoutMailbox(t, t.TempDir(), 2)
	code, stdout, stderr = l.send("--to", "gmail-insert", "--base-url", l.url, other, eml)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if want := "\n1 of 1 file, 2 of 2 emails uploaded ("; !strings.Contains(stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
}
