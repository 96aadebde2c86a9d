package cli

import (
	"os"
	"path/filepath"
	"testing"

	"hoist/internal/winlink"
)

// TestSendToEntries: each user's "Send to → Hoist" entry points to the Hoist
// installed for everyone; removing it leaves another Hoist's entry alone.
func TestSendToEntries(t *testing.T) {
	users := t.TempDir()
	const target = `C:\Program Files\Hoist\Hoist.exe`
	own := userSendTo(filepath.Join(users, "ana", "AppData", "Roaming"))
	if err := makeSendTo(own, target); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(own, sendToLink))
	if err != nil {
		t.Fatal(err)
	}
	if got := winlink.Target(data); got != target {
		t.Fatalf("the entry points to %q, want %q", got, target)
	}
	// Another user has Hoist installed for themselves only.
	other := userSendTo(filepath.Join(users, "omid", "AppData", "Roaming"))
	if err := makeSendTo(other, `C:\Users\omid\AppData\Local\Programs\Hoist\Hoist.exe`); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(users, "Public"), 0o755); err != nil {
		t.Fatal(err)
	}
	folders := everySendTo(filepath.Join(users, "ana"))
	if len(folders) != 3 {
		t.Fatalf("every user's Send to: %v", folders)
	}
	if err := removeSendTo(folders, `c:\program files\hoist\hoist.exe`); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(own, sendToLink)); !os.IsNotExist(err) {
		t.Error("the entry of the Hoist installed for everyone is left")
	}
	if _, err := os.Stat(filepath.Join(other, sendToLink)); err != nil {
		t.Errorf("another Hoist's entry was removed: %v", err)
	}
}
