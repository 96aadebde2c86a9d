//go:build !windows

package handover

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// A process that has exited, its parent not having read its status yet (a
// zombie), holds no file: hoist quit counts it as ended, and does not wait
// for a parent that may be slow to look (TestQuitStopsASend met one).
func TestAnExitedProcessHasEnded(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	for deadline := time.Now().Add(30 * time.Second); !Ended(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d exited, not yet waited for, and is still said to run", pid)
		}
	}
	if Ended(os.Getpid()) {
		t.Error("this very process is said to have ended")
	}
}
