package ui

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/engine/dest"
	"hoist/ui/widgets"
	"hoist/ui/widgets/filechooser"
)

// TestSetUpChoosesTheClientInTheSystemDialog: the set-up's "Choose the
// file…" asks the system's dialog for one JSON file, and takes the file
// chosen there, a Persian name too.
func TestSetUpChoosesTheClientInTheSystemDialog(t *testing.T) {
	lab := newOrganisationLab(t)
	lab.svc.SystemDir = ""
	h := newHarness(t, harnessOptions{auth: lab.svc})
	client := h.writeFile("کلاینت گوگل.json", lab.srv.ClientJSON())
	asked := make(chan filechooser.Options, 1)
	h.d.files.Choose = func(_ context.Context, o filechooser.Options) ([]string, error) {
		asked <- o
		return []string{client}, nil
	}
	h.d.google.ShowSetup()
	test.Tap(h.d.google.Setup.Choose)
	h.waitFor("the client taken", func() bool { return !h.d.google.Setup.SignIn.Disabled() })
	if got := h.d.google.Setup.Status.Text(); !strings.Contains(got, "کلاینت گوگل.json") {
		t.Errorf("the panel says %q, without the file's name whole", got)
	}
	o := <-asked
	if o.Multiple || o.Save || o.Directory || len(o.Filters) != 1 || !slices.Equal(o.Filters[0].Patterns, []string{"*.json"}) {
		t.Errorf("the dialog was asked for %+v, want one JSON file", o)
	}
}

// TestSetUpChoosesTheClientInHoistsOwnDialog: without a portal, Hoist's own
// dialog lists only the JSON files, and the one clicked is taken.
func TestSetUpChoosesTheClientInHoistsOwnDialog(t *testing.T) {
	lab := newOrganisationLab(t)
	lab.svc.SystemDir = ""
	h := newHarness(t, harnessOptions{auth: lab.svc})
	h.writeFile("یادداشت.txt", []byte("not a client"))
	h.writeFile("کلاینت گوگل.json", lab.srv.ClientJSON())
	h.d.files.Choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	h.d.google.ShowSetup()
	test.Tap(h.d.google.Setup.Choose)
	h.waitFor("Hoist's own dialog", func() bool { return h.d.files.Chooser != nil && len(h.d.frame.Dialogs) == 2 })
	ch := chooserOn(t, h)
	ch.Show(h.files)
	var names []string
	for _, it := range ch.Items() {
		names = append(names, it.Name)
	}
	if !slices.Equal(names, []string{"کلاینت گوگل.json"}) {
		t.Fatalf("the dialog lists %q, want the JSON file only", names)
	}
	ch.List.Select(0)
	test.Tap(ch.Open)
	if h.d.google.Setup.SignIn.Disabled() || !strings.Contains(h.d.google.Setup.Status.Text(), "کلاینت گوگل.json") {
		t.Errorf("the client was not taken: %q", h.d.google.Setup.Status.Text())
	}
}

// exportButton is the Export… button of target's form.
func exportButton(t *testing.T, h *harness, target dest.Destination) *widget.Button {
	t.Helper()
	var found *widget.Button
	walk(h.d.google.FormExtras(target), func(o fyne.CanvasObject) {
		if b, ok := asButton(o); ok && strings.Contains(b.Text, "Export") {
			found = b
		}
	})
	if found == nil {
		t.Fatal("the form has no Export… button")
	}
	return found
}

var banners = dest.Destination{Name: "بنرها", Kind: dest.CM360, Params: map[string]string{"profileId": "4180912", "advertiserId": "64032117"}}

// TestExportSavesWhereTheSystemDialogSays: Export… asks the system's save
// dialog, with the destination's name suggested, and writes there.
func TestExportSavesWhereTheSystemDialogSays(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	to := filepath.Join(t.TempDir(), "مقصد نهایی"+dest.ShareExtension)
	asked := make(chan filechooser.Options, 1)
	h.d.files.Choose = func(_ context.Context, o filechooser.Options) ([]string, error) {
		asked <- o
		return []string{to}, nil
	}
	test.Tap(exportButton(t, h, banners))
	h.waitFor("the export", func() bool { _, err := os.Stat(to); return err == nil })
	want, _ := dest.Export(banners)
	if got, err := os.ReadFile(to); err != nil || string(got) != string(want) {
		t.Errorf("wrote %s (%v), want %s", got, err, want)
	}
	o := <-asked
	if !o.Save || o.Name != "بنرها"+dest.ShareExtension || len(o.Filters) != 1 || o.Filters[0].Patterns[0] != "*"+dest.ShareExtension {
		t.Errorf("the dialog was asked for %+v", o)
	}
}

// TestExportInHoistsOwnDialog: without a portal, Hoist's own dialog saves
// under the name typed in its field, and asks before writing over a file.
func TestExportInHoistsOwnDialog(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.files.Choose = func(context.Context, filechooser.Options) ([]string, error) { return nil, filechooser.ErrNoPortal }
	test.Tap(exportButton(t, h, banners))
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.frame.Dialogs) == 1 })
	ch := chooserOn(t, h)
	if ch.Name == nil || ch.Name.Text != "بنرها"+dest.ShareExtension || h.d.win.Canvas().Focused() != fyne.Focusable(ch.Name) {
		t.Fatal("the save dialog does not offer the destination's name, focused")
	}
	if ch.Open.Text != "Save" {
		t.Errorf("the dialog's button says %q", ch.Open.Text)
	}
	ch.Show(h.files)
	name := "مقصد نهایی" + dest.ShareExtension
	ch.Name.SetText("")
	if !ch.Open.Disabled() {
		t.Error("Save is offered without a name")
	}
	test.Type(ch.Name, name)
	test.Tap(ch.Open)
	to := filepath.Join(h.files, name)
	if _, err := os.Stat(to); err != nil || len(h.d.frame.Dialogs) != 0 {
		t.Fatalf("nothing written to %s (%v), %d dialogs open", to, err, len(h.d.frame.Dialogs))
	}
	if err := os.WriteFile(to, []byte("older"), 0o644); err != nil {
		t.Fatal(err)
	}
	test.Tap(exportButton(t, h, banners))
	h.waitFor("Hoist's own dialog", func() bool { return len(h.d.frame.Dialogs) == 1 })
	ch = chooserOn(t, h)
	ch.Show(h.files)
	ch.List.Select(slices.IndexFunc(ch.Items(), func(it widgets.ChooserItem) bool { return it.Name == name }))
	if ch.Name.Text != name {
		t.Fatalf("clicking a file puts %q in the name field", ch.Name.Text)
	}
	test.Tap(ch.Open)
	if len(h.d.frame.Dialogs) != 2 {
		t.Fatalf("no question before writing over %s (%d dialogs)", name, len(h.d.frame.Dialogs))
	}
	if got, _ := os.ReadFile(to); string(got) != "older" {
		t.Error("the file was written over before the answer")
	}
	q, ok := h.d.frame.Dialogs[1].(*widgets.Question)
	if !ok {
		t.Fatalf("the question is a %T", h.d.frame.Dialogs[1])
	}
	if q.Confirm.Text != "Replace it" || q.Dismiss.Text != "Choose another name" {
		t.Errorf("the question's answers are %q and %q, not named for what they do", q.Confirm.Text, q.Dismiss.Text)
	}
	test.Tap(q.Confirm)
	if got, _ := os.ReadFile(to); string(got) == "older" || len(got) == 0 {
		t.Error("the file was not written over after the answer to replace it")
	}
}
