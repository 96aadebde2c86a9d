package ui

import (
	"context"
	"slices"
	"testing"

	"fyne.io/fyne/v2"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/dialogs"
	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// TestAddFilesUsesTheSystemDialog: "Add files…" takes every file the
// system's dialog returns, in one go, and asks for several at once.
func TestAddFilesUsesTheSystemDialog(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	var paths []string
	for _, n := range []string{"one.eml", "two.eml", "three.eml"} {
		paths = append(paths, h.writeFile(n, emailBytes("A <a@example.com>", n)))
	}
	asked := make(chan filechooser.Options, 1)
	h.d.files.Choose = func(_ context.Context, o filechooser.Options) ([]string, error) {
		asked <- o
		return paths, nil
	}
	dialogs.FilesAdder{Dialogs: h.d.files, Add: h.d.Add}.PickFiles()
	h.waitFor("three finished rows", func() bool { return h.d.shots.Last.Totals.Done == 3 && len(h.d.list.Views()) == 3 })
	if o := <-asked; !o.Multiple || o.Directory {
		t.Errorf("the dialog was asked for %+v, want several files", o)
	}
	if h.Shown("two.eml") != engine.Done {
		t.Error("two.eml was not added")
	}
}

// TestWithoutPortalTheWindowHasItsOwnDialog: where the desktop has no file
// chooser, Hoist's own opens instead, and several files ticked in it, with
// the keyboard, are added in one go.
func TestWithoutPortalTheWindowHasItsOwnDialog(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	for _, n := range []string{"one.eml", "two.eml", "three.eml"} {
		h.writeFile(n, emailBytes("A <a@example.com>", n))
	}
	h.d.files.Choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.files.Pick(false, h.d.Add)
	h.waitFor("a dialog", func() bool { return len(h.d.frame.Dialogs) == 1 })
	c := h.d.win.Canvas()
	list := inTopOverlay(h, func(*widgets.ChooserList) bool { return true })
	if c.Focused() != fyne.Focusable(list) {
		t.Fatalf("the dialog opens with %T focused, not its list", c.Focused())
	}
	// The harness's files are in a folder of their own: open it, then tick two files.
	open := inTopOverlay(h, func(b *widgets.Button) bool { return b.Text == "Open" })
	ch := chooserOn(t, h)
	ch.Show(h.files)
	for _, name := range []string{"one.eml", "three.eml"} {
		i := slices.IndexFunc(ch.Items(), func(it widgets.ChooserItem) bool { return it.Name == name })
		list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // the keyboard's cursor
		list.Select(i)                                    // what Space on it does
	}
	if open.Disabled() {
		t.Fatal("Open stays off with two files ticked")
	}
	open.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	h.waitFor("two finished rows", func() bool { return h.d.shots.Last.Totals.Done == 2 && len(h.d.list.Views()) == 2 })
	if h.Shown("one.eml") != engine.Done || h.Shown("three.eml") != engine.Done {
		t.Errorf("added %v", jobNames(h.d.list.Views()))
	}
}

// chooserOn is the chooser the harness's window shows.
func chooserOn(t *testing.T, h *harness) *widgets.Chooser {
	t.Helper()
	c := h.d.files.Chooser
	if c == nil || len(h.d.frame.Dialogs) == 0 || h.d.frame.Dialogs[len(h.d.frame.Dialogs)-1] != view.Hideable(c.Dialog) {
		t.Fatal("the dialog on top is no chooser")
	}
	return c
}

// TestAddFilesOffersEmailFilesForGmail: for a Gmail destination the file
// dialog offers the email files Hoist takes (.eml, .msg, .mbox), and says
// so; for a destination that takes any file it offers any file.
func TestAddFilesOffersEmailFilesForGmail(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	asked := make(chan filechooser.Options, 2)
	h.d.files.Choose = func(_ context.Context, o filechooser.Options) ([]string, error) {
		asked <- o
		return nil, nil
	}
	h.d.files.Pick(false, h.d.Add)
	if o := <-asked; len(o.Filters) != 0 {
		t.Errorf("for the sandbox the dialog offers %+v, want any file", o.Filters)
	}
	h.d.target.Dest = dest.Destination{Kind: dest.GmailImport}
	h.d.files.Pick(false, h.d.Add)
	o := <-asked
	if len(o.Filters) != 1 || o.Filters[0].Name != "Email files (.eml, .msg, .mbox)" {
		t.Fatalf("for Gmail the dialog offers %+v", o.Filters)
	}
	for _, name := range []string{"a.eml", "b.msg", "c.mbox", "D.MSG"} {
		if !filechooser.Matches(o.Filters, name) {
			t.Errorf("%s is not offered", name)
		}
	}
	if filechooser.Matches(o.Filters, "photo.png") {
		t.Error("photo.png is offered for Gmail")
	}
}
