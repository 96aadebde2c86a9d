package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
)

// TestClosingKeepsUploadingInTheTray: closing the window during an upload,
// with the setting on, offers to keep uploading; the window goes, the
// upload goes on, and the tray's menu shows the window again, pauses
// everything or quits.
func TestClosingKeepsUploadingInTheTray(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	var menu *fyne.Menu
	h.d.exit.tray = func(m *fyne.Menu) { menu = m }
	h.d.exit.trayShown = func() bool { return true } // a tray host answers
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)

	h.d.exit.closing()
	test.Tap(h.button("Keep uploading"))
	if menu == nil || !h.d.exit.hidden {
		t.Fatal("Keep uploading did not move Hoist to the tray")
	}
	if h.d.exit.quitting || h.state("movie.dat") != engine.Uploading {
		t.Fatal("the upload stopped when the window closed")
	}
	var labels []string
	for _, it := range menu.Items {
		labels = append(labels, it.Label)
	}
	if len(menu.Items) != 4 || menu.Items[0].Label != "Show Hoist" || menu.Items[1].Label != "Pause all" || menu.Items[3].Label != "Quit" {
		t.Fatalf("the tray offers %q", labels)
	}
	menu.Items[0].Action()
	if h.d.exit.hidden {
		t.Error("Show Hoist did not bring the window back")
	}
	menu.Items[1].Action()
	h.waitFor("Pause all from the tray", func() bool { return h.state("movie.dat") == engine.Paused })

	w := test.NewTempWindow(t, widget.NewMenu(menu))
	w.Resize(fyne.NewSize(200, 150))
	test.AssertImageMatches(t, "tray_menu.png", w.Canvas().Capture())
}

// TestWithTheSettingOffClosingAsksOnlyToQuit: the setting off, "Keep
// uploading" keeps the window open.
func TestWithTheSettingOffClosingAsksOnlyToQuit(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	h.d.exit.tray = func(*fyne.Menu) { t.Error("the tray was used with the setting off") }
	h.d.settings.Current.Background = false
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)
	h.d.exit.closing()
	test.Tap(h.button("Keep uploading"))
	if h.d.exit.hidden || h.d.exit.quitting {
		t.Error("with the setting off, Keep uploading should only close the question")
	}
}
