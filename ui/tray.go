package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// useTray gives the window a system tray, where the toolkit has one; the
// window goes there only while its icon is really shown (trayIsShown).
func (d *desk) useTray() {
	if da, ok := d.app.(desktop.App); ok {
		d.tray = da.SetSystemTrayMenu
	}
	d.trayShown = trayIsShown
}

// trayMenu is what the tray offers while the window is closed.
func (d *desk) trayMenu() *fyne.Menu {
	show := fyne.NewMenuItem(trayShow(), d.fromTray)
	pause := fyne.NewMenuItem(trayPauseAll(), func() { d.doAll(pauseEvery) })
	quit := fyne.NewMenuItem(trayQuit(), d.quit)
	quit.IsQuit = true
	return fyne.NewMenu(visual(say("ui.app")), show, pause, fyne.NewMenuItemSeparator(), quit)
}

// toTray closes the window and keeps uploading, with the tray to come back.
func (d *desk) toTray() {
	if d.tray == nil {
		return
	}
	d.tray(d.trayMenu())
	d.hidden = true
	d.win.Hide()
}

// fromTray shows the window again, and keeps Hoist open.
func (d *desk) fromTray() { d.comeForward() }
