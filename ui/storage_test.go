package ui

import (
	"image/color"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/destination"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// TestStorageFormFromItsKind: Google Cloud Storage is offered where
// destinations are chosen, and its form is made from its fields: a project
// and a bucket to choose from Google's lists, a folder, whether to replace
// an object of the same name, and the storage class under Advanced.
func TestStorageFormFromItsKind(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	if !slices.ContainsFunc(h.d.bar.Choices, func(d dest.Destination) bool { return d.Kind == dest.Storage }) {
		t.Fatal("Google Cloud Storage is not among the destinations offered")
	}
	if got := view.KindWords(dest.Storage); got != "Google Cloud Storage — files into a bucket" {
		t.Errorf("offered as %q", got)
	}
	h.d.bar.ShowForm(dest.Destination{Kind: dest.Storage}, true)
	forms, accordion := formsOpen(h)
	takes := false
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			if p, ok := o.(*widgets.Paragraph); ok && strings.Contains(p.Text(), "any file") {
				takes = true
			}
		})
	}
	if len(forms) != 2 || accordion == nil || !takes {
		t.Fatalf("%d forms, accordion %v, says what it takes: %v", len(forms), accordion, takes)
	}
	if main := formLabels(forms[0]); !slices.Equal(main, []string{"Name", "Project", "Bucket *", "Folder", "Replace an object of the same name"}) {
		t.Errorf("settings %q", main)
	}
	if adv := formLabels(forms[1]); !slices.Equal(adv, []string{"Storage class"}) {
		t.Errorf("Advanced holds %q", adv)
	}
	for i, it := range forms[0].Items {
		_, isCheck := destination.NoteField(it).(*widget.Check)
		chooses := false
		if c, ok := it.Widget.(*fyne.Container); ok {
			walk(c, func(o fyne.CanvasObject) {
				if b, ok := asButton(o); ok && b.Text == destination.ChooseText() {
					chooses = true
				}
			})
		}
		if want := i == 1 || i == 2; chooses != want {
			t.Errorf("%s: Choose… offered %v", it.Text, chooses)
		}
		if want := i == 4; isCheck != want {
			t.Errorf("%s: a check box %v", it.Text, isCheck)
		}
	}
}

// TestPickersListProjectsAndBuckets: the sandbox's projects (one being
// deleted left out) and a project's buckets; the bucket's picker asks for
// the project first, and a project without buckets says so.
func TestPickersListProjectsAndBuckets(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	d := dest.Destination{Kind: dest.Storage, Params: map[string]string{}}
	p, got := openTestPicker(h, "project", d)
	if len(p.All) != 2 || p.All[0].Words != "Northwind Web (northwind-web)" {
		t.Fatalf("projects %+v (%q)", p.All, p.Status.Text())
	}
	p.Search.SetText("archive")
	p.List.Select(0)
	if *got != "northwind-archive" {
		t.Errorf("chose %q", *got)
	}
	p, _ = openTestPicker(h, "bucket", d)
	if len(p.All) != 0 || unmarked(p.Status.Text()) != "Choose Project first: the list is made for it." {
		t.Errorf("no project yet: %+v %q", p.All, p.Status.Text())
	}
	p, _ = openTestPicker(h, "bucket", d.WithParam("project", "northwind-archive"))
	if len(p.All) != 0 || !strings.Contains(p.Status.Text(), "This project has no bucket") {
		t.Errorf("a project without buckets: %+v %q", p.All, p.Status.Text())
	}
	p, got = openTestPicker(h, "bucket", d.WithParam("project", "northwind-web"))
	p.Search.SetText("press")
	if len(p.Shown) != 1 {
		t.Fatalf("buckets %+v", p.Shown)
	}
	p.List.Select(0)
	if *got != "northwind-press-kit" {
		t.Errorf("chose %q", *got)
	}
}

// TestStaffPickABucketByName: signed in through the organisation, the
// project list asks for its own, read-only access only when it is wanted;
// the bucket is picked by name, and the banner dropped lands in it, under
// the folder typed.
func TestStaffPickABucketByName(t *testing.T) {
	lab, h := newOrganisationWindow(t)
	h.d.bar.ShowForm(dest.Destination{Kind: dest.Storage}, true)
	form := inTopOverlay(h, func(*widgets.Form) bool { return true })
	project := destination.NoteField(form.Items[1]).(*widget.Entry)
	bucket := destination.NoteField(form.Items[2]).(*widget.Entry)
	folder := destination.NoteField(form.Items[3]).(*widget.Entry)
	chooseFor := func(e *widget.Entry) *widget.Button { return chooserOf(t, form, e) }
	pickNamed := func(name string) {
		t.Helper()
		signIn := inTopOverlay(h, func(b *widgets.Button) bool { return b.Text == "Sign in with Google" })
		h.waitFor("the offer to sign in for the list's access", func() bool { return signIn.Visible() })
		test.Tap(signIn)
		pickFromList(h, name)
	}

	test.Tap(chooseFor(project))
	pickNamed("Northwind Web")
	if project.Text != "northwind-web" {
		t.Fatalf("project = %q", project.Text)
	}
	reqs := lab.srv.AuthRequests()
	if scope := reqs[len(reqs)-1].Get("scope"); !strings.Contains(scope, "cloud-platform.read-only") {
		t.Errorf("the projects' sign-in asked for %q", scope)
	}
	test.Tap(chooseFor(bucket))
	pickNamed("banners")
	if bucket.Text != "northwind-banners" {
		t.Fatalf("bucket = %q", bucket.Text)
	}
	reqs = lab.srv.AuthRequests()
	if scope := reqs[len(reqs)-1].Get("scope"); !strings.Contains(scope, "devstorage.read_write") {
		t.Errorf("the buckets' sign-in asked for %q", scope)
	}
	test.Type(folder, "spring")
	test.Tap(h.button("Use it"))
	if c := h.d.target.Dest; c.Kind != dest.Storage || c.Account != lab.srv.Email || c.Params["bucket"] != "northwind-banners" {
		t.Fatalf("current destination %+v", c)
	}
	h.drop(h.writeFile("banner.png", pngBytes(t, 300, 250, color.RGBA{200, 40, 40, 255})))
	h.waitFor("the banner to go up", func() bool { return h.Shown("banner.png") == engine.Done })
	if objs := h.sb.Server.Objects(); len(objs) != 1 || objs[0].Path != "/upload/storage/v1/b/northwind-banners/o" || objs[0].Name != "spring/banner.png" {
		t.Errorf("sandbox holds %+v", objs)
	}
}
