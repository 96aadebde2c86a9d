package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"hoist/engine"
	"hoist/engine/dest"
	"hoist/ui/view"
	"hoist/ui/widgets"
)

// Google's own words come with the reason, under Details, never instead of it.
func TestGoogleWordsUnderDetails(t *testing.T) {
	v := engine.JobView{State: engine.Failed, Reason: "This account cannot upload to advertiser 2.",
		Details: "User does not have permission.", DetailsFrom: dest.GoogleServer}
	if got, want := unmarked(view.GoogleWords(v)), "Details — Google said: “User does not have permission.”"; got != want {
		t.Errorf("googleWords = %q, want %q", got, want)
	}
	v.Details = ""
	if got := view.GoogleWords(v); got != "" {
		t.Errorf("words where Google said none: %q", got)
	}
}

// formsOpen are the forms of the dialogs open (a destination's settings,
// then those under Advanced) and the Advanced part itself.
func formsOpen(h *harness) (forms []*widgets.Form, advanced *widget.Accordion) {
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			switch x := o.(type) {
			case *widgets.Form:
				forms = append(forms, x)
			case *widget.Accordion:
				advanced = x
			}
		})
	}
	return forms, advanced
}

// The API version is a setting out of the way: under Advanced, folded.
func TestAPIVersionUnderAdvanced(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.ShowForm(dest.Destination{Kind: dest.CM360}, true)
	forms, accordion := formsOpen(h)
	if len(forms) != 2 || accordion == nil || len(accordion.Items) != 1 || accordion.Items[0].Title != "Advanced" || accordion.Items[0].Open {
		t.Fatalf("%d forms, accordion %+v; want the settings and a folded Advanced part", len(forms), accordion)
	}
	if main := formLabels(forms[0]); slices.Contains(main, "API version") {
		t.Errorf("the API version is among the main settings: %q", main)
	}
	if adv := formLabels(forms[1]); !slices.Equal(adv, []string{"API version"}) {
		t.Errorf("Advanced holds %q, want the API version", adv)
	}
}

// Where a user picks Play Games, the form says Google removed the method.
func TestPlayGamesFormSaysGoogleRemovedIt(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	h.d.bar.ShowForm(dest.Destination{Kind: dest.PlayGames}, true)
	found := false
	for _, o := range h.d.win.Canvas().Overlays().List() {
		walk(o, func(o fyne.CanvasObject) {
			if l, ok := o.(*widgets.Paragraph); ok && l.Text() == view.Say("kind.playgames.note") {
				found = true
			}
		})
	}
	if !found {
		t.Error("the Play Games form does not say that Google removed the method")
	}
}
