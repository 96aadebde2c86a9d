package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// hoist send of files already uploaded whole to the same place skips them
// with a sentence saying where and when, and how to send them anyway;
// --again sends them.
func TestSendSkipsWhatWentBefore(t *testing.T) {
	emu, base := serveEmulator(t, emulator.Options{})
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, "data"))
	file := filepath.Join(home, "minutes.pdf")
	if err := os.WriteFile(file, bytes.Repeat([]byte("%PDF-1.4 minutes\n"), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	send := func(extra ...string) (int, string, string) {
		var out, errs bytes.Buffer
		args := append([]string{"send", "--to", base + dest.SandboxPath, "--no-auth", "--journal", filepath.Join(home, "journal.db")}, extra...)
		code := Run(context.Background(), append(args, file), Env{Stdout: &out, Stderr: &errs})
		return code, out.String(), errs.String()
	}
	if code, out, errs := send(); code != exitOK || len(emu.Objects()) != 1 {
		t.Fatalf("first send: %d\n%s%s", code, out, errs)
	}
	code, out, errs := send()
	if code != exitOK || len(emu.Objects()) != 1 {
		t.Fatalf("the same file again: exit %d, %d objects\n%s%s", code, len(emu.Objects()), out, errs)
	}
	for _, want := range []string{"minutes.pdf is already in", "uploaded", "not sent again", "--again"} {
		if !strings.Contains(out, want) {
			t.Errorf("it said %q, without %q", out, want)
		}
	}
	if strings.Contains(out, "0 of 0") {
		t.Errorf("with nothing sent it counts nothing: %q", out)
	}
	if code, out, errs := send("--again"); code != exitOK || len(emu.Objects()) != 2 {
		t.Fatalf("--again: exit %d, %d objects\n%s%s", code, len(emu.Objects()), out, errs)
	}
}
