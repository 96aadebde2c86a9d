package ui

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"hoist/engine"
	"hoist/ui/oledrop"
	"hoist/ui/view"
)

// droppedFolder is where the window keeps what a mail program dragged onto
// it (on Windows: Outlook's messages and attachments, which have no file of
// their own) until it is uploaded: a folder for each drop, under Hoist's
// data.
const droppedFolder = "Dropped"

// takeMailDrop queues what was dragged out of a mail program as if its
// saved copies had been dropped from the file manager; items that could not
// be saved are said to be so.
func (d *desk) takeMailDrop(drop oledrop.Drop) {
	if n := len(drop.Failed); n > 0 {
		for _, f := range drop.Failed {
			d.log.Warn("an item dragged onto the window could not be saved", "name", f.Name, "err", f.Err)
		}
		d.frame.SayOnTop(view.Say("ui.drop.notSaved", "N", n))
	}
	if len(drop.Paths) == 0 {
		return
	}
	uris := make([]fyne.URI, len(drop.Paths))
	for i, p := range drop.Paths {
		uris[i] = storage.NewFileURI(p)
	}
	d.takeDrop(uris)
}

// tidyDropped removes the copies of dragged items no upload still needs:
// those whose every upload in the list finished, and those the list no
// longer holds (removed, or never added because a dialog was open). What
// waits, failed, is paused or needs the user keeps its copy, for a retry.
// Only drops made before since are looked at: one made while this runs may
// not be in the list yet.
func tidyDropped(folder string, since time.Time, jobs func() []engine.JobView) error {
	drops, err := filepath.Glob(filepath.Join(folder, oledrop.FolderPrefix+"*"))
	if err != nil || len(drops) == 0 {
		return err
	}
	needed := map[string]bool{}
	for _, v := range jobs() {
		if v.State != engine.Done && v.State != engine.Canceled && strings.HasPrefix(v.Path, folder+string(filepath.Separator)) {
			needed[v.Path] = true
		}
	}
	var firstErr error
	for _, dir := range drops {
		if fi, err := os.Stat(dir); err != nil || !fi.ModTime().Before(since) {
			continue
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		kept := 0
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			if needed[p] {
				kept++
				continue
			}
			if err := os.Remove(p); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		if kept == 0 {
			os.Remove(dir)
		}
	}
	return firstErr
}
