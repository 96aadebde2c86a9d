//go:build unix

package media

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"hoist/engine/fact"
)

// tree builds files and folders under a temporary root; paths ending in "/" are folders.
func tree(t *testing.T, paths ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, p := range paths {
		full := filepath.Join(root, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("content of "+p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func rel(t *testing.T, root string, paths []string) []string {
	t.Helper()
	out := make([]string, len(paths))
	for i, p := range paths {
		r, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = filepath.ToSlash(r)
	}
	return out
}

func TestExpand(t *testing.T) {
	root := tree(t,
		"a.txt",
		"photos/b.png",
		"photos/.hidden.png",
		"photos/desktop.ini",
		"photos/Thumbs.db",
		"photos/.DS_Store",
		"photos/~$budget.xlsx",
		"photos/.git/config",
		"photos/sub/z.eml",
		"photos/sub/c.eml",
		"photos/empty/",
	)
	photos := filepath.Join(root, "photos")
	if err := syscall.Mkfifo(filepath.Join(photos, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(photos, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	mustLink(t, "..", filepath.Join(photos, "sub", "up"))                      // back to an ancestor: a loop
	mustLink(t, "ping", filepath.Join(photos, "pong"))                         // pong → ping → pong
	mustLink(t, "pong", filepath.Join(photos, "ping"))                         //
	mustLink(t, filepath.Join(root, "a.txt"), filepath.Join(photos, "a-link")) // same file as a.txt
	mustLink(t, "nowhere.png", filepath.Join(photos, "broken"))

	files, skipped, problems := Expand([]string{
		filepath.Join(root, "a.txt"),
		photos,
		filepath.Join(root, "missing.eml"),
		filepath.Join(photos, "pipe"),
		filepath.Join(photos, ".hidden.png"), // named directly: the user chose it
	})

	wantFiles := []string{"a.txt", "photos/b.png", "photos/sub/c.eml", "photos/sub/z.eml", "photos/.hidden.png"}
	if got := rel(t, root, files); !slices.Equal(got, wantFiles) {
		t.Errorf("files = %q, want %q", got, wantFiles)
	}

	wantSkipped := map[string]string{
		"photos/.DS_Store":     string(fact.SkippedSystemFile),
		"photos/.git":          string(fact.SkippedHiddenFolder),
		"photos/.hidden.png":   string(fact.SkippedHiddenFile),
		"photos/Thumbs.db":     string(fact.SkippedSystemFile),
		"photos/a-link":        string(fact.SkippedIncluded),
		"photos/desktop.ini":   string(fact.SkippedSystemFile),
		"photos/pipe":          string(fact.SkippedSpecial) + " pipe",
		"photos/sock":          string(fact.SkippedSpecial) + " socket",
		"photos/~$budget.xlsx": string(fact.SkippedOfficeTemp),
	}
	gotSkipped := map[string]string{}
	for _, s := range skipped {
		r, _ := filepath.Rel(root, s.Path)
		gotSkipped[filepath.ToSlash(r)] = strings.TrimSpace(string(s.Fact.Code) + " " + s.Fact.Arg("kind"))
		if s.Fact.File != filepath.Base(s.Path) {
			t.Errorf("skipped %s: fact names %q", s.Path, s.Fact.File)
		}
	}
	if len(gotSkipped) != len(wantSkipped) {
		t.Errorf("skipped = %v, want %v", gotSkipped, wantSkipped)
	}
	for p, why := range wantSkipped {
		if gotSkipped[p] != why {
			t.Errorf("skipped[%s] = %q, want %q", p, gotSkipped[p], why)
		}
	}

	type want struct {
		kind    error
		message string
	}
	wantProblems := map[string]want{
		"photos/broken": {ErrMissing, "broken is no longer there (it may have been moved or deleted)."},
		"photos/ping":   {ErrLoop, "ping is a link that leads in a circle, so Hoist cannot follow it."},
		"photos/pong":   {ErrLoop, "pong is a link that leads in a circle, so Hoist cannot follow it."},
		"photos/sub/up": {ErrLoop, "up is a link that leads in a circle, so Hoist cannot follow it."},
		"missing.eml":   {ErrMissing, "missing.eml is no longer there (it may have been moved or deleted)."},
		"photos/pipe":   {ErrNotRegular, "pipe is a named pipe, not a regular file, so it cannot be uploaded."},
	}
	if len(problems) != len(wantProblems) {
		t.Errorf("got %d problems, want %d: %v", len(problems), len(wantProblems), problems)
	}
	for _, p := range problems {
		r, _ := filepath.Rel(root, p.Path)
		w, ok := wantProblems[filepath.ToSlash(r)]
		if !ok {
			t.Errorf("unexpected problem %s: %v", r, p)
			continue
		}
		if !errors.Is(p, w.kind) {
			t.Errorf("problem %s is not %v: %v", r, w.kind, p)
		}
		if SayEnglish(p) != w.message {
			t.Errorf("problem %s says %q, want %q", r, SayEnglish(p), w.message)
		}
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestExpandFollowsLinkedFolderOnce(t *testing.T) {
	root := tree(t, "real/x.png", "real/y.png", "other/")
	mustLink(t, filepath.Join(root, "real"), filepath.Join(root, "other", "alias"))

	files, skipped, problems := Expand([]string{filepath.Join(root, "other"), filepath.Join(root, "real")})
	if len(problems) != 0 {
		t.Fatalf("problems: %v", problems)
	}
	if got, want := rel(t, root, files), []string{"other/alias/x.png", "other/alias/y.png"}; !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
	if len(skipped) != 1 || skipped[0].Fact.Code != fact.SkippedFolderIncluded {
		t.Errorf("skipped = %v, want the second way into the same folder", skipped)
	}
}

func TestExpandUnreadable(t *testing.T) {
	root := tree(t, "ok.txt", "locked.txt", "closed/inside.txt")
	locked := filepath.Join(root, "locked.txt")
	closed := filepath.Join(root, "closed")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(closed, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(closed, 0o755) })

	files, _, problems := Expand([]string{root})
	if os.Geteuid() == 0 {
		// Permissions do not stop the superuser: everything is readable.
		if got, want := rel(t, root, files), []string{"closed/inside.txt", "locked.txt", "ok.txt"}; !slices.Equal(got, want) {
			t.Errorf("as root, files = %q, want %q", got, want)
		}
		if len(problems) != 0 {
			t.Errorf("as root, problems = %v", problems)
		}
		return
	}
	if got, want := rel(t, root, files), []string{"ok.txt"}; !slices.Equal(got, want) {
		t.Errorf("files = %q, want %q", got, want)
	}
	want := map[string]string{
		"closed":     "Hoist is not allowed to open the folder closed (check its permissions).",
		"locked.txt": "Hoist is not allowed to read locked.txt (check the file's permissions).",
	}
	if len(problems) != len(want) {
		t.Fatalf("problems = %v, want %v", problems, want)
	}
	for _, p := range problems {
		r, _ := filepath.Rel(root, p.Path)
		if !errors.Is(p, ErrUnreadable) || SayEnglish(p) != want[r] {
			t.Errorf("problem %s = %q (unreadable %v), want %q", r, SayEnglish(p), errors.Is(p, ErrUnreadable), want[r])
		}
	}
}

func TestUnreadableClassification(t *testing.T) {
	// The superuser cannot produce EACCES with chmod, so the classification is checked directly.
	err := &os.PathError{Op: "open", Path: "/x/report.eml", Err: syscall.EACCES}
	p := problemFor("/x/report.eml", err)
	if !errors.Is(p, ErrUnreadable) || !errors.Is(p, os.ErrPermission) {
		t.Errorf("problem %v does not classify as unreadable", p)
	}
	if want := "Hoist is not allowed to read report.eml (check the file's permissions)."; SayEnglish(p) != want {
		t.Errorf("message = %q, want %q", SayEnglish(p), want)
	}
	var asProblem *Problem
	if !errors.As(error(p), &asProblem) || asProblem.Path != "/x/report.eml" {
		t.Errorf("errors.As did not find the Problem with its path: %+v", asProblem)
	}
}
