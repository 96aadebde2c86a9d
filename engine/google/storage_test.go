package google_test

import (
	"fmt"
	"net/http"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
	"hoist/engine/fact"
)

var (
	storage  = dest.Destination{Kind: dest.Storage, Params: map[string]string{}}
	projects = dest.Kind(dest.Storage).ListOf("project")
	buckets  = dest.Kind(dest.Storage).ListOf("bucket")
)

// TestStorageListsFromTheSandbox: the projects the account sees (those
// being deleted left out), then a project's buckets, by name; a project
// without buckets, one the account may not see, and none chosen yet.
func TestStorageListsFromTheSandbox(t *testing.T) {
	emu, l := sandbox(t, emulator.Options{})
	ctx := t.Context()
	ps, err := l.List(ctx, projects, storage)
	if err != nil || len(ps) != 2 || ps[0].ID != "northwind-web" || ps[0].Picked() != "Northwind Web (northwind-web)" {
		t.Fatalf("projects %+v, %v", ps, err)
	}
	bs, err := l.List(ctx, buckets, storage.WithParam("project", ps[0].ID))
	if err != nil || len(bs) != 3 || bs[0].ID != "northwind-banners" || bs[0].Picked() != "northwind-banners" {
		t.Fatalf("buckets %+v, %v", bs, err)
	}
	if none, err := l.List(ctx, buckets, storage.WithParam("project", "northwind-archive")); err != nil || len(none) != 0 {
		t.Errorf("a project without buckets: %+v, %v", none, err)
	}
	if _, err := l.List(ctx, buckets, storage); said(err).Code != fact.ListNeeds || said(err).Field != "project" {
		t.Errorf("no project: %v", err)
	}
	_, err = l.List(ctx, buckets, storage.WithParam("project", "someone-elses"))
	if f := said(err); f.Code != fact.ListForbidden || f.Status != http.StatusForbidden || f.Google == "" {
		t.Errorf("a project the account may not see: %v", err)
	}

	// Many buckets come in pages, each asked for the same project.
	many := make([]emulator.ListedBucket, 2500)
	for i := range many {
		many[i] = emulator.ListedBucket{Name: fmt.Sprintf("northwind-%04d", i), Location: "EU", StorageClass: "STANDARD"}
	}
	emu.SetLists(emulator.Lists{
		"storage.projects": []emulator.ListedProject{{ProjectID: "northwind-web", ProjectNumber: "1", Name: "Northwind Web", LifecycleState: "ACTIVE"}},
		"storage.buckets":  map[string][]emulator.ListedBucket{"northwind-web": many},
	})
	bs, err = l.List(ctx, buckets, storage.WithParam("project", "northwind-web"))
	if err != nil || len(bs) != 2500 || bs[2499].ID != "northwind-2499" {
		t.Errorf("%d buckets, %v", len(bs), err)
	}
	emu.SetLists(emulator.Lists{})
	if ps, err := l.List(ctx, projects, storage); err != nil || len(ps) != 0 {
		t.Errorf("an account with no project: %+v, %v", ps, err)
	}
}
