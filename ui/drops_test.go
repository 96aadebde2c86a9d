package ui

import (
	"context"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"hoist/engine/dest"
	"hoist/ui/widgets/filechooser"
)

// TestADropBehindADialogIsRefusedAndSaid: a drop while a dialog (Settings)
// is open does not go in unseen behind it: nothing is added, and a
// sentence on top of the dialog says why.
func TestADropBehindADialogIsRefusedAndSaid(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.settings.ShowSettings()
	h.drop(h.writeFile("report.eml", emailBytes("A <a@example.com>", "report")))
	h.d.frame.Work.Wait() // whatever the drop started in the background is done
	h.Refresh()
	if n := len(h.q.Jobs()); n != 0 {
		t.Fatalf("%d files were added behind the open dialog", n)
	}
	if n := len(h.d.frame.Dialogs); n != 2 || !strings.Contains(overlayTexts(h), "was not added") {
		t.Errorf("%d dialogs; on top: %q", n, overlayTexts(h))
	}
}

// TestADropOnHoistsChooserIsChosen: a drop while Hoist's own file chooser
// is open to add files is taken as chosen there: the chooser closes and
// the files are added.
func TestADropOnHoistsChooserIsChosen(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.files.Choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.files.Pick(false, h.d.Add)
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.frame.Dialogs) == 1 })
	a := h.writeFile("a.eml", emailBytes("A <a@example.com>", "a"))
	b := h.writeFile("b.eml", emailBytes("A <a@example.com>", "b"))
	h.drop(a, b)
	if len(h.d.frame.Dialogs) != 0 {
		t.Fatal("the chooser stayed open over the dropped files")
	}
	h.waitFor("both files listed", func() bool { return len(h.d.list.Views()) == 2 })
}

// TestADropThatAddsNothingSaysWhy, on Gmail in the light theme: a web
// address dropped from a browser, or an empty folder, adds nothing and
// the window says why.
func TestADropThatAddsNothingSaysWhy(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.Choose(dest.Destination{Kind: dest.GmailInsert, Account: "a@example.com"})
	h.d.frame.Message.SetText("")
	web, _ := storage.ParseURI("https://mail.example.com/attachment?id=7")
	h.d.takeDrop([]fyne.URI{web})
	if got := h.d.frame.Message.Text(); !strings.Contains(got, "not one") || !h.d.frame.Message.Visible() {
		t.Errorf("a dropped web address: the window says %q", got)
	}
	h.d.frame.Message.SetText("")
	empty := filepath.Join(h.files, "empty folder")
	os.MkdirAll(empty, 0o755)
	h.drop(empty)
	h.waitFor("a sentence about the empty folder", func() bool { return strings.Contains(h.d.frame.Message.Text(), "no files") })
	if n := len(h.q.Jobs()); n != 0 {
		t.Errorf("%d jobs from an empty folder", n)
	}
}

// TestTheDropsAnswerIsTheTruth: what a drop tells the program the files
// came from (xdnd.Answer, on X11) is whether its files were taken.
func TestTheDropsAnswerIsTheTruth(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	file := storage.NewFileURI(h.writeFile("a.eml", emailBytes("A <a@example.com>", "a")))
	web, _ := storage.ParseURI("https://example.com/a.eml")
	if !h.d.dropTaken([]fyne.URI{file}) {
		t.Error("a file added is answered as not taken")
	}
	if h.d.dropTaken([]fyne.URI{web}) {
		t.Error("a web address, not added, is answered as taken")
	}
	h.d.settings.ShowSettings()
	if h.d.dropTaken([]fyne.URI{file}) {
		t.Error("a file refused behind a dialog is answered as taken")
	}
}

// TestFilesForAnIncompleteDestinationOpenItsForm: files dropped while the
// destination lacks settings are not added; the window says what is
// missing and opens the destination's form. The queue checks the settings,
// once, and the window takes its answer.
func TestFilesForAnIncompleteDestinationOpenItsForm(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.Choose(dest.Destination{Kind: dest.CM360}) // no profile, no advertiser
	h.d.frame.Message.SetText("")
	overlays := len(h.d.win.Canvas().Overlays().List())
	h.drop(h.writeFile("banner.png", pngBytes(t, 4, 4, color.White)))
	h.waitFor("the form", func() bool { return len(h.d.win.Canvas().Overlays().List()) > overlays })
	got := strings.NewReplacer("\u2068", "", "\u2069", "").Replace(h.d.frame.Message.Text()) // the marks that keep names whole
	if !strings.Contains(got, "finish the destination's settings") || !strings.Contains(got, "User profile ID is required.") {
		t.Errorf("the window says %q", got)
	}
	if n := len(h.q.Jobs()); n != 0 {
		t.Errorf("%d jobs for an incomplete destination", n)
	}
}
