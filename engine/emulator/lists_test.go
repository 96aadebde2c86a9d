package emulator

import (
	"net/http"
	"strings"
	"testing"
)

// TestEachDestinationServesItsOwnLists: the lists behind the pickers are
// declared by each destination's file, by name, with what they hold unless
// told otherwise; SetLists replaces them all at once, and a list it leaves
// out is empty.
func TestEachDestinationServesItsOwnLists(t *testing.T) {
	defaults := DefaultLists()
	for _, svc := range services {
		if svc.lists == nil {
			continue
		}
		for name := range svc.lists() {
			if !strings.HasPrefix(name, string(svc.kind)+".") {
				t.Errorf("%s serves the list %q, not named after it", svc.kind, name)
			}
			if defaults[name] == nil {
				t.Errorf("the list %q is not among the defaults", name)
			}
		}
	}
	if len(defaults) < 3 {
		t.Fatalf("default lists %v", defaults)
	}

	h := newHarness(t, Options{})
	get := func(path string) map[string]any {
		t.Helper()
		resp, body := h.do(http.MethodGet, path, nil, nil)
		wantStatus(t, resp, body, http.StatusOK)
		return decode(t, body)
	}
	if items := get("/dfareporting/v5/userprofiles")["items"].([]any); len(items) != 2 {
		t.Errorf("profiles %v", items)
	}
	h.srv.SetLists(Lists{listLabels: map[string][]ListedLabel{"me": {{ID: "Label_9", Name: "Receipts", Type: "user"}}}})
	if items := get("/dfareporting/v5/userprofiles")["items"].([]any); len(items) != 0 {
		t.Errorf("profiles left out are still served: %v", items)
	}
	labels := get("/gmail/v1/users/me/labels")["labels"].([]any)
	if len(labels) != 1 || labels[0].(map[string]any)["name"] != "Receipts" {
		t.Errorf("labels %v", labels)
	}
	h.srv.SetLists(Lists{})
	if labels := get("/gmail/v1/users/me/labels")["labels"].([]any); len(labels) != 0 {
		t.Errorf("an account with none has labels %v", labels)
	}
}
