package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hoist/ui/view"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
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
func openChooser(t *testing.T, h *harness) *widgets.Chooser {
	t.Helper()
	h.d.files.Choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.files.Pick(false, h.d.Add)
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.frame.Dialogs) == 1 })
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
	for _, b := range c.Places {
		labels = append(labels, b.Text)
	}
	if want := []string{"Home", "Desktop", "Documents", "Downloads", "Pictures"}; !slices.Equal(labels, want) {
		t.Fatalf("the places are %q, want %q", labels, want)
	}
	test.Tap(c.Places[1])
	if c.Folder() != filepath.Join(home, "میز کار") {
		t.Errorf("Desktop went to %s, not the folder the system's settings name", c.Folder())
	}
	test.Tap(c.Places[3])
	if c.Folder() != filepath.Join(home, "Downloads") {
		t.Fatalf("Downloads went to %s", c.Folder())
	}
	var names []string
	for _, it := range c.Items() {
		names = append(names, it.Name)
	}
	if want := []string{"doc_1.eml", "doc_2.eml", "doc_10.eml"}; !slices.Equal(names, want) {
		t.Errorf("the files are listed %q, want %q", names, want)
	}
	shown := map[string]bool{}
	walk(c.List, func(o fyne.CanvasObject) {
		if l, ok := o.(*widgets.Label); ok && l.Visible() {
			shown[l.Text()] = true
		}
	})
	for _, want := range []string{"5.2 MB", "2 KB", view.Speaking().Date(time.Date(2026, 3, 14, 9, 30, 0, 0, time.Local))} {
		if !shown[want] {
			t.Errorf("the list does not show %q (it shows %v)", want, shown)
		}
	}
}

// TestTheChoosersDatesAreWhole: the "Changed" column shows a file's date
// and time whole, in every language, for the longest month's name: the
// time was cut off.
func TestTheChoosersDatesAreWhole(t *testing.T) {
	for _, code := range []string{"en", "fa", "ar", "he"} {
		t.Run(code, func(t *testing.T) {
			home := chooserHome(t)
			when := time.Date(2026, 9, 28, 23, 58, 0, 0, time.Local)
			for _, m := range []time.Month{time.February, time.September, time.November, time.December} {
				p := filepath.Join(home, "Downloads", fmt.Sprintf("month_%d.eml", m))
				os.WriteFile(p, []byte("x"), 0o644)
				at := when.AddDate(0, int(m-when.Month()), 0)
				os.Chtimes(p, at, at)
			}
			speakWindow(t, code)
			h := newHarness(t, harnessOptions{sandboxMode: true})
			c := openChooser(t, h)
			c.Show(filepath.Join(home, "Downloads"))
			n := 0
			walk(c.List, func(o fyne.CanvasObject) {
				l, ok := o.(*widgets.Label)
				if !ok || !l.Visible() || !strings.Contains(l.Text(), view.Speaking().Digits("58")) {
					return
				}
				n++
				for _, p := range drawnPieces(l) {
					if strings.Contains(p.what, "…") {
						t.Errorf("the date %q is shown as %q", l.Text(), p.what)
					}
				}
			})
			if n == 0 {
				t.Fatal("the list shows no dates")
			}
		})
	}
}

// TestTheChooserTakesATypedPath: a folder typed in the path field is
// shown, a file typed there is ticked, and a path that is not there is
// said.
func TestTheChooserTakesATypedPath(t *testing.T) {
	home := chooserHome(t)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	c := openChooser(t, h)
	test.Type(c.Path, "")
	c.Path.SetText(filepath.Join(home, "Downloads"))
	c.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if c.Folder() != filepath.Join(home, "Downloads") {
		t.Fatalf("the typed folder was not shown: %s", c.Folder())
	}
	c.Path.SetText("~/Downloads/doc_2.eml")
	c.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !slices.Equal(c.Chosen(), []string{filepath.Join(home, "Downloads", "doc_2.eml")}) {
		t.Fatalf("the typed file was not ticked: %q", c.Chosen())
	}
	c.Path.SetText(filepath.Join(home, "nowhere"))
	c.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !c.Note.Visible() || !strings.Contains(c.Note.Text(), "nowhere") {
		t.Errorf("a path that is not there is not said: %q", c.Note.Text())
	}
}

// TestTheChoosersOpenSaysHowMany, and the keys: Open says how many files
// are ticked; Enter in the list presses it; Escape closes the dialog from
// the list and from the path field.
func TestTheChoosersOpenSaysHowMany(t *testing.T) {
	home := chooserHome(t)
	h := newHarness(t, harnessOptions{sandboxMode: true})
	c := openChooser(t, h)
	c.Show(filepath.Join(home, "Downloads"))
	if c.Open.Text != "Open" || !c.Open.Disabled() {
		t.Errorf("with nothing ticked Open says %q (disabled: %v)", c.Open.Text, c.Open.Disabled())
	}
	c.List.Select(0)
	if c.Open.Text != "Open 1 file" {
		t.Errorf("with one file ticked Open says %q", c.Open.Text)
	}
	c.List.Select(2)
	if c.Open.Text != "Open 2 files" {
		t.Errorf("with two files ticked Open says %q", c.Open.Text)
	}
	c.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(h.d.frame.Dialogs) != 0 {
		t.Fatal("Enter did not press Open")
	}
	h.waitFor("two rows", func() bool { return len(h.d.list.Views()) == 2 })

	c = openChooser(t, h)
	c.List.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(h.d.frame.Dialogs) != 0 {
		t.Fatal("Escape in the list did not close the chooser")
	}
	c = openChooser(t, h)
	h.d.win.Canvas().Focus(c.Path)
	c.Path.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if len(h.d.frame.Dialogs) != 0 {
		t.Fatal("Escape in the path field did not close the chooser")
	}
}
