package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDamagedJournalSaidOnceInPlainWords: a damaged upload list is set aside
// and the command line says so in one plain sentence, once.
func TestDamagedJournalSaidOnceInPlainWords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.db")
	if err := os.WriteFile(path, bytes.Repeat([]byte("not a database "), 400), 0o600); err != nil {
		t.Fatal(err)
	}
	queue := func() (code int, stdout, stderr string) {
		var out, errOut bytes.Buffer
		code = Queue(context.Background(), []string{"--journal", path}, &out, &errOut)
		return code, out.String(), errOut.String()
	}
	code, stdout, stderr := queue()
	if code != exitOK {
		t.Fatalf("exit %d, want 0:\n%s%s", code, stdout, stderr)
	}
	backups, _ := filepath.Glob(path + ".bad-*")
	if len(backups) != 1 {
		t.Fatalf("backups %v, want one", backups)
	}
	want := "The list of uploads was damaged and could not be read, so Hoist started with an empty list. The damaged file is kept in " + backups[0] + ".\n"
	if stderr != want {
		t.Errorf("stderr:\n%q\nwant:\n%q", stderr, want)
	}
	if !strings.Contains(stdout, "No uploads.") {
		t.Errorf("stdout %q, want an empty list", stdout)
	}
	if _, _, stderr := queue(); stderr != "" {
		t.Errorf("said again on the next start: %q", stderr)
	}
}
