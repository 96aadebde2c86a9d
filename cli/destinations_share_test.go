package cli

import (
	"bytes"
	"hoist/dirs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hoist/engine/dest"
	"hoist/engine/emulator"
)

// destinationsLab gives `hoist destinations` a private config folder and
// an organisation folder with one managed destination.
func destinationsLab(t *testing.T) (saved *dest.Presets, work string) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	system := filepath.Join(home, "system")
	os.MkdirAll(system, 0o755)
	t.Setenv(dirs.SystemEnv, system)
	os.WriteFile(filepath.Join(system, dest.ManagedFile), []byte(`{"version":1,"destinations":[
		{"name":"Team archive","kind":"gmail-insert","params":{"labels":"Label_1"}},
		{"name":"Broken","kind":"cm360"}]}`), 0o644)
	p, err := dest.OpenPresets(dest.DefaultPresetsPath())
	if err != nil {
		t.Fatal(err)
	}
	work = filepath.Join(home, "work")
	os.MkdirAll(work, 0o755)
	t.Chdir(work)
	return p, work
}

func runDestinations(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(t.Context(), append([]string{"destinations"}, args...), Env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func TestDestinationsExportImportList(t *testing.T) {
	saved, work := destinationsLab(t)
	if err := saved.Put(dest.Destination{Name: "Banners for ACME", Kind: dest.CM360, Account: "ada@example.com",
		Params: map[string]string{"profileId": "4180912", "advertiserId": "64032117"}}); err != nil {
		t.Fatal(err)
	}

	code, out, errs := runDestinations(t, "list")
	if code != 0 || !strings.Contains(out, "Team archive \u2014 Gmail") || !strings.Contains(out, "from your organisation (read-only)") ||
		!strings.Contains(out, "Banners for ACME \u2014 Campaign Manager 360") || !strings.Contains(out, "advertiserId=64032117") {
		t.Errorf("list: %d\n%s", code, out)
	}
	if !strings.Contains(errs, "Broken") || !strings.Contains(errs, dest.ManagedFile) {
		t.Errorf("the broken managed destination is not named: %q", errs)
	}

	code, out, errs = runDestinations(t, "export", "Banners for ACME")
	file := filepath.Join(work, "Banners for ACME"+dest.ShareExtension)
	if code != 0 || !strings.Contains(out, "Exported Banners for ACME") {
		t.Fatalf("export: %d %q %q", code, out, errs)
	}
	data, err := os.ReadFile(file)
	if err != nil || strings.Contains(string(data), "ada@example.com") || strings.Contains(strings.ToLower(string(data)), "token") {
		t.Fatalf("exported file (%v):\n%s", err, data)
	}
	if code, _, errs := runDestinations(t, "export", "Banners for ACME"); code != 1 || !strings.Contains(errs, "already exists") {
		t.Errorf("export over an existing file: %d %q", code, errs)
	}

	// Imported where the name is free; refused where it is taken, with nothing lost.
	if code, _, errs := runDestinations(t, "import", file); code != 1 || !strings.Contains(errs, "already a destination called Banners for ACME") {
		t.Errorf("import of a taken name: %d %q", code, errs)
	}
	if err := saved.Delete("Banners for ACME"); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runDestinations(t, "import", file)
	if code != 0 || !strings.Contains(out, "Imported Banners for ACME") {
		t.Fatalf("import: %d %q %q", code, out, errs)
	}
	back, err := dest.OpenPresets(dest.DefaultPresetsPath())
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := back.Get("Banners for ACME"); !ok || d.Params["advertiserId"] != "64032117" || d.Account != "" {
		t.Errorf("imported destination %+v", d)
	}

	newer := filepath.Join(work, "newer"+dest.ShareExtension)
	os.WriteFile(newer, []byte(`{"format":"hoist-destination","version":9,"destination":{"name":"x","kind":"sandbox"}}`), 0o644)
	if code, _, errs := runDestinations(t, "import", newer); code != 1 || !strings.Contains(errs, "newer Hoist") {
		t.Errorf("import of a newer file: %d %q", code, errs)
	}
	if code, _, _ := runDestinations(t, "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: %d", code)
	}
}

// TestSendResolvesLabelNames: label names given with --labels become ids
// before the upload; a name the mailbox lacks stops it before any byte.
func TestSendResolvesLabelNames(t *testing.T) {
	l := newSendLab(t, emulator.Options{})
	file := l.email("note.eml", "Note", 1<<10)
	code, stdout, stderr := l.send("--to", "gmail-insert", "--labels", "invoices, INBOX", "--base-url", l.url, "--method", "multipart", file)
	if code != exitOK {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	objs := l.srv.Objects()
	if len(objs) != 1 || !strings.Contains(string(objs[0].Metadata), `"labelIds":["Label_1","INBOX"]`) {
		t.Fatalf("objects %+v", objs)
	}
	other := l.email("other.eml", "Other", 1<<10)
	code, _, stderr = l.send("--to", "gmail-insert", "--labels", "Receipts", "--base-url", l.url, other)
	if code != exitFailed || !strings.Contains(stderr, "\u201cReceipts\u201d") {
		t.Errorf("an unknown label: exit %d, %q", code, stderr)
	}
	if n := len(l.srv.Objects()); n != 1 {
		t.Errorf("%d objects after a refused label; nothing should have been sent", n)
	}
	// Without a sign-in, names cannot be looked up: said with the flag
	// that gave them, which comes from the kind's field.
	code, _, stderr = l.send("--to", "gmail-insert", "--labels", "Invoices", "--no-auth", other)
	if code != exitFailed || !strings.Contains(stderr, "--labels") || !strings.Contains(stderr, "INBOX, Label_12") {
		t.Errorf("names without a sign-in: exit %d, %q", code, stderr)
	}
}
