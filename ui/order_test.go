package ui

import (
	"slices"
	"testing"
)

// TestTheListCountsAsPeopleDo: files dropped together, and a folder's
// files, are listed doc_1, doc_2, doc_10, not doc_1, doc_10, doc_2.
func TestTheListCountsAsPeopleDo(t *testing.T) {
	h := newHarness(t, harnessOptions{sandboxMode: true})
	var paths []string
	for _, n := range []string{"doc_10.txt", "doc_1.txt", "doc_100.txt", "doc_2.txt"} {
		paths = append(paths, h.writeFile(n, []byte("x")))
	}
	h.drop(paths...)
	h.waitFor("four rows", func() bool { return len(h.d.list.Views()) == 4 })
	var got []string
	for _, v := range h.d.list.Views() {
		got = append(got, v.Name)
	}
	if want := []string{"doc_1.txt", "doc_2.txt", "doc_10.txt", "doc_100.txt"}; !slices.Equal(got, want) {
		t.Errorf("the list shows %q, want %q", got, want)
	}
}
