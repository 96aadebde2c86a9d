package oledrop

import "testing"

// TestFileName: the names Outlook and other programs offer for what they
// drag become names Windows accepts, readable as offered.
func TestFileName(t *testing.T) {
	for offered, want := range map[string]string{
		"RE Budget.msg":              "RE Budget.msg",
		"تقرير الميزانية.msg":        "تقرير الميزانية.msg",
		"گزارش\u200cها.pdf":          "گزارش\u200cها.pdf",
		"\u202eevil\u202c.msg":       "evil.msg",
		`Folder\Sub\report.pdf`:      "report.pdf",
		"a/b.txt":                    "b.txt",
		`What? "Now": <yes>|no*.msg`: "What_ _Now__ _yes__no_.msg",
		"tab\there.msg":              "tab_here.msg",
		"trailing. . ":               "trailing",
		"":                           "item",
		"...":                        "item",
		"CON.msg":                    "_CON.msg",
		"lpt1":                       "_lpt1",
		"Console.msg":                "Console.msg",
	} {
		if got := fileName(offered); got != want {
			t.Errorf("fileName(%q) = %q, want %q", offered, got, want)
		}
	}
	long := ""
	for range 200 {
		long += "س"
	}
	if got := fileName(long + ".msg"); len([]rune(got)) != 120 || extension(got) != ".msg" {
		t.Errorf("a long subject became %q (%d characters), want 120 ending in .msg", got, len([]rune(got)))
	}
}

// TestNamesOfOneDrop: two items of one drop with the same name (two replies
// with the same subject) are both kept, under names of their own.
func TestNamesOfOneDrop(t *testing.T) {
	n := names{}
	var got []string
	for _, offered := range []string{"RE Budget.msg", "RE Budget.msg", "re budget.MSG", "notes", "notes"} {
		got = append(got, n.take(offered))
	}
	want := []string{"RE Budget.msg", "RE Budget (2).msg", "re budget (3).MSG", "notes", "notes (2)"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d: %q, want %q (all: %q)", i, got[i], want[i], got)
		}
	}
}
