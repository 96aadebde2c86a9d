//go:build windows && (amd64 || arm64)

package ui

import (
	"fyne.io/fyne/v2/driver"

	"hoist/ui/oledrop"
)

// takeMailDrags lets the window take what Outlook drags out of it (messages
// and attachments, which are no files of this computer), saving each in
// folder, besides the files the file manager drags. Call it on the window's
// thread once the window is shown: the drop target is registered on its
// HWND, and the toolkit's own file drops then come through it too.
func (d *desk) takeMailDrags(folder string) {
	nw, ok := d.win.(driver.NativeWindow)
	if !ok {
		return
	}
	target := oledrop.New(folder, d.takeMailDrop)
	nw.RunNative(func(ctx any) {
		w, ok := ctx.(driver.WindowsWindowContext)
		if !ok || w.HWND == 0 {
			return
		}
		if err := target.Register(w.HWND); err != nil {
			// The toolkit's own file drops still work.
			d.log.Warn("the window takes only files dragged from the file manager", "err", err)
		}
	})
}
