package ui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"hoist/engine/dest"
	"hoist/ui/filechooser"
)

// TestADropBehindADialogIsRefusedAndSaid: a drop while a dialog (Settings)
// is open does not go in unseen behind it: nothing is added, and a
// sentence on top of the dialog says why.
func TestADropBehindADialogIsRefusedAndSaid(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.showSettings()
	h.drop(h.writeFile("report.eml", emailBytes("A <a@example.com>", "report")))
	h.d.work.Wait() // whatever the drop started in the background is done
	h.refresh()
	if n := len(h.q.Jobs()); n != 0 {
		t.Fatalf("%d files were added behind the open dialog", n)
	}
	if n := len(h.d.dialogs); n != 2 || !strings.Contains(overlayTexts(h), "was not added") {
		t.Errorf("%d dialogs; on top: %q", n, overlayTexts(h))
	}
}

// TestADropOnHoistsChooserIsChosen: a drop while Hoist's own file chooser
// is open to add files is taken as chosen there: the chooser closes and
// the files are added.
func TestADropOnHoistsChooserIsChosen(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.pick(false)
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.dialogs) == 1 })
	a := h.writeFile("a.eml", emailBytes("A <a@example.com>", "a"))
	b := h.writeFile("b.eml", emailBytes("A <a@example.com>", "b"))
	h.drop(a, b)
	if len(h.d.dialogs) != 0 {
		t.Fatal("the chooser stayed open over the dropped files")
	}
	h.waitFor("both files listed", func() bool { return len(h.d.list.views()) == 2 })
}

// TestADropThatAddsNothingSaysWhy, on Gmail in the light theme: a web
// address dropped from a browser, or an empty folder, adds nothing and
// the window says why.
func TestADropThatAddsNothingSaysWhy(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.choose(dest.Destination{Kind: dest.GmailInsert, Account: "a@example.com"})
	h.d.message.SetText("")
	web, _ := storage.ParseURI("https://mail.example.com/attachment?id=7")
	h.d.dropped(fyne.NewPos(10, 10), []fyne.URI{web})
	if got := h.d.message.Text(); !strings.Contains(got, "not one") || !h.d.message.Visible() {
		t.Errorf("a dropped web address: the window says %q", got)
	}
	h.d.message.SetText("")
	empty := filepath.Join(h.files, "empty folder")
	os.MkdirAll(empty, 0o755)
	h.drop(empty)
	h.waitFor("a sentence about the empty folder", func() bool { return strings.Contains(h.d.message.Text(), "no files") })
	if n := len(h.q.Jobs()); n != 0 {
		t.Errorf("%d jobs from an empty folder", n)
	}
}
