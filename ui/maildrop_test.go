package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hoist/engine"
	"hoist/ui/oledrop"
)

// TestAMailDropIsQueued: what a mail program dragged onto the window (on
// Windows, saved by the drop target in Hoist's folder) is queued as a file
// dropped from the file manager is.
func TestAMailDropIsQueued(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	saved := h.writeFile(filepath.Join(droppedFolder, oledrop.FolderPrefix+"1", "RE Budget.eml"), emailBytes("A <a@example.com>", "RE: Budget"))
	h.d.takeMailDrop(oledrop.Drop{Paths: []string{saved}})
	h.waitFor("the dragged email listed", func() bool { return len(h.d.list.Views()) == 1 })
	if got := h.q.Jobs()[0].Path; got != saved {
		t.Errorf("queued %s, want the saved copy %s", got, saved)
	}
}

// TestAMailDropNotSavedSaysWhy: items a mail program dragged that could not
// be saved are said to be so, with what to do instead; those saved are
// still queued.
func TestAMailDropNotSavedSaysWhy(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.frame.Message.SetText("")
	saved := h.writeFile("a.eml", emailBytes("A <a@example.com>", "a"))
	h.d.takeMailDrop(oledrop.Drop{Paths: []string{saved}, Failed: []oledrop.Failure{
		{Name: "b.msg", Err: os.ErrPermission}, {Name: "c.msg", Err: os.ErrPermission},
	}})
	if got := h.d.frame.Message.Text(); !strings.Contains(got, "The 2 items dragged from the mail program were not added") || !strings.Contains(got, "Save As") {
		t.Errorf("the window says %q", got)
	}
	h.waitFor("the saved email listed", func() bool { return len(h.d.list.Views()) == 1 })
}

// TestTidyDropped: at the start, the copies of dragged items are removed
// once no upload needs them (uploaded, canceled, or not in the list);
// those waiting or failed keep them for a retry, and a drop made since the
// window started is left alone.
func TestTidyDropped(t *testing.T) {
	folder := filepath.Join(t.TempDir(), droppedFolder)
	file := func(drop, name string) string {
		p := filepath.Join(folder, oledrop.FolderPrefix+drop, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	waiting, failed := file("1", "waiting.msg"), file("1", "failed.msg")
	done, gone := file("1", "done.msg"), file("1", "not listed.msg")
	allDone := file("2", "done too.msg")
	fresh := file("3", "just dropped.msg")
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{"1", "2"} {
		os.Chtimes(filepath.Join(folder, oledrop.FolderPrefix+d), old, old)
	}
	since := time.Now().Add(-time.Minute)
	jobs := func() []engine.JobView {
		return []engine.JobView{
			{Path: waiting, State: engine.Waiting}, {Path: failed, State: engine.Failed},
			{Path: done, State: engine.Done}, {Path: allDone, State: engine.Done},
			{Path: fresh, State: engine.Canceled},
		}
	}
	if err := tidyDropped(folder, since, jobs); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]bool{waiting: true, failed: true, done: false, gone: false, allDone: false, fresh: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", p, err == nil, want)
		}
	}
	if _, err := os.Stat(filepath.Dir(allDone)); !os.IsNotExist(err) {
		t.Errorf("the folder of a drop all uploaded is left (%v)", err)
	}
	if err := tidyDropped(filepath.Join(t.TempDir(), "none"), since, func() []engine.JobView {
		t.Error("the list was read with no dragged copies to tidy")
		return nil
	}); err != nil {
		t.Error(err)
	}
}

// TestDroppedFolder: the copies of dragged items are kept in Hoist's data
// (or the folder a test or portable run gives).
func TestDroppedFolder(t *testing.T) {
	dir := t.TempDir()
	f, err := sessionFolders(Config{Dir: dir, SandboxDir: filepath.Join(dir, "sandbox")})
	if err != nil || f.Dropped != filepath.Join(dir, droppedFolder) {
		t.Errorf("dropped copies go to %q (%v), want %q", f.Dropped, err, filepath.Join(dir, droppedFolder))
	}
}
