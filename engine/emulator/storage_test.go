package emulator

import (
	"net/http"
	"testing"
)

// TestStorageObjectsAsGoogleTakesThem: objects.insert refuses a field an
// Object does not have and a storage class Cloud Storage lacks, and answers
// with the storage class the object got (the bucket's, STANDARD, unless
// one was asked for).
func TestStorageObjectsAsGoogleTakesThem(t *testing.T) {
	h := newHarness(t, Options{})
	const path = "/upload/storage/v1/b/northwind-banners/o"
	resp, body := h.upload(http.MethodPost, path, "image/png", `{"name":"a.png","colour":"red"}`, []byte("png"))
	wantError(t, resp, body, http.StatusBadRequest, `Unknown name "colour"`)
	resp, body = h.upload(http.MethodPost, path, "image/png", `{"name":"a.png","storageClass":"CHEAP"}`, []byte("png"))
	wantError(t, resp, body, http.StatusBadRequest, "storage class CHEAP")
	resp, body = h.upload(http.MethodPost, path, "image/png", `{"name":"a.png","contentType":"image/png","size":"3"}`, []byte("png"))
	wantStatus(t, resp, body, http.StatusOK)
	if m := decode(t, body); m["storageClass"] != "STANDARD" {
		t.Errorf("object %v", m)
	}
	resp, body = h.upload(http.MethodPost, path, "image/png", `{"name":"b.png","storageClass":"ARCHIVE"}`, []byte("png"))
	wantStatus(t, resp, body, http.StatusOK)
	if m := decode(t, body); m["storageClass"] != "ARCHIVE" {
		t.Errorf("object %v", m)
	}
}

// TestStorageLists: projects.list leaves out projects being deleted when
// asked for active ones and pages; buckets.list needs a project the
// account sees.
func TestStorageLists(t *testing.T) {
	h := newHarness(t, Options{})
	get := func(path string, status int) map[string]any {
		t.Helper()
		resp, body := h.do(http.MethodGet, path, nil, nil)
		if status != http.StatusOK {
			wantError(t, resp, body, status, "")
			return nil
		}
		wantStatus(t, resp, body, status)
		return decode(t, body)
	}
	if all := get("/v1/projects", 200)["projects"].([]any); len(all) != 3 {
		t.Errorf("every project: %v", all)
	}
	first := get("/v1/projects?filter=lifecycleState:ACTIVE&pageSize=1", 200)
	if len(first["projects"].([]any)) != 1 || first["nextPageToken"] != "1" {
		t.Fatalf("first page %v", first)
	}
	last := get("/v1/projects?filter=lifecycleState:ACTIVE&pageSize=1&pageToken=1", 200)
	if p := last["projects"].([]any); len(p) != 1 || p[0].(map[string]any)["projectId"] != "northwind-archive" || last["nextPageToken"] != nil {
		t.Errorf("last page %v", last)
	}
	get("/v1/projects?pageToken=x", http.StatusBadRequest)
	if items := get("/storage/v1/b?project=northwind-web", 200)["items"].([]any); len(items) != 3 || items[0].(map[string]any)["kind"] != "storage#bucket" {
		t.Errorf("buckets %v", items)
	}
	if b := get("/storage/v1/b?project=401234567891", 200); b["items"] != nil || b["kind"] != "storage#buckets" {
		t.Errorf("a project, by its number, without buckets: %v", b)
	}
	get("/storage/v1/b", http.StatusBadRequest)
	get("/storage/v1/b?project=someone-elses", http.StatusForbidden)
	h.srv.SetLists(Lists{})
	if p := get("/v1/projects", 200); len(p) != 0 {
		t.Errorf("an account with no project: %v", p)
	}
}
