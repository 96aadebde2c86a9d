package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hoist/engine"
	"hoist/internal/sessionbus"
	"hoist/internal/testbus"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// closingQuestion closes the window during an upload, with the setting to
// keep uploading on, and returns the question's text.
func closingQuestion(t *testing.T, h *harness) string {
	t.Helper()
	h.d.settings.Current.Background = true
	h.d.exit.closing()
	if len(h.d.frame.Dialogs) == 0 {
		t.Fatal("closing during an upload asked nothing")
	}
	var text []string
	walk(h.d.win.Canvas().Overlays().Top(), func(o fyne.CanvasObject) {
		if p, ok := o.(*widgets.Paragraph); ok {
			text = append(text, p.Text())
		}
	})
	return strings.Join(text, " ")
}

// TestWithoutATrayHostTheWindowStays, on a real private session bus with
// no tray host (GNOME without an extension, a bare window manager): closing
// the window and keeping uploading must not hide it where nothing would
// bring it back. It is minimised instead, its button carries no ✕, and
// Hoist quits once the upload is done, since closing the window asked it to.
func TestWithoutATrayHostTheWindowStays(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", testbus.Start(t))
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	h.d.exit.tray = func(*fyne.Menu) { t.Error("the tray was used though no tray icon would be seen") }
	release, _ := stalled(t, h, "movie.dat")

	if q := closingQuestion(t, h); !strings.Contains(q, "minimised") || strings.Contains(q, "tray") {
		t.Errorf("without a tray the question says %q", q)
	}
	keep := h.button("Keep uploading")
	if keep.Icon == theme.CancelIcon() {
		t.Error("Keep uploading carries a ✕ icon")
	}
	test.Tap(keep)
	if h.d.exit.hidden {
		t.Fatal("the window was hidden with no tray to bring it back")
	}
	if !h.d.exit.minimised || !h.d.exit.whenDone.Load() {
		t.Fatal("Keep uploading neither minimised the window nor planned to quit afterwards")
	}
	if h.d.exit.quitting || h.state("movie.dat") != engine.Uploading {
		t.Fatal("the upload stopped when the window closed")
	}
	h.Refresh()
	if h.d.exit.quitting {
		t.Fatal("Hoist quit while the file was still uploading")
	}
	close(release)
	h.waitFor("Hoist to quit once the upload is done", func() bool { return h.d.exit.quitting })
	if h.state("movie.dat") != engine.Done {
		t.Errorf("Hoist quit with the file %s", h.state("movie.dat"))
	}
}

// TestWithoutNotificationsTheWindowShowsTheEnd: where no notification can
// be shown (no session bus), "Keep uploading" promised that Hoist tells
// when the files are up, then Hoist quit in silence and the window
// vanished. The question now says the window comes back, and when the
// upload is done it does, saying why, and Hoist stays open.
func TestWithoutNotificationsTheWindowShowsTheEnd(t *testing.T) {
	t.Setenv(sessionbus.Variable, sessionbus.None)
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	h.d.exit.tray = func(*fyne.Menu) { t.Error("the tray was used though nothing could show it") }
	h.d.exit.trayShown = func() bool { return true }
	release, _ := stalled(t, h, "movie.dat")

	if q := closingQuestion(t, h); strings.Contains(q, "tells you") || !strings.Contains(q, "comes back") {
		t.Errorf("with no notifications the question says %q", q)
	}
	test.Tap(h.button("Keep uploading"))
	if !h.d.exit.minimised || h.d.exit.hidden {
		t.Fatal("Keep uploading did not minimise the window")
	}
	close(release)
	h.waitFor("the upload to end and the window to come back", func() bool {
		return h.state("movie.dat") == engine.Done && !h.d.exit.minimised
	})
	h.Refresh()
	if h.d.exit.quitting {
		t.Fatal("Hoist quit with nothing to tell the user the files are up")
	}
	if got := h.d.frame.Message.Text(); !h.d.frame.Message.Visible() || !strings.Contains(got, "stayed open") {
		t.Errorf("the window came back saying %q", got)
	}
}

// TestWithATrayHostTheWindowGoesToTheTray, on a real private session bus
// with a stand-in tray host: the window goes to the tray, the question says
// so, and a second Hoist (a hand-over, even without files) brings it back
// to the front and keeps Hoist open.
func TestWithATrayHostTheWindowGoesToTheTray(t *testing.T) {
	bus := testbus.Start(t)
	testbus.StartTrayWatcher(t, bus, true)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", bus)
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	var menu *fyne.Menu
	h.d.exit.tray = func(m *fyne.Menu) { menu = m }
	release, _ := stalled(t, h, "movie.dat")

	if q := closingQuestion(t, h); !strings.Contains(q, "system tray") {
		t.Errorf("with a tray the question says %q", q)
	}
	test.Tap(h.button("Keep uploading"))
	if menu == nil || !h.d.exit.hidden || !h.d.exit.whenDone.Load() {
		t.Fatal("Keep uploading did not move Hoist to the tray")
	}
	h.d.exit.handedOver(nil) // `hoist` started again
	if h.d.exit.hidden || h.d.exit.whenDone.Load() {
		t.Fatal("a second Hoist did not bring the window back, or Hoist still means to quit")
	}
	if strings.Contains(h.d.frame.Message.Text(), "quit") {
		t.Errorf("the window still says %q", h.d.frame.Message.Text())
	}
	close(release)
	h.waitFor("the upload to finish", func() bool { return h.state("movie.dat") == engine.Done })
	h.Refresh()
	if h.d.exit.quitting {
		t.Error("Hoist quit though the user came back")
	}
}

// TestEscapeLeavesTheWindowAsItWas: Escape on the closing question neither
// hides, minimises nor plans to quit: it is not "Keep uploading".
func TestEscapeLeavesTheWindowAsItWas(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true, queue: engine.Options{ChunkSize: 256 << 10}})
	h.d.exit.tray = func(*fyne.Menu) {}
	h.d.exit.trayShown = func() bool { return true }
	release, _ := stalled(t, h, "movie.dat")
	defer close(release)
	closingQuestion(t, h)
	h.key(fyne.KeyEscape)
	if len(h.d.frame.Dialogs) != 0 {
		t.Fatal("Escape did not close the question")
	}
	if h.d.exit.hidden || h.d.exit.minimised || h.d.exit.whenDone.Load() || h.d.exit.quitting {
		t.Error("Escape did more than close the question")
	}
}

// TestNoNotificationWithoutASessionBus: where the session has no bus (Hoist
// set its address to none at start), nothing could show a notification and
// the toolkit would only log that it cannot connect: the window does not
// send one, and still says on screen what needs the user. With a bus, the
// end of a batch is told outside the window.
func TestNoNotificationWithoutASessionBus(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	t.Setenv(sessionbus.Variable, sessionbus.None)
	test.AssertNotificationSent(t, nil, func() { h.d.notify(engine.Event{Kind: engine.BatchDone}) })
	test.AssertNotificationSent(t, nil, func() { h.d.notify(engine.Event{Kind: engine.SaveFailed}) })
	if !h.d.frame.Message.Visible() {
		t.Error("without a notification the window does not say that the list could not be saved")
	}
	t.Setenv(sessionbus.Variable, "unix:path=/run/user/1000/bus")
	test.AssertNotificationSent(t, fyne.NewNotification(view.Say("ui.app"), view.Say("ui.notify.done")), func() {
		h.d.notify(engine.Event{Kind: engine.BatchDone})
	})
}
