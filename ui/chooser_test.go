package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/ui/filechooser"
	"hoist/ui/widgets"
)

// chooserHome makes a home folder with the usual places, named as the
// system's folder settings say (a Persian desktop), and files to choose.
func chooserHome(t *testing.T) (home string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, d := range []string{".config", "میز کار", "Documents", "Downloads", "Pictures"} {
		os.MkdirAll(filepath.Join(home, d), 0o755)
	}
	os.WriteFile(filepath.Join(home, ".config", "user-dirs.dirs"), []byte("XDG_DESKTOP_DIR=\"$HOME/میز کار\"\n"), 0o644)
	when := time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local)
	for name, size := range map[string]int{"doc_1.eml": 10, "doc_2.eml": 2048, "doc_10.eml": 5 << 20} {
		p := filepath.Join(home, "Downloads", name)
		os.WriteFile(p, make([]byte, size), 0o644)
		os.Chtimes(p, when, when)
	}
	return home
}

// openChooser opens Hoist's own dialog to add files, as without a portal.
func openChooser(t *testing.T, h *harness) *chooser {
	t.Helper()
	h.d.files.choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.files.pick(false, h.d.add)
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.frame.dialogs) == 1 })
	return chooserOn(t, h)
}

// TestTheChooserOffersThePlaces: beside the list are the user's places as
// the system's folder settings name them; one click goes there, and the
// files show, as people count them, with their size and date.
func TestTheChooserOffersThePlaces(t *testing.T) {
	home := chooserHome(t)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	c := openChooser(t, h)
	var labels []string
	for _, b := range c.places {
		labels = append(labels, b.Text)
	}
	if want := []string{"Home", "Desktop", "Documents", "Downloads", "Pictures"}; !slices.Equal(labels, want) {
		t.Fatalf("the places are %q, want %q", labels, want)
	}
	test.Tap(c.places[1])
	if c.dir != filepath.Join(home, "میز کار") {
		t.Errorf("Desktop went to %s, not the folder the system's settings name", c.dir)
	}
	test.Tap(c.places[3])
	if c.dir != filepath.Join(home, "Downloads") {
		t.Fatalf("Downloads went to %s", c.dir)
	}
	var names []string
	for _, it := range c.items {
		names = append(names, it.name)
	}
	if want := []string{"doc_1.eml", "doc_2.eml", "doc_10.eml"}; !slices.Equal(names, want) {
		t.Errorf("the files are listed %q, want %q", names, want)
	}
	shown := map[string]bool{}
	walk(c.list, func(o fyne.CanvasObject) {
		if l, ok := o.(*widgets.Label); ok && l.Visible() {
			shown[l.Text()] = true
		}
	})
	for _, want := range []string{"5.2 MB", "2 KB", speaking().Date(time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local))} {
		if !shown[want] {
			t.Errorf("the list does not show %q (it shows %v)", want, shown)
		}
	}
}

// TestTheChooserTakesATypedPath: a folder typed in the path field is
// shown, a file typed there is ticked, and a path that is not there is
// said.
func TestTheChooserTakesATypedPath(t *testing.T) {
	home := chooserHome(t)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	c := openChooser(t, h)
	test.Type(c.path, "")
	c.path.SetText(filepath.Join(home, "Downloads"))
	c.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.dir != filepath.Join(home, "Downloads") {
		t.Fatalf("the typed folder was not shown: %s", c.dir)
	}
	c.path.SetText("~/Downloads/doc_2.eml")
	c.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(c.chosen, []string{filepath.Join(home, "Downloads", "doc_2.eml")}) {
		t.Fatalf("the typed file was not ticked: %q", c.chosen)
	}
	c.path.SetText(filepath.Join(home, "nowhere"))
	c.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !c.note.Visible() || !strings.Contains(c.note.Text(), "nowhere") {
		t.Errorf("a path that is not there is not said: %q", c.note.Text())
	}
}

// TestTheChoosersOpenSaysHowMany, and the keys: Open says how many files
// are ticked; Enter in the list presses it; Escape closes the dialog from
// the list and from the path field.
func TestTheChoosersOpenSaysHowMany(t *testing.T) {
	home := chooserHome(t)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	c := openChooser(t, h)
	c.show(filepath.Join(home, "Downloads"))
	if c.open.Text != "Open" || !c.open.Disabled() {
		t.Errorf("with nothing ticked Open says %q (disabled: %v)", c.open.Text, c.open.Disabled())
	}
	c.list.Select(0)
	if c.open.Text != "Open 1 file" {
		t.Errorf("with one file ticked Open says %q", c.open.Text)
	}
	c.list.Select(2)
	if c.open.Text != "Open 2 files" {
		t.Errorf("with two files ticked Open says %q", c.open.Text)
	}
	c.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(h.d.frame.dialogs) != 0 {
		t.Fatal("Enter did not press Open")
	}
	h.waitFor("two rows", func() bool { return len(h.d.list.views()) == 2 })

	c = openChooser(t, h)
	c.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(h.d.frame.dialogs) != 0 {
		t.Fatal("Escape in the list did not close the chooser")
	}
	c = openChooser(t, h)
	h.d.win.Canvas().Focus(c.path)
	c.path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(h.d.frame.dialogs) != 0 {
		t.Fatal("Escape in the path field did not close the chooser")
	}
}
