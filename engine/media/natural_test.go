package media

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestNamesInNaturalOrder: numbers inside names count by value, in every
// script's digits; letters regardless of case.
func TestNamesInNaturalOrder(t *testing.T) {
	want := []string{
		"doc_1.pdf", "doc_2.pdf", "doc_10.pdf", "doc_100.pdf",
		"Doc_101.pdf", "doc_0200.pdf", "photo 9.jpg", "Photo 10.jpg",
		"گزارش ۲.eml", "گزارش ۱۰.eml", "تقرير ٣.eml", "تقرير ١١.eml",
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, CompareNames)
	pos := func(list []string, s string) int { return slices.Index(list, s) }
	for _, pair := range [][2]string{
		{"doc_1.pdf", "doc_2.pdf"}, {"doc_2.pdf", "doc_10.pdf"}, {"doc_10.pdf", "doc_100.pdf"},
		{"doc_100.pdf", "Doc_101.pdf"}, {"Doc_101.pdf", "doc_0200.pdf"}, {"photo 9.jpg", "Photo 10.jpg"},
		{"گزارش ۲.eml", "گزارش ۱۰.eml"}, {"تقرير ٣.eml", "تقرير ١١.eml"},
	} {
		if pos(got, pair[0]) > pos(got, pair[1]) {
			t.Errorf("%q comes after %q in %q", pair[0], pair[1], got)
		}
	}
	if CompareNames("a01", "a1") == 0 || CompareNames("a", "A") == 0 {
		t.Error("names that differ compare equal")
	}
}

// TestAFolderIsAddedInNaturalOrder: a folder's files come out as people
// count, doc_2 before doc_10.
func TestAFolderIsAddedInNaturalOrder(t *testing.T) {
	dir := t.TempDir()
	names := []string{"doc_1.txt", "doc_10.txt", "doc_100.txt", "doc_2.txt", "doc_20.txt"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, problems := Expand([]string{dir})
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
	}
	want := []string{"doc_1.txt", "doc_2.txt", "doc_10.txt", "doc_20.txt", "doc_100.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("the folder's files came as %q, want %q", got, want)
	}
}
