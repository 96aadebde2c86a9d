package google_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
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

var (
	cm          = dest.Destination{Kind: dest.CM360, Params: map[string]string{}}
	profiles    = dest.Kind(dest.CM360).ListOf("profileId")
	advertisers = dest.Kind(dest.CM360).ListOf("advertiserId")
	labels      = dest.Kind(dest.GmailInsert).ListOf("labels")
	gmail       = dest.Destination{Kind: dest.GmailInsert}
)

// said is the fact a list's error carries.
func said(err error) fact.Fact {
	var e *google.Error
	if !errors.As(err, &e) {
		return fact.Fact{}
	}
	return e.Fact()
}

func TestListsFromTheSandbox(t *testing.T) {
	_, l := sandbox(t, emulator.Options{})
	ctx := t.Context()
	ps, err := l.List(ctx, profiles, cm)
	if err != nil || len(ps) != 2 {
		t.Fatalf("profiles %+v, %v", ps, err)
	}
	if ps[0].ID != "4180912" || ps[0].Picked() != "Northwind Media — trafficking@northwind.example (4180912)" {
		t.Errorf("first profile %+v (%q)", ps[0], ps[0].Picked())
	}
	ads, err := l.List(ctx, advertisers, cm.WithParam("profileId", ps[0].ID))
	if err != nil || len(ads) != 5 || ads[0].Words != "ACME Outdoor" || ads[0].ID != "64032117" {
		t.Fatalf("advertisers %+v, %v", ads, err)
	}
	none, err := l.List(ctx, advertisers, cm.WithParam("profileId", ps[1].ID))
	if err != nil || len(none) != 0 {
		t.Errorf("an account without advertisers: %+v, %v", none, err)
	}
	ls, err := l.List(ctx, labels, gmail)
	if err != nil || len(ls) != 11 || ls[0].Picked() != ls[0].ID {
		t.Fatalf("labels %+v, %v", ls, err)
	}

	// Google's own words, not a status code alone.
	_, err = l.List(ctx, advertisers, cm.WithParam("profileId", "99"))
	if f := said(err); f.Code != fact.ListForbidden || f.Status != http.StatusForbidden ||
		f.Google != "The current user does not have access to profile 99" || f.Arg("list") != "cm360.advertisers" {
		t.Errorf("unknown profile: %v", err)
	}
	if _, err := l.List(ctx, advertisers, cm); said(err).Code != fact.ListNeeds || said(err).Field != "profileId" {
		t.Errorf("no profile: %v", err)
	}
}

func TestAnAccountWithNothing(t *testing.T) {
	emu, l := sandbox(t, emulator.Options{})
	emu.SetLists(emulator.Lists{})
	if p, err := l.List(t.Context(), profiles, cm); err != nil || len(p) != 0 {
		t.Errorf("profiles %+v, %v", p, err)
	}
	if ls, err := l.List(t.Context(), labels, gmail); err != nil || len(ls) != 0 {
		t.Errorf("labels %+v, %v", ls, err)
	}
}

func TestListsNeedAValidSignIn(t *testing.T) {
	_, l := sandbox(t, emulator.Options{RequireAuth: func(tok string) bool { return tok == "live" }})
	_, err := l.List(t.Context(), labels, gmail)
	if f := said(err); f.Code != fact.ListSignInAgain || f.Status != http.StatusUnauthorized {
		t.Errorf("without a token: %v", err)
	}
}

// TestResolveNames: names typed where Gmail takes label ids become ids,
// ids stay as they are, and a name the mailbox lacks is refused, naming it.
func TestResolveNames(t *testing.T) {
	_, l := sandbox(t, emulator.Options{})
	d := gmail.WithParam("labels", "inbox, invoices,Label_2, Label_1")
	if len(d.NamesTyped()) != 1 || len(google.Scopes(d)) != 1 {
		t.Fatalf("names not noticed: %+v", d.NamesTyped())
	}
	got, err := l.Resolve(t.Context(), d)
	if err != nil || got.Params["labels"] != "INBOX, Label_1, Label_2" {
		t.Errorf("resolved %q, %v", got.Params["labels"], err)
	}
	if ids := gmail.WithParam("labels", "INBOX, Label_12"); len(ids.NamesTyped()) != 0 {
		t.Error("ids were taken for names")
	}
	_, err = l.Resolve(t.Context(), gmail.WithParam("labels", "Invoices, Receipts"))
	if f := said(err); f.Code != fact.UnknownNames || !strings.Contains(f.Arg("names"), "\u201cReceipts\u201d") || f.Count != 1 {
		t.Errorf("unknown label: %v", err)
	}
}

// TestAListPathCarriesTheSettings: a list whose settings go in its query
// (Cloud Storage's buckets of ?project=…) keeps them on every page, beside
// the list's own query and the page token.
func TestAListPathCarriesTheSettings(t *testing.T) {
	var seen []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.URL.Path+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Query().Get("pageToken") == "" {
			_, _ = w.Write([]byte(`{"items":[{"name":"banners"}],"nextPageToken":"p2"}`))
			return
		}
		_, _ = w.Write([]byte(`{"items":[{"name":"exports"}]}`))
	}))
	t.Cleanup(ts.Close)
	things := &dest.List{
		Name: "things", Host: "https://things.googleapis.com",
		Path: func(d dest.Destination) (string, string) {
			return "/things/v1/b?project=" + d.Params["project"] + "&x=a%26b", ""
		},
		Query: map[string][]string{"maxResults": {"1000"}},
		Items: "items", ID: "name", Words: []string{"name"}, Pages: true,
	}
	l := &google.Lister{Client: ts.Client(), BaseURL: ts.URL}
	items, err := l.List(t.Context(), things, dest.Destination{Kind: dest.Custom, Params: map[string]string{"project": "acme-web"}})
	if err != nil || len(items) != 2 || items[1].ID != "exports" {
		t.Fatalf("items %+v, %v", items, err)
	}
	want := []string{
		"/things/v1/b?maxResults=1000&project=acme-web&x=a%26b",
		"/things/v1/b?maxResults=1000&pageToken=p2&project=acme-web&x=a%26b",
	}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("asked\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}
