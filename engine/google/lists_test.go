package google_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/google"
)

func sandbox(t *testing.T, opts emulator.Options) (*emulator.Server, *google.Lister) {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(emu)
	t.Cleanup(func() { ts.Close(); emu.Close() })
	return emu, &google.Lister{Client: ts.Client(), BaseURL: ts.URL}
}

func TestListsFromTheSandbox(t *testing.T) {
	_, l := sandbox(t, emulator.Options{})
	ctx := t.Context()
	profiles, err := l.Profiles(ctx)
	if err != nil || len(profiles) != 2 {
		t.Fatalf("profiles %+v, %v", profiles, err)
	}
	if profiles[0].ID != "4180912" || profiles[0].Words() != "Northwind Media — trafficking@northwind.example" {
		t.Errorf("first profile %+v (%q)", profiles[0], profiles[0].Words())
	}
	ads, err := l.Advertisers(ctx, profiles[0].ID, "")
	if err != nil || len(ads) != 5 || ads[0].Name != "ACME Outdoor" || ads[0].ID != "64032117" {
		t.Fatalf("advertisers %+v, %v", ads, err)
	}
	found, err := l.Advertisers(ctx, profiles[0].ID, "coffee")
	if err != nil || len(found) != 1 || found[0].Name != "Blue Harbor Coffee" {
		t.Errorf("search: %+v, %v", found, err)
	}
	none, err := l.Advertisers(ctx, profiles[1].ID, "")
	if err != nil || len(none) != 0 {
		t.Errorf("an account without advertisers: %+v, %v", none, err)
	}
	labels, err := l.Labels(ctx, "")
	if err != nil || len(labels) != 11 {
		t.Fatalf("labels %+v, %v", labels, err)
	}

	// Google's own words, not a status code alone.
	_, err = l.Advertisers(ctx, "99", "")
	var ge *google.Error
	if !errors.As(err, &ge) || ge.Status != http.StatusForbidden ||
		!strings.Contains(err.Error(), "Google said: \u201cThe current user does not have access to profile 99\u201d") {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := l.Advertisers(ctx, "", ""); err == nil || !strings.Contains(err.Error(), "profile first") {
		t.Errorf("no profile: %v", err)
	}
}

func TestAnAccountWithNothing(t *testing.T) {
	emu, l := sandbox(t, emulator.Options{})
	emu.SetLists(emulator.Lists{})
	if p, err := l.Profiles(t.Context()); err != nil || len(p) != 0 {
		t.Errorf("profiles %+v, %v", p, err)
	}
	if labels, err := l.Labels(t.Context(), "me"); err != nil || len(labels) != 0 {
		t.Errorf("labels %+v, %v", labels, err)
	}
}

func TestListsNeedAValidSignIn(t *testing.T) {
	_, l := sandbox(t, emulator.Options{RequireAuth: func(tok string) bool { return tok == "live" }})
	_, err := l.Labels(t.Context(), "me")
	var ge *google.Error
	if !errors.As(err, &ge) || ge.Status != http.StatusUnauthorized || !strings.Contains(err.Error(), "sign in again") {
		t.Errorf("without a token: %v", err)
	}
}

func TestResolveLabels(t *testing.T) {
	labels := []google.Label{{ID: "INBOX", Name: "INBOX"}, {ID: "Label_1", Name: "Invoices"}, {ID: "Label_2", Name: "Clients/ACME"}}
	ids, err := google.ResolveLabels(labels, dest.SplitList("inbox, invoices,Label_2, Label_1"))
	if err != nil || strings.Join(ids, ",") != "INBOX,Label_1,Label_2" {
		t.Errorf("resolved %v, %v", ids, err)
	}
	_, err = google.ResolveLabels(labels, []string{"Invoices", "Receipts"})
	var unknown *google.UnknownLabelError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "\u201cReceipts\u201d") {
		t.Errorf("unknown label: %v", err)
	}
}
