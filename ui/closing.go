package ui

import (
	"context"

	"hoist/ui/trayhost"
)

// Closing the window while files upload, when the user chose to keep
// uploading: the window goes to the tray only where a tray icon is really
// shown (trayhost), otherwise it stays, minimised, on the taskbar; either
// way Hoist quits once nothing is moving, since closing the window asked
// it to. A second Hoist, or the tray's Show, brings the window forward and
// keeps Hoist open.

// trayIsShown says whether an icon set in the tray now would be seen.
func trayIsShown() bool { return trayhost.Shown(context.Background()) }

// keepUploading closes the window as far as the desktop allows while the
// uploads go on, and quits when they are done.
func (d *desk) keepUploading(inTray bool) {
	d.quitWhenDone.Store(true)
	d.tell(quitWhenDoneWords())
	if inTray {
		d.toTray()
		return
	}
	d.minimised = true
	iconify(d.win)
}

// comeForward shows the window on top, from the tray or the taskbar, and
// keeps Hoist open after the uploads.
func (d *desk) comeForward() {
	d.stayOpen()
	if d.hidden {
		d.hidden = false
		d.win.Show()
	}
	if d.minimised {
		d.minimised = false
	}
	deiconify(d.win)
	d.win.RequestFocus()
}

// stayOpen forgets a quit asked for when the uploads end: the user is back.
func (d *desk) stayOpen() {
	if d.quitWhenDone.Swap(false) && d.message.Text() == sentence(quitWhenDoneWords()) {
		d.message.SetText("") // it is no longer true
		d.message.Hide()
	}
}

// handedOver takes what a second Hoist handed over (maybe no files: it
// was started only to show the window) and brings the window forward.
func (d *desk) handedOver(paths []string) {
	d.add(paths)
	d.comeForward()
}

// quitIfDone quits once nothing moves, when the user asked for that; it is
// given every snapshot drawn.
func (d *desk) quitIfDone(s *snapshot) {
	if s.totals.Moving == 0 && d.quitWhenDone.Swap(false) {
		d.quit()
	}
}
