package ui

import (
	"context"
	"testing"

	"fyne.io/fyne/v2/dialog"

	"hoist/engine"
	"hoist/ui/filechooser"
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
	h.d.choose = func(_ context.Context, o filechooser.Options) ([]string, error) {
		asked <- o
		return paths, nil
	}
	h.d.pickFiles()
	h.waitFor("three finished rows", func() bool { return h.d.lastSummary.Done == 3 && len(h.d.list.views) == 3 })
	if o := <-asked; !o.Multiple || o.Directory {
		t.Errorf("the dialog was asked for %+v, want several files", o)
	}
	if h.shown("two.eml") != engine.Done {
		t.Error("two.eml was not added")
	}
}

// TestWithoutPortalTheWindowHasItsOwnDialog: where the desktop has no file
// chooser, the toolkit's dialog opens instead.
func TestWithoutPortalTheWindowHasItsOwnDialog(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.pickFolder()
	h.waitFor("a dialog", func() bool { return len(h.d.dialogs) == 1 })
	if _, ok := h.d.dialogs[0].(*dialog.FileDialog); !ok {
		t.Errorf("opened %T, want the toolkit's file dialog", h.d.dialogs[0])
	}
}
