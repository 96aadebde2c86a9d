package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"hoist/ui/handover"
	"hoist/words"
)

func TestAFailedHandOverLeavesTheWindowRunningAlone(t *testing.T) {
	refused := fmt.Errorf("handover: opening the socket for other Hoist windows: %w",
		errors.New("listen unix hoist.sock: socket: winapi error #10047"))
	c, other, alone := claimWindow(func(string) (*handover.Claim, error) { return nil, refused }, t.TempDir())
	if c != nil || other || !errors.Is(alone, refused) {
		t.Errorf("claimWindow with a failing channel = %v, %v, %v; want no claim, no other window, and the reason", c, other, alone)
	}
	if strings.Contains(aloneNote(), "could not start") {
		t.Errorf("the note %q reads as if Hoist had not started", aloneNote())
	}

	// A real failure on Unix: a settings folder too long a path for a socket.
	if runtime.GOOS == "windows" {
		return
	}
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 120))
	c, other, alone = claimWindow(handover.Listen, long)
	if c != nil {
		_ = c.Close()
	}
	if c != nil || other || alone == nil || !strings.Contains(alone.Error(), "too long") {
		t.Errorf("claimWindow in a folder too long for a socket = %v, %v, %v; want the window alone, saying why", c, other, alone)
	}
}

func TestASecondWindowHandsItsFilesOver(t *testing.T) {
	dir, err := os.MkdirTemp("", "hc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	first, other, alone := claimWindow(handover.Listen, dir)
	if first == nil || other || alone != nil {
		t.Fatalf("first claimWindow = %v, %v, %v; want the claim", first, other, alone)
	}
	defer first.Close()
	if c, other, alone := claimWindow(handover.Listen, dir); c != nil || !other || alone != nil {
		t.Errorf("second claimWindow = %v, %v, %v; want the files handed to the other window", c, other, alone)
	}
}

// A window that holds the claim but does not answer is said in the user's
// language, not in the list's English error.
func TestAHandOverThatFailsIsSaidInTheUsersLanguage(t *testing.T) {
	Speak(t, "fa")
	var out bytes.Buffer
	if code := handOver(context.Background(), t.TempDir(), []string{"a.png"}, &out); code != 1 {
		t.Fatalf("handOver to no window returned %d, want 1", code)
	}
	got := out.String()
	if want := words.New("fa").Say("ui.handOverFailed", nil); !strings.Contains(got, want) {
		t.Errorf("said %q, want the Persian sentence %q", got, want)
	}
	if strings.Contains(got, "already running") {
		t.Errorf("said the English error: %q", got)
	}
}
